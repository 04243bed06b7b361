"""Running the server: the app factory, ``scopa serve``, the HTTP server with its deadlines
and the worker processes."""
