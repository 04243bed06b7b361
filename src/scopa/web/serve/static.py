"""The static files, each sent gzip-compressed where a compressed copy was made at build
(``NAME.gz`` beside it: ``scripts/vendor.py`` makes one for the vendored scripts, styles and
Pyodide's WebAssembly) and the browser takes gzip: ``Content-Encoding: gzip`` with the
original's type, and ``Vary: Accept-Encoding`` on both forms (the uncompressed one gets it
from the app's GZip middleware) so that no cache hands one to a browser that asked for the
other. Nothing is compressed while serving (Pyodide's 9.6 MB of
WebAssembly would cost every phone's first visit a second of the server's CPU)."""

from __future__ import annotations

import os
import stat
from os import PathLike

from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse
from starlette.types import Receive, Scope, Send


def takes_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header lets the answer be gzip (``q=0`` refuses it).

    >>> takes_gzip("gzip, deflate, br"), takes_gzip("br;q=1.0, gzip;q=0"), takes_gzip("*")
    (True, False, True)
    >>> takes_gzip(""), takes_gzip("identity"), takes_gzip("GZIP;q=0.5")
    (False, False, True)
    """
    found: dict[str, float] = {}
    for part in accept_encoding.split(","):
        name, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if name.strip():
            found[name.strip().lower()] = weight
    if "gzip" in found:
        return found["gzip"] > 0
    return found.get("*", 0.0) > 0


class PrecompressedStaticFiles(StaticFiles):
    """:class:`StaticFiles` sending a file's ``.gz`` copy to a browser that takes gzip."""

    def file_response(
        self,
        full_path: PathLike[str] | str,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        compressed = f"{os.fspath(full_path)}.gz"
        try:
            gz_stat = os.stat(compressed)
        except OSError:
            return super().file_response(full_path, stat_result, scope, status_code)
        if not stat.S_ISREG(gz_stat.st_mode):
            return super().file_response(full_path, stat_result, scope, status_code)
        request_headers = Headers(scope=scope)
        if not takes_gzip(request_headers.get("accept-encoding", "")):
            # as it is (the app's GZip middleware names Accept-Encoding in its Vary)
            return super().file_response(full_path, stat_result, scope, status_code)
        # the original's type, as it is sent uncompressed
        content_type = FileResponse(full_path, stat_result=stat_result).headers["content-type"]
        response = FileResponse(
            compressed,
            status_code=status_code,
            stat_result=gz_stat,
            headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"},
        )
        response.headers["content-type"] = content_type
        if self.is_not_modified(response.headers, request_headers):
            return NotModifiedResponse(response.headers)
        return response


class Compression(GZipMiddleware):
    """Starlette's GZip middleware, reading ``Accept-Encoding`` as :func:`takes_gzip` does
    (Starlette's own sees ``gzip;q=0`` as taking gzip): a request that refuses gzip reaches the
    app without the header, so nothing in the answer is compressed."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            accepted = Headers(scope=scope).get("accept-encoding", "")
            if accepted and not takes_gzip(accepted):
                headers = [(k, v) for k, v in scope["headers"] if k.lower() != b"accept-encoding"]
                scope = {**scope, "headers": headers}
        await super().__call__(scope, receive, send)
