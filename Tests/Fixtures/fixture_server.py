#!/usr/bin/env python3
"""Fixture HTTP/1.1 server for the NetworkLayer tests and benchmarks.

It exists because httpbin cannot misbehave on purpose: the tests need a server
that hangs, drops connections at precise points, lies about Content-Length,
answers a scripted sequence of statuses, and streams large deterministic
payloads. Everything here is written directly on asyncio streams, so the bytes
on the wire are exactly the ones these routes describe, with no framework
"fixing" a deliberately broken response.

Usage:  python3 fixture_server.py --port N [--port-file PATH] [--verbose]

    N = 0 picks a free port. Once listening, the server writes the port to
    PATH (atomically) and prints one line "listening 127.0.0.1:PORT".
    SIGTERM or SIGINT stops it with exit status 0.

Routes (any method unless noted; unknown paths get 404 {"error":"no route"}):
    /fast                       200 {"ok":true}
    /hang                       never answers; waits for the client to leave
    /status/{200..599}          that status; ?retry_after=V, ?body=TEXT
    /sequence/{key}             ?statuses=503,503,200[&retry_after=V], n-th call
                                answers the n-th status (the last one repeats)
    /sequence/{key}/log         {"attempts":[{"t": monotonic, "method": ...}]}
    /protected                  200 only with "Authorization: Bearer fresh-token"
    /protected/stats            {"requests": n, "unauthorized": m}
    /basic-auth                 401 with WWW-Authenticate: Basic realm="fixture"
    /retry-after-date           503 with Retry-After as an HTTP-date 2 s ahead
    /close-before-response, /close-after-headers, /close-mid-body, /short-body,
    /drip?bytes=N, /invalid-json, /wrong-shape, /empty, /wrong-content-type,
    /redirect-loop, /redirect-refused          one precise fault each
    /bytes/{n}?seed=S           n bytes of sha256(f"{S}:{i}") blocks; Range
    /bytes/{n}/sha256?seed=S    {"sha256": hex} of that stream
    /upload (POST, PUT)         {"size", "sha256", "content_type"} of the body

Python 3.11 standard library only; binds to 127.0.0.1 and nothing else.
"""

from __future__ import annotations

import argparse
import asyncio
import email.utils
import hashlib
import json
import logging
import os
import signal
import socket
import sys
import time
import traceback
from http import HTTPStatus
from urllib.parse import parse_qs, unquote, urlsplit

HOST = "127.0.0.1"
SERVER_NAME = "networklayer-fixture"

# Generous enough for any header block a test sends, small enough that a
# runaway client cannot make us buffer without bound.
HEADER_LIMIT = 64 * 1024
STREAM_CHUNK = 64 * 1024

VERBOSE = False

# Every connection task, so shutdown can cancel the ones parked in /hang or
# /drip instead of waiting for their clients.
CONNECTIONS: set[asyncio.Task] = set()

REASONS = {status.value: status.phrase for status in HTTPStatus}

# Statuses that must never carry a body or a Content-Length (RFC 9110 6.4.1);
# sending one would desynchronise a keep-alive client.
NO_BODY_STATUSES = frozenset({204, 304})


# --------------------------------------------------------------------------
# HTTP/1.1 plumbing
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
# its answer and wants the connection closed: the fault routes and /hang.
CLOSE = object()

_BODY_NONE, _BODY_UNREAD, _BODY_READING, _BODY_DONE = range(4)


class Request:
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
                while remaining:
                    data = await reader.read(min(remaining, STREAM_CHUNK))
                    if not data:
                        raise asyncio.IncompleteReadError(b"", remaining)
                    remaining -= len(data)
                    yield data
                if (await reader.readline()).strip():
                    raise BadRequest(400, "chunk not followed by CRLF")
        else:
            remaining = self._length
            while remaining:
                data = await reader.read(min(remaining, STREAM_CHUNK))
                if not data:
                    raise asyncio.IncompleteReadError(b"", remaining)
                remaining -= len(data)
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
             f"Date: {http_date()}\r\nServer: {SERVER_NAME}\r\n"]
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
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def json_response(status: int, obj, headers=()) -> Response:
    return Response(status, (("Content-Type", "application/json"), *headers), json_body(obj))


def text_response(status: int, text: str, headers=()) -> Response:
    return Response(status, (("Content-Type", "text/plain; charset=utf-8"), *headers),
                    text.encode("utf-8"))


NOT_FOUND = json_response(404, {"error": "no route"})


