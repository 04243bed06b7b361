"""What ships to the phone: the form reader, the device's scorer and game (run by the
browser's Pyodide worker), and the routes that serve them (manifest, service worker, zip).

Everything here but :mod:`~scopa.web.phone.offline` is pure Python with no web framework: it
runs on the device as it does on the server."""
