"""HTTP/1.1 server machinery shared by the test fixture servers.

fixture_server.py, fake_tmdb.py and stream_server.py need a server whose bytes on the wire
are exactly the ones their routes describe: no framework that "fixes" a
deliberately broken response, adds headers, or buffers a multi-gigabyte body.
This module is that server, written directly on asyncio streams; each server
file keeps only its routes and data and hands a dispatch function to main().

It is imported, not run. The servers are started as scripts
(python3 Tests/Fixtures/fixture_server.py ...) from any working directory,
and Python puts a script's own directory first on sys.path, so a plain
"import http_fixture" finds this file next to them.

API
    main(dispatch, *, description, server_name,
         error_content_type="application/json", bug_message="fixture server bug")
        Parse --port/--port-file/--verbose (and --tls-cert/--tls-key to serve
        https), listen on 127.0.0.1, write the
        port file, print "listening 127.0.0.1:PORT", serve until SIGTERM or
        SIGINT, then remove the port file and return (exit status 0).
        dispatch(req) returns an awaitable of a Response, or of CLOSE.
    Request         method, target, version, headers (lower-case names),
                    path (unquoted), query_string, query (first value per
                    name), keep_alive, reader, writer;
                    body_chunks(), read_body(), discard_body()
    Response(status, headers=(), body=b"", stream=None)
    CLOSE           a dispatch result: the route wrote (or deliberately did
                    not write) its answer itself; close the connection
    BadRequest(status, message)   raise to answer {"error": message} and close
    json_body(obj), json_response(status, obj, headers=(), content_type=...),
    text_response(status, text, headers=())
    render_head(status, headers, keep_alive=True)   for hand-made responses
    HOST, STREAM_CHUNK

Python 3.11 standard library only; binds to 127.0.0.1 and nothing else.
"""

from __future__ import annotations

import argparse
import asyncio
import email.utils
import json
import logging
import os
import signal
import sys
import time
import traceback
from http import HTTPStatus
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = [
    "HOST", "STREAM_CHUNK", "BadRequest", "Response", "CLOSE", "Request",
    "render_head", "json_body", "json_response", "text_response", "main",
]

HOST = "127.0.0.1"

# Generous enough for any header block a test sends (the router's longest URL is
# 1 MiB), small enough that a runaway client cannot make us buffer without bound.
HEADER_LIMIT = 2 * 1024 * 1024
STREAM_CHUNK = 64 * 1024

REASONS = {status.value: status.phrase for status in HTTPStatus}

# Statuses that must never carry a body or a Content-Length (RFC 9110 6.4.1);
# sending one would desynchronise a keep-alive client.
NO_BODY_STATUSES = frozenset({204, 304})

# The "Server:" line of every response head. Process-wide rather than an
# argument because one process runs one server, and routes that hand-craft a
# broken response call render_head() directly; main() sets it.
_server_header = "Server: networklayer-fixture\r\n"


# --------------------------------------------------------------------------
# Requests and responses
# --------------------------------------------------------------------------