async def handle_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    task = asyncio.current_task()
    CONNECTIONS.add(task)
    try:
        while True:
            try:
                req = await read_request(reader, writer)
            except BadRequest as error:
                # No Request to answer through: the head itself was unusable.
                body = json_body({"error": error.message})
                writer.write(render_head(error.status, (
                    ("Content-Type", "application/json"), ("Content-Length", len(body)),
                ), keep_alive=False) + body)
                await writer.drain()
                break
            if req is None:
                break

            try:
                result = await route(req.path)(req)
            except (ConnectionError, asyncio.IncompleteReadError):
                raise
            except BadRequest as error:
                req.keep_alive = False
                result = json_response(error.status, {"error": error.message})
            except Exception:
                # A bug in a route, not a client going away: worth one traceback.
                traceback.print_exc()
                req.keep_alive = False
                result = json_response(500, {"error": "fixture server bug"})

            if result is CLOSE:
                break
            if not await req.discard_body():
                req.keep_alive = False
            await send_response(req, result)
            if VERBOSE:
                print(f"{req.method} {req.target} -> {result.status}", file=sys.stderr, flush=True)
            if not req.keep_alive:
                break
    except (ConnectionError, asyncio.IncompleteReadError, BadRequest, ValueError):
        # Clients may vanish at any point (many tests do it on purpose);
        # ValueError is StreamReader's "line too long" in a chunked body.
        pass
    except asyncio.CancelledError:
        pass  # server shutdown
    finally:
        CONNECTIONS.discard(task)
        try:
            writer.close()
        except Exception:
            pass


# --------------------------------------------------------------------------
# Routes
# --------------------------------------------------------------------------

FAST = json_response(200, {"ok": True})


async def r_fast(req):
    return FAST


async def r_hang(req):
    # Read the whole request, then answer nothing until the client gives up.
    # Awaiting EOF parks the task at no CPU cost.
    await req.discard_body()
    while await req.reader.read(STREAM_CHUNK):
        pass
    return CLOSE


def parse_status(text: str) -> int | None:
    # 1xx cannot be a final answer (clients would wait for another), so only
    # 200..599 are accepted.
    if text.isdigit() and 200 <= int(text) <= 599:
        return int(text)
    return None


async def r_status(req):
    code = parse_status(req.path[len("/status/"):])
    if code is None:
        return NOT_FOUND
    query = req.query
    headers = []
    if "retry_after" in query:
        headers.append(("Retry-After", query["retry_after"]))
    if "body" in query:
        return text_response(code, query["body"], headers)
    return json_response(code, {"status": code}, headers)


# key -> number of attempts so far, and key -> [{"t": ..., "method": ...}]
SEQUENCE_COUNTS: dict[str, int] = {}
SEQUENCE_LOGS: dict[str, list[dict]] = {}


async def r_sequence(req):
    rest = req.path[len("/sequence/"):]
    if rest.endswith("/log") and len(rest) > len("/log"):
        # Reading the log is not an attempt: tests read it after the retries.
        return json_response(200, {"attempts": SEQUENCE_LOGS.get(rest[:-len("/log")], [])})
    key = rest
    if not key:
        return NOT_FOUND

    # Time-stamp first, before any parsing, so back-off measurements reflect
    # when the request arrived.
    now = time.monotonic()
    query = req.query
    try:
        statuses = [int(s) for s in query.get("statuses", "200").split(",")]
    except ValueError:
        return json_response(400, {"error": "statuses must be a comma-separated list of codes"})
    if any(not 200 <= s <= 599 for s in statuses):
        return json_response(400, {"error": "statuses must be within 200..599"})

    attempt = SEQUENCE_COUNTS.get(key, 0) + 1
    SEQUENCE_COUNTS[key] = attempt
    SEQUENCE_LOGS.setdefault(key, []).append({"t": now, "method": req.method})

    status = statuses[min(attempt, len(statuses)) - 1]  # the last one repeats
    headers = []
    if "retry_after" in query and not 200 <= status <= 299:
        headers.append(("Retry-After", query["retry_after"]))
    return json_response(status, {"key": key, "attempt": attempt, "method": req.method}, headers)


PROTECTED_STATS = {"requests": 0, "unauthorized": 0}


async def r_protected(req):
    PROTECTED_STATS["requests"] += 1
    if req.headers.get("authorization") == "Bearer fresh-token":
        return json_response(200, {"ok": True})
    PROTECTED_STATS["unauthorized"] += 1
    return json_response(401, {"error": "invalid token"}, (("WWW-Authenticate", "Bearer"),))


async def r_protected_stats(req):
    return json_response(200, dict(PROTECTED_STATS))


async def r_basic_auth(req):
    return json_response(401, {"error": "auth required"},
                         (("WWW-Authenticate", 'Basic realm="fixture"'),))


async def r_retry_after_date(req):
    when = email.utils.formatdate(time.time() + 2, usegmt=True)
    return json_response(503, {"status": 503}, (("Retry-After", when),))


# ---- faults: each one breaks the response in exactly one documented way ----

