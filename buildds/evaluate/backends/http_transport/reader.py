"""Reading an HTTP/1.1 response incrementally (:class:`ResponseReader`: Content-Length,
chunked and read-until-close bodies, interim 1xx responses skipped) and decoding its body
(:func:`decode_body`: gzip/deflate), each bounded by the response size limit."""

from __future__ import annotations

import zlib

from buildds.evaluate.backends.http_transport.client import Reply
from buildds.safeio.limits import LIMITS

__all__ = ["ProtocolError", "ResponseReader", "ResponseTooLarge", "decode_body"]

#: bytes of a response head (status line and headers) or of its trailers, at most
_MAX_HEAD = 65536
#: bytes of one chunk-size line (the size and any extensions), at most
_MAX_LINE = 4096


class ProtocolError(Exception):
    """The server's answer is not HTTP/1.1 as we read it."""


class ResponseTooLarge(Exception):
    """A response longer than the limit; its message is the per-sample error."""

    def __init__(self, limit: int):
        self.limit = limit
        super().__init__(f"response larger than the limit of {limit:,} bytes (raise it with "
                         f"{LIMITS['response_bytes'].option})")


def decode_body(body: bytes, encoding: str, max_bytes: int | None = None) -> bytes:
    """``body`` decoded from its Content-Encoding (identity, gzip or deflate), producing at
    most ``max_bytes`` (:class:`ResponseTooLarge` past it: a small gzip bomb stays small)."""
    encoding = encoding.strip().lower()
    if encoding in ("identity", ""):
        out = body
    elif encoding in ("gzip", "x-gzip", "deflate"):
        out = b""
        for wbits in (47, -15):  # a zlib or gzip header; else raw deflate (as some send it)
            decoder = zlib.decompressobj(wbits)
            try:
                out = decoder.decompress(body, 0 if max_bytes is None else max_bytes + 1)
            except zlib.error:
                continue
            if decoder.eof or (max_bytes is not None and len(out) > max_bytes):
                break
        else:
            raise ProtocolError(f"bad {encoding} body")
    else:
        raise ProtocolError(f"unsupported Content-Encoding {encoding!r}")
    if max_bytes is not None and len(out) > max_bytes:
        raise ResponseTooLarge(max_bytes)
    return out


class ResponseReader:
    """An incremental HTTP/1.1 response parser: :meth:`feed` bytes until it returns the reply.

    Bodies by Content-Length, chunked, or up to the end of the connection (:meth:`eof`);
    gzip/deflate bodies are decoded (none are asked for); 1xx interim responses are skipped.
    A body (raw or decoded) longer than ``max_body`` raises :class:`ResponseTooLarge` as soon
    as that is known.
    """

    def __init__(self, max_body: int | None = None) -> None:
        self.max_body = max_body
        self._chunk_bytes = 0
        self.buffer = bytearray()
        self.started = False
        self.status = 0
        self.headers: dict[str, str] = {}
        self.keep_alive = True
        self._length: int | None = None  # None: chunked or up to the end of the connection
        self._chunked = False
        self._chunks: list[bytes] = []
        self._in_body = False

    def feed(self, data: bytes) -> Reply | None:
        """Takes more bytes; the reply once it is complete, else ``None``."""
        self.started = True
        self.buffer += data
        if not self._in_body and not self._read_head():
            return None
        if self._chunked:
            return self._read_chunks()
        if self._length is None:
            self._check_size(len(self.buffer))
            return None
        if len(self.buffer) < self._length:
            return None
        body = bytes(self.buffer[: self._length])
        del self.buffer[: self._length]
        return self._reply(body)

    def eof(self) -> Reply:
        """The connection ended: the reply if its body runs up to here, else an error."""
        if self._in_body and self._length is None and not self._chunked:
            self.keep_alive = False
            body = bytes(self.buffer)
            self.buffer.clear()
            return self._reply(body)
        raise ConnectionResetError("the server closed the connection before answering")

    def _check_size(self, size: int) -> None:
        if self.max_body is not None and size > self.max_body:
            raise ResponseTooLarge(self.max_body)

    def _read_head(self) -> bool:
        """Parses the status line and headers once they are all in; skips 1xx replies."""
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buffer) > _MAX_HEAD:
                    raise ProtocolError("response head too long")
                return False
            status_line, *lines = self.buffer[:end].decode("latin-1").split("\r\n")
            del self.buffer[: end + 4]
            version, _, rest = status_line.partition(" ")
            if not version.startswith("HTTP/1.") or not rest[:3].isdigit():
                raise ProtocolError(f"bad status line {status_line[:40]!r}")
            status = int(rest[:3])
            if 100 <= status < 200:
                continue
            self.status = status
            self.headers = {}
            for line in lines:
                name, _, value = line.partition(":")
                self.headers[name.strip().lower()] = value.strip()
            self._start_body(version)
            return True

    def _start_body(self, version: str) -> None:
        connection = self.headers.get("connection", "").lower()
        self.keep_alive = connection != "close" and (
            version != "HTTP/1.0" or "keep-alive" in connection
        )
        self._in_body = True
        if "chunked" in self.headers.get("transfer-encoding", "").lower():
            self._chunked = True
        elif "content-length" in self.headers:
            try:
                self._length = int(self.headers["content-length"])
            except ValueError:
                raise ProtocolError("bad Content-Length")
            if self._length < 0:
                raise ProtocolError("bad Content-Length")
            self._check_size(self._length)
        elif self.status in (204, 304):
            self._length = 0
        else:
            self.keep_alive = False  # the body runs up to the end of the connection

    def _read_chunks(self) -> Reply | None:
        while True:
            line_end = self.buffer.find(b"\r\n")
            if line_end < 0 or line_end > _MAX_LINE:
                if len(self.buffer) > _MAX_LINE:  # a size line that never ends
                    raise ProtocolError("chunk size line too long")
                return None
            try:
                size = int(self.buffer[:line_end].split(b";", 1)[0], 16)
            except ValueError:
                raise ProtocolError("bad chunk size")
            if size == 0:  # the last chunk, then optional trailers and an empty line
                end = self._trailers_end(line_end + 2)
                if end < 0:
                    if len(self.buffer) > _MAX_HEAD:
                        raise ProtocolError("response trailers too long")
                    return None
                del self.buffer[:end]
                return self._reply(b"".join(self._chunks))
            self._check_size(self._chunk_bytes + size)
            if len(self.buffer) < line_end + 2 + size + 2:
                return None
            start = line_end + 2
            self._chunks.append(bytes(self.buffer[start : start + size]))
            self._chunk_bytes += size
            del self.buffer[: start + size + 2]

    def _trailers_end(self, start: int) -> int:
        """Where the trailers that begin at ``start`` end (-1: not all in yet)."""
        if self.buffer[start : start + 2] == b"\r\n":
            return start + 2
        end = self.buffer.find(b"\r\n\r\n", start)
        return end + 4 if end >= 0 else -1

    def _reply(self, body: bytes) -> Reply:
        body = decode_body(body, self.headers.get("content-encoding", "identity"),
                           self.max_body)
        return Reply(self.status, self.headers.get("retry-after"), body)