class BadRequest(Exception):
    """A request we cannot frame; the connection is answered and then closed
    because we no longer know where the next request starts."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class Response:
    """A complete answer. Either `body` (Content-Length is added for you) or
    `stream`, an async iterator of bytes, whose Content-Length the route must
    put in `headers` itself because only it knows the total."""

    __slots__ = ("status", "headers", "body", "stream")

    def __init__(self, status, headers=(), body=b"", stream=None):
        self.status = status
        self.headers = headers
        self.body = body
        self.stream = stream


# Returned by a route that has already written (or deliberately not written)
# its answer and wants the connection closed: fault injection and hangs.
CLOSE = object()

_BODY_NONE, _BODY_UNREAD, _BODY_READING, _BODY_DONE = range(4)



async def _read_exactly(reader, count):
    """Yields exactly `count` bytes from `reader` in chunks; a short read means the client went away."""
    remaining = count
    while remaining:
        data = await reader.read(min(remaining, STREAM_CHUNK))
        if not data:
            raise asyncio.IncompleteReadError(b"", remaining)
        remaining -= len(data)
        yield data

class Request:
    # __slots__: one Request per request on the benchmark's hot path.
    __slots__ = ("method", "target", "version", "headers", "path", "query_string",
                 "_query", "keep_alive", "reader", "writer",
                 "_chunked", "_length", "_expect_continue", "_body_state")

    @property
    def query(self) -> dict[str, str]:
        # Parsed lazily: /fast never looks at it and is the benchmark's hot path.
        if self._query is None:
            parsed = parse_qs(self.query_string, keep_blank_values=True)
            self._query = {name: values[0] for name, values in parsed.items()}
        return self._query

    async def body_chunks(self):
        """Yield the request body as it arrives, never holding all of it, so
        multi-gigabyte uploads cost no memory."""
        if self._body_state != _BODY_UNREAD:
            return
        self._body_state = _BODY_READING
        if self._expect_continue:
            # Only now, when someone wants the body, do we invite the client
            # to send it; clients such as curl otherwise stall for a second.
            self.writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        reader = self.reader
        if self._chunked:
            while True:
                size_line = await reader.readline()
                if not size_line.endswith(b"\n"):
                    raise asyncio.IncompleteReadError(size_line, None)
                size_text = size_line.split(b";", 1)[0].strip()  # drop chunk extensions
                try:
                    remaining = int(size_text, 16)
                except ValueError:
                    raise BadRequest(400, "bad chunk size") from None
                if remaining < 0:
                    raise BadRequest(400, "bad chunk size")
                if remaining == 0:
                    # Trailer section: header lines up to an empty line.
                    while True:
                        line = await reader.readline()
                        if not line.endswith(b"\n"):
                            raise asyncio.IncompleteReadError(line, None)
                        if line in (b"\r\n", b"\n"):
                            break
                    break
                async for data in _read_exactly(reader, remaining):
                    yield data
                if (await reader.readline()).strip():
                    raise BadRequest(400, "chunk not followed by CRLF")
        else:
            async for data in _read_exactly(reader, self._length):
                yield data
        self._body_state = _BODY_DONE

    async def read_body(self) -> bytes:
        return b"".join([chunk async for chunk in self.body_chunks()])

    async def discard_body(self) -> bool:
        """Consume whatever body the route ignored, so the next request on this
        keep-alive connection starts at the right byte. False means a route
        stopped half way through and the connection cannot be reused."""
        if self._body_state == _BODY_READING:
            return False
        async for _ in self.body_chunks():
            pass
        return True


async def read_request(reader: asyncio.StreamReader, writer) -> Request | None:
    """Read one request head. None means the client closed between requests,
    which is the normal end of a keep-alive connection."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    except asyncio.LimitOverrunError:
        raise BadRequest(431, "request header fields too large") from None

    # RFC 9112 2.2: tolerate stray CRLFs some clients send after a body.
    lines = head.decode("latin-1").lstrip("\r\n").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
        raise BadRequest(400, "malformed request line")
    method, target, version = parts

    headers: dict[str, str] = {}
    for line in lines[1:]:
        if not line:
            continue
        name, sep, value = line.partition(":")
        if not sep or not name or name != name.strip():
            raise BadRequest(400, "malformed header line")
        name = name.lower()
        value = value.strip()
        # Repeated fields combine into one list value (RFC 9110 5.3).
        headers[name] = f"{headers[name]}, {value}" if name in headers else value

    req = Request()
    req.method = method
    req.target = target
    req.version = version
    req.headers = headers
    req.reader = reader
    req.writer = writer
    req._query = None

    split = urlsplit(target)  # also copes with absolute-form targets
    req.path = unquote(split.path) or "/"
    req.query_string = split.query

    connection = headers.get("connection", "").lower()
    if version == "HTTP/1.1":
        req.keep_alive = "close" not in connection
    else:
        req.keep_alive = "keep-alive" in connection

    transfer_encoding = headers.get("transfer-encoding")
    req._chunked = False
    req._length = 0
    if transfer_encoding is not None:
        if transfer_encoding.lower().rsplit(",", 1)[-1].strip() != "chunked":
            raise BadRequest(501, "unsupported transfer-encoding")
        req._chunked = True
        if "content-length" in headers:
            # Both framings present is a smuggling pattern; honour chunked
            # as required, but do not trust this connection afterwards.
            req.keep_alive = False
    elif "content-length" in headers:
        text = headers["content-length"]
        if not text.isdigit():
            raise BadRequest(400, "bad content-length")
        req._length = int(text)

    has_body = req._chunked or req._length > 0
    req._body_state = _BODY_UNREAD if has_body else _BODY_NONE
    req._expect_continue = (has_body and version == "HTTP/1.1"
                            and headers.get("expect", "").lower() == "100-continue")
    return req