async def r_close_before_response(req):
    # Reading the request first matters: closing with unread bytes in the
    # socket makes the kernel send RST instead of a clean FIN.
    await req.discard_body()
    return CLOSE


async def write_then_close(req, content_length: int, payload: bytes):
    await req.discard_body()
    req.writer.write(render_head(200, (
        ("Content-Type", "application/octet-stream"),
        ("Content-Length", content_length),
    )) + payload)
    await req.writer.drain()
    return CLOSE


async def r_close_after_headers(req):
    return await write_then_close(req, 1000, b"")


async def r_close_mid_body(req):
    return await write_then_close(req, 100_000, b"x" * 50_000)


async def r_short_body(req):
    return await write_then_close(req, 20, b"hello")


async def drip(count: int):
    for _ in range(count):
        # Pause before each byte, so no gap on the wire exceeds one second.
        await asyncio.sleep(1)
        yield b"x"


async def r_drip(req):
    text = req.query.get("bytes", "5")
    if not text.isdigit():
        return json_response(400, {"error": "bytes must be a non-negative integer"})
    count = int(text)
    return Response(200, (("Content-Type", "application/octet-stream"),
                          ("Content-Length", count)), stream=drip(count))


INVALID_JSON = Response(200, (("Content-Type", "application/json"),), b'{"ok": tru')
WRONG_SHAPE = Response(200, (("Content-Type", "application/json"),), b'{"unexpected":[1,2,3]}')
EMPTY = Response(200, (("Content-Type", "application/json"),), b"")
WRONG_CONTENT_TYPE = Response(200, (("Content-Type", "text/html"),), b"<html>not json</html>")
REDIRECT_LOOP = Response(302, (("Location", "/redirect-loop"),), b"")


async def r_invalid_json(req):
    return INVALID_JSON


async def r_wrong_shape(req):
    return WRONG_SHAPE


async def r_empty(req):
    return EMPTY


async def r_wrong_content_type(req):
    return WRONG_CONTENT_TYPE


async def r_redirect_loop(req):
    return REDIRECT_LOOP


def closed_port() -> int:
    # The port the kernel just gave us and we released: nothing listens there,
    # so following the redirect fails with "connection refused".
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


async def r_redirect_refused(req):
    return Response(302, (("Location", f"http://{HOST}:{closed_port()}/"),), b"")


# ---- large transfers ----

DEFAULT_SEED = "0"
BLOCK = 32  # sha256 digest size
LAST_MODIFIED = "Wed, 01 Jan 2025 00:00:00 GMT"


def byte_chunks(seed: str, start: int, end: int):
    """Bytes [start, end) of the stream sha256(f"{seed}:0") || sha256(f"{seed}:1") || ...
    in chunks of at most STREAM_CHUNK, computed on demand so memory stays flat."""
    # sha256(prefix + i) == copy of a hasher fed prefix, then fed i: cheaper.
    prefix = hashlib.sha256(f"{seed}:".encode())
    position = start
    while position < end:
        chunk_end = min(end, position + STREAM_CHUNK)
        first, last = position // BLOCK, (chunk_end - 1) // BLOCK
        blocks = []
        for index in range(first, last + 1):
            hasher = prefix.copy()
            hasher.update(str(index).encode())
            blocks.append(hasher.digest())
        offset = position - first * BLOCK
        yield b"".join(blocks)[offset:offset + chunk_end - position]
        position = chunk_end


async def byte_stream(seed: str, start: int, end: int):
    for chunk in byte_chunks(seed, start, end):
        yield chunk


def parse_range(value: str, total: int):
    """(start, end_inclusive) for a single satisfiable byte range, "unsatisfiable",
    or None when the header should be ignored (RFC 9110 14.2 lets a server
    ignore ranges it does not support, e.g. multiple ranges)."""
    value = value.strip()
    if not value.lower().startswith("bytes="):
        return None
    spec = value[len("bytes="):].strip()
    if "," in spec:
        return None
    first, dash, last = (part.strip() for part in spec.partition("-"))
    if not dash or (first and not first.isdigit()) or (last and not last.isdigit()):
        return None
    if not first:  # suffix range: the last N bytes
        if not last:
            return None
        if int(last) == 0 or total == 0:
            return "unsatisfiable"
        return max(0, total - int(last)), total - 1
    start = int(first)
    end = min(int(last), total - 1) if last else total - 1
    if last and int(last) < start:
        return None
    if start >= total:
        return "unsatisfiable"
    return start, end


SHA_CACHE: dict[tuple[int, str], str] = {}


def stream_sha256(seed: str, size: int) -> str:
    hasher = hashlib.sha256()
    for chunk in byte_chunks(seed, 0, size):
        hasher.update(chunk)
    return hasher.hexdigest()


