"""Tables played together online (docs/tables.md): the API under ``/api/tables`` and the
pages (``routes``), the event streams and the background player of each process (``hub``)."""