_date_cache = [0, ""]


def http_date() -> str:
    # Formatting a date per request is measurable in the /fast benchmark;
    # its value only changes once a second.
    now = int(time.time())
    if now != _date_cache[0]:
        _date_cache[0] = now
        _date_cache[1] = email.utils.formatdate(now, usegmt=True)
    return _date_cache[1]


def render_head(status: int, headers, keep_alive: bool = True) -> bytes:
    parts = [f"HTTP/1.1 {status} {REASONS.get(status, 'Unknown')}\r\n"
             f"Date: {http_date()}\r\n{_server_header}"]
    for name, value in headers:
        # Values can come from the query string (Retry-After); a CR or LF
        # there would split the response.
        value = str(value).replace("\r", " ").replace("\n", " ")
        parts.append(f"{name}: {value}\r\n")
    if not keep_alive:
        parts.append("Connection: close\r\n")
    parts.append("\r\n")
    # UTF-8 keeps non-ASCII header values "verbatim" as the client sent them.
    return "".join(parts).encode("utf-8")


async def send_response(req: Request, resp: Response) -> None:
    writer = req.writer
    status = resp.status
    headers = resp.headers
    send_body = req.method != "HEAD" and status not in NO_BODY_STATUSES
    if resp.stream is None:
        if status not in NO_BODY_STATUSES:
            headers = (*headers, ("Content-Length", len(resp.body)))
        head = render_head(status, headers, req.keep_alive)
        # One write for head and body: one send() and no Nagle interplay.
        writer.write(head + resp.body if send_body else head)
    else:
        writer.write(render_head(status, headers, req.keep_alive))
        if send_body:
            async for chunk in resp.stream:
                writer.write(chunk)
                # Back-pressure: never let a slow reader balloon our buffer.
                await writer.drain()
    await writer.drain()


def json_body(obj) -> bytes:
    # ensure_ascii=False: real UTF-8 on the wire, as real APIs send it, so a
    # client's decoding of non-ASCII text is actually exercised.
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """Whether If-None-Match names `etag` (or is `*`), by weak comparison (RFC 9110 13.1.2):
    W/ prefixes do not matter for If-None-Match."""
    if if_none_match is None:
        return False
    if if_none_match.strip() == "*":
        return True
    strip = lambda tag: tag.strip().removeprefix("W/")
    return any(strip(tag) == strip(etag) for tag in if_none_match.split(","))


def json_response(status: int, obj, headers=(), content_type="application/json") -> Response:
    return Response(status, (("Content-Type", content_type), *headers), json_body(obj))


def text_response(status: int, text: str, headers=()) -> Response:
    return Response(status, (("Content-Type", "text/plain; charset=utf-8"), *headers),
                    text.encode("utf-8"))


# --------------------------------------------------------------------------
# Connections
# --------------------------------------------------------------------------