async def r_bytes(req):
    rest = req.path[len("/bytes/"):]
    size_text, _, suffix = rest.partition("/")
    if not size_text.isdigit() or suffix not in ("", "sha256"):
        return NOT_FOUND
    size = int(size_text)
    seed = req.query.get("seed", DEFAULT_SEED)

    if suffix == "sha256":
        key = (size, seed)
        if key not in SHA_CACHE:
            # Hashing gigabytes takes a while; a thread keeps other
            # connections (and /fast) responsive meanwhile.
            SHA_CACHE[key] = await asyncio.to_thread(stream_sha256, seed, size)
        return json_response(200, {"sha256": SHA_CACHE[key]})

    # ETag and Last-Modified let URLSession produce resume data for downloads.
    etag = '"' + hashlib.sha256(f"{size}:{seed}".encode()).hexdigest()[:32] + '"'
    common = (("Content-Type", "application/octet-stream"), ("Accept-Ranges", "bytes"),
              ("ETag", etag), ("Last-Modified", LAST_MODIFIED))

    byte_range = None
    if "range" in req.headers:
        if_range = req.headers.get("if-range")
        # If-Range: only resume when the client's copy is still this resource.
        if if_range is None or if_range in (etag, LAST_MODIFIED):
            byte_range = parse_range(req.headers["range"], size)
    if byte_range == "unsatisfiable":
        return Response(416, (*common, ("Content-Range", f"bytes */{size}")), b"")
    if byte_range is None:
        return Response(200, (*common, ("Content-Length", size)),
                        stream=byte_stream(seed, 0, size))
    start, end = byte_range
    return Response(206, (*common, ("Content-Length", end - start + 1),
                          ("Content-Range", f"bytes {start}-{end}/{size}")),
                    stream=byte_stream(seed, start, end + 1))


async def r_upload(req):
    if req.method not in ("POST", "PUT"):
        return json_response(405, {"error": "method not allowed"}, (("Allow", "POST, PUT"),))
    hasher = hashlib.sha256()
    size = 0
    async for chunk in req.body_chunks():
        hasher.update(chunk)
        size += len(chunk)
    return json_response(200, {"size": size, "sha256": hasher.hexdigest(),
                               "content_type": req.headers.get("content-type")})


async def r_not_found(req):
    return NOT_FOUND


EXACT_ROUTES = {
    "/fast": r_fast,
    "/hang": r_hang,
    "/protected": r_protected,
    "/protected/stats": r_protected_stats,
    "/basic-auth": r_basic_auth,
    "/retry-after-date": r_retry_after_date,
    "/close-before-response": r_close_before_response,
    "/close-after-headers": r_close_after_headers,
    "/close-mid-body": r_close_mid_body,
    "/short-body": r_short_body,
    "/drip": r_drip,
    "/invalid-json": r_invalid_json,
    "/wrong-shape": r_wrong_shape,
    "/empty": r_empty,
    "/wrong-content-type": r_wrong_content_type,
    "/redirect-loop": r_redirect_loop,
    "/redirect-refused": r_redirect_refused,
    "/upload": r_upload,
}

PREFIX_ROUTES = (
    ("/status/", r_status),
    ("/sequence/", r_sequence),
    ("/bytes/", r_bytes),
)


def route(path: str):
    handler = EXACT_ROUTES.get(path)
    if handler is not None:
        return handler
    for prefix, handler in PREFIX_ROUTES:
        if path.startswith(prefix):
            return handler
    return r_not_found


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
    # Transports report peers that reset mid-write here; that is an
    # expected event for a fault-injection server, not an error.
    if isinstance(context.get("exception"), (ConnectionError, asyncio.IncompleteReadError)):
        return
    loop.default_exception_handler(context)


async def serve(port: int, port_file: str | None) -> None:
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(quiet_exception_handler)
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)

    # A large backlog: tests open hundreds of connections at once.
    try:
        server = await asyncio.start_server(handle_connection, HOST, port,
                                            limit=HEADER_LIMIT, backlog=1024)
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
    for task in list(CONNECTIONS):
        task.cancel()
    await asyncio.gather(*CONNECTIONS, return_exceptions=True)
    await server.wait_closed()
    if port_file:
        # A later run reusing this path must not read our stale port.
        try:
            os.remove(port_file)
        except OSError:
            pass


def main() -> None:
    global VERBOSE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True, help="0 picks a free port")
    parser.add_argument("--port-file", help="write the listening port here")
    parser.add_argument("--verbose", action="store_true", help="log every request to stderr")
    args = parser.parse_args()
    VERBOSE = args.verbose
    # asyncio warns "socket.send() raised exception" when writing to peers
    # that left; with clients that disconnect on purpose that is only noise.
    logging.getLogger("asyncio").setLevel(logging.WARNING if VERBOSE else logging.ERROR)
    asyncio.run(serve(args.port, args.port_file))


if __name__ == "__main__":
    main()