def _connection_handler(dispatch, connections: set, error_response, bug_message: str,
                        verbose: bool):
    """The per-connection coroutine for asyncio.start_server. A closure rather
    than module state so that what differs between servers (dispatch, error
    bodies) is plain local lookups on the per-request path."""

    async def handle_connection(reader: asyncio.StreamReader,
                                writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        connections.add(task)
        try:
            while True:
                try:
                    req = await read_request(reader, writer)
                except BadRequest as error:
                    # No Request to answer through: the head itself was unusable.
                    resp = error_response(error.status, error.message)
                    writer.write(render_head(resp.status, (
                        *resp.headers, ("Content-Length", len(resp.body)),
                    ), keep_alive=False) + resp.body)
                    await writer.drain()
                    break
                if req is None:
                    break

                try:
                    result = await dispatch(req)
                except (ConnectionError, asyncio.IncompleteReadError):
                    raise
                except BadRequest as error:
                    req.keep_alive = False
                    result = error_response(error.status, error.message)
                except Exception:
                    # A bug in a route, not a client going away: worth one traceback.
                    traceback.print_exc()
                    req.keep_alive = False
                    result = error_response(500, bug_message)

                if result is CLOSE:
                    break
                if not await req.discard_body():
                    req.keep_alive = False
                await send_response(req, result)
                if verbose:
                    print(f"{req.method} {req.target} -> {result.status}",
                          file=sys.stderr, flush=True)
                if not req.keep_alive:
                    break
        except (ConnectionError, asyncio.IncompleteReadError, BadRequest, ValueError):
            # Clients may vanish at any point (many tests do it on purpose);
            # ValueError is StreamReader's "line too long" in a chunked body.
            pass
        except asyncio.CancelledError:
            pass  # server shutdown
        finally:
            connections.discard(task)
            try:
                writer.close()
            except Exception:
                pass

    return handle_connection


# --------------------------------------------------------------------------
# Process lifecycle
# --------------------------------------------------------------------------

def write_port_file(path: str, port: int) -> None:
    # Write-then-rename: a poller never reads an empty or half-written file.
    temporary = path + ".tmp"
    with open(temporary, "w") as handle:
        handle.write(f"{port}\n")
    os.replace(temporary, path)


def quiet_exception_handler(loop, context):
    # Transports report peers that reset mid-write here; for servers whose
    # clients hang up on purpose that is an expected event, not an error.
    if isinstance(context.get("exception"), (ConnectionError, asyncio.IncompleteReadError)):
        return
    loop.default_exception_handler(context)


async def serve(port: int, port_file: str | None, handle_connection, connections: set,
                tls=None) -> None:
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(quiet_exception_handler)
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)

    # A large backlog: tests open hundreds of connections at once.
    try:
        server = await asyncio.start_server(handle_connection, HOST, port,
                                            limit=HEADER_LIMIT, backlog=1024, ssl=tls)
    except OSError as error:
        # Usually "address already in use": one line for the test script's
        # log is more useful than a traceback.
        sys.exit(f"cannot listen on {HOST}:{port}: {error.strerror or error}")
    actual_port = server.sockets[0].getsockname()[1]
    if port_file:
        write_port_file(port_file, actual_port)
    print(f"listening {HOST}:{actual_port}", flush=True)

    await stop.wait()
    server.close()
    # Cancel rather than wait: connections parked in a hang, a drip or an
    # idle keep-alive would otherwise hold shutdown until their clients leave.
    for task in list(connections):
        task.cancel()
    await asyncio.gather(*connections, return_exceptions=True)
    await server.wait_closed()
    if port_file:
        # A later run reusing this path must not read our stale port.
        try:
            os.remove(port_file)
        except OSError:
            pass


def main(dispatch, *, description: str, server_name: str,
         error_content_type: str = "application/json",
         bug_message: str = "fixture server bug") -> None:
    """Run a server from the command line until SIGTERM or SIGINT.

    dispatch(req) is called for every request and must return an awaitable
    of a Response or CLOSE. The machinery's own error answers (unframeable
    requests, BadRequest raised by a route, a route's bug) are
    {"error": message} with error_content_type, so they look like the rest
    of that server's JSON; bug_message is the message for a route's bug.
    """
    global _server_header
    _server_header = f"Server: {server_name}\r\n"

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--port", type=int, required=True, help="0 picks a free port")
    parser.add_argument("--port-file", help="write the listening port here")
    parser.add_argument("--verbose", action="store_true", help="log every request to stderr")
    parser.add_argument("--tls-cert", help="serve https with this PEM certificate chain")
    parser.add_argument("--tls-key", help="the private key of --tls-cert")
    args = parser.parse_args()
    # asyncio warns "socket.send() raised exception" when writing to peers
    # that left; with clients that disconnect on purpose that is only noise.
    logging.getLogger("asyncio").setLevel(logging.WARNING if args.verbose else logging.ERROR)

    def error_response(status: int, message: str) -> Response:
        return json_response(status, {"error": message}, content_type=error_content_type)

    # Every connection task, so shutdown can cancel them (see serve()).
    connections: set[asyncio.Task] = set()
    handler = _connection_handler(dispatch, connections, error_response, bug_message,
                                  args.verbose)
    tls = None
    if args.tls_cert:
        # https for the TLS tests: the same routes behind a certificate that the test
        # command generates (verification, custom CA and pinning are tested against it).
        import ssl
        tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls.load_cert_chain(args.tls_cert, args.tls_key)
    asyncio.run(serve(args.port, args.port_file, handler, connections, tls))
