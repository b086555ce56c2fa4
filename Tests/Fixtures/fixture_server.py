#!/usr/bin/env python3
"""Fixture HTTP/1.1 server for the NetworkLayer tests and benchmarks.

It exists because httpbin cannot misbehave on purpose: the tests need a server
that hangs, drops connections at precise points, lies about Content-Length,
answers a scripted sequence of statuses, and streams large deterministic
payloads. The HTTP/1.1 machinery is http_fixture.py (shared with
fake_tmdb.py), written directly on asyncio streams, so the bytes on the wire
are exactly the ones these routes describe, with no framework "fixing" a
deliberately broken response. This file holds only the routes and their state.

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
    /token-in-401               401 whose JSON body holds an access_token (no secret in the URL)
    /echo-401                   401 {"message": "invalid credentials for METHOD TARGET",
                                "detail": "the credential AUTHORIZATION was refused"}: a server
                                that repeats what it was sent
    /retry-after-date           503 with Retry-After as an HTTP-date 2 s ahead
    /close-before-response, /close-after-headers, /close-mid-body, /short-body,
    /drip?bytes=N, /invalid-json, /wrong-shape, /empty, /wrong-content-type,
    /redirect-loop, /redirect-refused          one precise fault each
    /redirect-to?url=U&status=S a 301/302/303/307/308 to U
    /echo                       {"method", "target", "headers", "body_size", "body"} as received
    /bad-content-length?value=V 200 with "Content-Length: V" and an 11-byte body, then close
    /invalid-status-line?line=L L as the status line, then close
    /huge-header?kib=N          a 200 with one header line of N KiB, then close
    /not-http                   an SSH greeting instead of HTTP, then close
    /both-framings              a 200 with Content-Length and Transfer-Encoding: chunked
    /bytes/{n}?seed=S           n bytes of sha256(f"{S}:{i}") blocks; Range
    /bytes/{n}/sha256?seed=S    {"sha256": hex} of that stream
    /upload (POST, PUT)         {"size", "sha256", "content_type"} of the body
    /changing/{key}?size=N      N bytes of /bytes/N?seed={key}:v{version} with ETag "{key}-v{version}";
                                Range honoured only when If-Range (if sent) is that ETag;
                                &cut=M: the key's first request gets M bytes, then the
                                connection closes; &validators=none: no ETag, no Last-Modified
    /changing/{key}/bump        the next version of the file: {"version": v}
    /changing/{key}/log         {"requests": [{"range": R, "if_range": I}, ...]}
    /once-per-connection        like /upload, but only the first request of each
                                connection is answered: a second one on the same
                                kept-alive connection is read, then the connection
                                is closed without a word (a client must re-send it)
    /connection?delay=MS&close=1&barrier=KEY&count=N
                                {"connection": n, "tls_session_reused": bool or null}: n numbers
                                the connections in the order they sent their first request
                                here; answers after MS milliseconds (0 by default); close=1
                                closes the connection after the answer; with a barrier, no
                                request of KEY is answered until N of them have arrived (at
                                most 30 s), so N requests at once need N connections
    /content-length?value=V&body=B   200 with "Content-Length: V" verbatim and body B
    /early-hints                103 Early Hints, then 200 {"ok":true}
    /hostile?kind=K             exact bytes that FoundationNetworking 6.3.1 traps on (helper-35),
                                then a close: set-cookie-emoji, huge-content-length,
                                status-line-then-close, location-bad-host, chunked-trailer;
                                and lowercase-status-line, unasked-switching-protocols and
                                bad-chunk-size, which it answers
    /repeated-headers           200 with X-Repeated twice and two Link fields
    /set-cookies?status=N       N (200 by default) with two Set-Cookie fields, the first with an
                                Expires date (which has a comma): expiring=1 and plain=2
    /secure-cookie-then-redirect?next=U
                                302 to U with Set-Cookie sid=…; Secure (served over TLS, it
                                sets a cookie a client must never send over plain http)
    /limits/...                 endless bodies, gzip bombs, sized bodies (limit_routes.py)

Python 3.11 standard library only; binds to 127.0.0.1 and nothing else.
"""

from __future__ import annotations

import asyncio
import email.utils
import hashlib
import itertools
import socket
import time
import weakref

# http_fixture.py sits next to this file. Python puts a script's own directory
# first on sys.path, so this import works whatever the working directory is.
from http_fixture import (CLOSE, HOST, STREAM_CHUNK, Response, json_response, main,
                          render_head, text_response)
import cache_routes
import limit_routes

SERVER_NAME = "networklayer-fixture"


# --------------------------------------------------------------------------
# Routes
# --------------------------------------------------------------------------

NOT_FOUND = json_response(404, {"error": "no route"})
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


async def r_token_in_401(req):
    # A secret that only the body carries: no string made from the error may show it.
    return json_response(401, {"access_token": "tok-SECRET-4f1c9a", "error": "expired", "detail": "try again"})


async def r_echo_401(req):
    # helper-26: a 401 whose message repeats the request target as received (percent-encoded).
    await req.discard_body()
    auth = req.headers.get("authorization", "none")
    return json_response(401, {"message": f"invalid credentials for {req.method} {req.target}",
                               "detail": f"the credential {auth} was refused"})


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


async def r_redirect_to(req):
    # ?url=U&status=S: a redirect anywhere, to test what follows it (headers, method, body).
    status = int(req.query.get("status", "302")) if req.query.get("status", "302").isdigit() else 302
    if status not in (301, 302, 303, 307, 308):
        return json_response(400, {"error": "status must be 301, 302, 303, 307 or 308"})
    return Response(status, (("Location", req.query.get("url", "/fast")),), b"")


async def r_echo(req):
    # The request as received: method, headers (lower-case names) and the body's size.
    body = await req.read_body()
    return json_response(200, {"method": req.method, "target": req.target,
                               "headers": dict(req.headers), "body_size": len(body),
                               "body": body.decode("utf-8", "replace")[:1000]})


# ---- malformed heads: what libcurl accepts and should not ----

async def write_raw_then_close(req, raw: bytes):
    await req.discard_body()
    req.writer.write(raw)
    await req.writer.drain()
    return CLOSE


async def r_bad_content_length(req):
    # ?value=5five: a Content-Length that is not a plain decimal number, with an 11-byte body.
    value = req.query.get("value", "5five").replace("\r", "").replace("\n", "")
    return await write_raw_then_close(req, (
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
        f"Content-Length: {value}\r\nConnection: close\r\n\r\nhello world").encode())


async def r_invalid_status_line(req):
    line = req.query.get("line", "HTTP/1.1 OK").replace("\r", "").replace("\n", "")
    return await write_raw_then_close(
        req, f"{line}\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".encode())


async def r_not_http(req):
    # Bytes that are no HTTP at all, as another protocol's server would greet a client.
    return await write_raw_then_close(req, b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")


async def r_both_framings(req):
    # Content-Length and Transfer-Encoding together (RFC 9112 6.3: an error, the shape of
    # response smuggling); the chunked body is well formed and the length agrees with it.
    return await write_raw_then_close(
        req, b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
             b"5\r\nhello\r\n0\r\n\r\n")


async def r_huge_header(req):
    # ?kib=N: one header line of N KiB (libcurl refuses lines over 100 KiB).
    kib = req.query.get("kib", "200")
    size = int(kib) * 1024 if kib.isdigit() else 200 * 1024
    return await write_raw_then_close(req, (
        "HTTP/1.1 200 OK\r\nX-Huge: " + "h" * size
        + "\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok").encode())


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


# key -> version, keys whose first request was cut, and key -> requests seen
CHANGING_VERSIONS: dict[str, int] = {}
CHANGING_CUT: set[str] = set()
CHANGING_LOGS: dict[str, list[dict]] = {}


async def r_changing(req):
    key, _, action = req.path[len("/changing/"):].partition("/")
    if not key or action not in ("", "bump", "log"):
        return NOT_FOUND
    if action == "bump":
        CHANGING_VERSIONS[key] = CHANGING_VERSIONS.get(key, 1) + 1
        return json_response(200, {"version": CHANGING_VERSIONS[key]})
    if action == "log":
        return json_response(200, {"requests": CHANGING_LOGS.get(key, [])})
    CHANGING_LOGS.setdefault(key, []).append(
        {"range": req.headers.get("range"), "if_range": req.headers.get("if-range")})
    version = CHANGING_VERSIONS.get(key, 1)
    size = int(req.query["size"]) if req.query.get("size", "").isdigit() else 200_000
    seed = f"{key}:v{version}"
    etag = f'"{key}-v{version}"'
    with_validators = req.query.get("validators") != "none"
    common = [("Content-Type", "application/octet-stream"), ("Accept-Ranges", "bytes")]
    if with_validators:
        common.append(("ETag", etag))
    cut = req.query.get("cut", "")
    if cut.isdigit() and key not in CHANGING_CUT and "range" not in req.headers:
        CHANGING_CUT.add(key)
        await req.discard_body()
        req.writer.write(render_head(200, (*common, ("Content-Length", size)))
                         + b"".join(byte_chunks(seed, 0, min(int(cut), size))))
        await req.writer.drain()
        return CLOSE
    byte_range = None
    if "range" in req.headers:
        if_range = req.headers.get("if-range")
        if if_range is None or (with_validators and if_range == etag):
            byte_range = parse_range(req.headers["range"], size)
    if byte_range is None or byte_range == "unsatisfiable":
        return Response(200, (*common, ("Content-Length", size)), stream=byte_stream(seed, 0, size))
    start, end = byte_range
    return Response(206, (*common, ("Content-Length", end - start + 1),
                          ("Content-Range", f"bytes {start}-{end}/{size}")),
                    stream=byte_stream(seed, start, end + 1))


async def body_digest(req):
    """The request body's size and SHA-256, read as it arrives."""
    hasher = hashlib.sha256()
    size = 0
    async for chunk in req.body_chunks():
        hasher.update(chunk)
        size += len(chunk)
    return size, hasher.hexdigest()


async def r_upload(req):
    if req.method not in ("POST", "PUT"):
        return json_response(405, {"error": "method not allowed"}, (("Allow", "POST, PUT"),))
    size, digest = await body_digest(req)
    return json_response(200, {"size": size, "sha256": digest,
                               "content_type": req.headers.get("content-type")})


async def r_length_required(req):
    # As servers in the S3 style do: a body must come with its length, never chunked.
    if "transfer-encoding" in req.headers:
        await req.discard_body()
        return json_response(411, {"error": "length required"})
    size, digest = await body_digest(req)
    return json_response(200, {"size": size, "sha256": digest,
                               "content_length": req.headers.get("content-length"),
                               "content_type": req.headers.get("content-type")})


# Connections (their writers) that have had their one answer from /once-per-connection.
ANSWERED_CONNECTIONS: "weakref.WeakSet" = weakref.WeakSet()


async def r_once_per_connection(req):
    if req.writer in ANSWERED_CONNECTIONS:
        # Read the request whole first, so the close is a clean FIN rather than a reset: the
        # client sees a reused connection end before any answer, as when a server's keep-alive
        # timer fires just as the request arrives.
        await req.discard_body()
        return CLOSE
    ANSWERED_CONNECTIONS.add(req.writer)
    size, digest = await body_digest(req)
    return json_response(200, {"size": size, "sha256": digest, "method": req.method})


# The number of each connection that has asked /connection, by its writer; the counter, not
# the dictionary's size, numbers a new one, as closed connections leave the dictionary.
CONNECTION_NUMBERS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
CONNECTION_COUNTER = itertools.count(1)


# /connection?barrier=KEY&count=N: how many requests of KEY have arrived, and what they wait on.
CONNECTION_BARRIERS: "dict[str, list]" = {}


async def wait_at_barrier(key, count):
    entry = CONNECTION_BARRIERS.setdefault(key, [0, asyncio.Event()])
    entry[0] += 1
    if entry[0] >= count:
        entry[1].set()
    try:
        await asyncio.wait_for(entry[1].wait(), 30)
    except asyncio.TimeoutError:
        pass


async def r_connection(req):
    await req.discard_body()
    number = CONNECTION_NUMBERS.get(req.writer)
    if number is None:
        number = next(CONNECTION_COUNTER)
        CONNECTION_NUMBERS[req.writer] = number
    barrier = req.query.get("barrier")
    if barrier:
        try:
            count = min(max(int(req.query.get("count", "1")), 1), 1000)
        except ValueError:
            count = 1
        await wait_at_barrier(barrier, count)
    try:
        delay = min(max(int(req.query.get("delay", "0")), 0), 10_000)
    except ValueError:
        delay = 0
    if delay:
        await asyncio.sleep(delay / 1000)
    if req.query.get("close") == "1":
        req.keep_alive = False
    tls = req.writer.get_extra_info("ssl_object")
    return json_response(200, {"connection": number,
                               "tls_session_reused": tls.session_reused if tls else None})


async def r_content_length(req):
    await req.discard_body()
    body = req.query.get("body", "hello").encode()
    req.writer.write(render_head(200, (
        ("Content-Type", "application/octet-stream"),
        ("Content-Length", req.query.get("value", str(len(body)))),
    ), keep_alive=False) + body)
    await req.writer.drain()
    return CLOSE


HOSTILE_ANSWERS = {
    # "String index is out of bounds" in HTTPCookie's parser (UTF-16 offsets used as characters).
    "set-cookie-emoji": "HTTP/1.1 200 OK\r\nSet-Cookie: \U0001F600=\r\nContent-Length: 2\r\n"
                        "Connection: close\r\n\r\nok".encode("utf-8"),
    # Int64(contentLength) on libcurl's double overflows.
    "huge-content-length": b"HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775807\r\n"
                           b"Connection: close\r\n\r\nok",
    # "Transfer completed, but there's no response." (NativeProtocol.swift:240)
    "status-line-then-close": b"HTTP/1.1 200 OK\r\n",
    # "Invalid URL" (HTTPURLProtocol.swift:612): FoundationNetworking builds the next request
    # itself, before its delegate is asked, and URLComponents refuses the host "a b".
    "location-bad-host": b"HTTP/1.1 302 Found\r\nLocation: //a%20b/x\r\nContent-Length: 0\r\n"
                         b"Connection: close\r\n\r\n",
    # Not a trap: a status line that is not "HTTP/" (RFC 9112 spells it in capitals), which libcurl
    # lets through and FoundationNetworking answers as 200.
    "lowercase-status-line": b"http/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok",
    # Not a trap: a 101 to a request that asked for no upgrade. libcurl takes it as the final
    # head (only an upgrade it asked for switches protocols) and reads the rest as its body.
    "unasked-switching-protocols": b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                                   b"Connection: Upgrade\r\n\r\nxxxx",
    # Not a trap: a chunk size that is not hexadecimal (a body the server wrote wrong, which
    # libcurl reports as a receive error, the code it uses for a lost connection).
    "bad-chunk-size": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                      b"zz\r\nok\r\n0\r\n\r\n",
    # A trailer line resets the response FoundationNetworking holds: the same trap.
    "chunked-trailer": b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                       b"2\r\nok\r\n0\r\nX-T: 1\r\n\r\n",
}


async def r_hostile(req):
    await req.discard_body()
    answer = HOSTILE_ANSWERS.get(req.query.get("kind", ""))
    if answer is None:
        return json_response(400, {"error": "kind must be one of " + ", ".join(HOSTILE_ANSWERS)})
    req.writer.write(answer)
    await req.writer.drain()
    return CLOSE


async def r_early_hints(req):
    await req.discard_body()
    req.writer.write(b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n")
    return FAST


# No Set-Cookie here: URLSession keeps cookies in its shared storage and FoundationNetworking
# sends them with every later request to the host, whatever their Path.
REPEATED_HEADERS = Response(200, (("Content-Type", "application/json"), ("X-Repeated", "first"),
                                  ("X-Repeated", "second"), ("Link", "</a>; rel=next"),
                                  ("Link", "</b>; rel=last")), b"{}")


async def r_repeated_headers(req):
    return REPEATED_HEADERS


# For a client's own cookie storage only (a test's ephemeral one): see above.
async def r_set_cookies(req):
    code = parse_status(req.query.get("status", "200"))
    if code is None:
        return NOT_FOUND
    return json_response(code, {"status": code}, [
        ("Set-Cookie", "expiring=1; Path=/; Expires=Wed, 21 Oct 2099 07:28:00 GMT"),
        ("Set-Cookie", "plain=2; Path=/"),
    ])


# ?count=N (at most 20,000) cookies named {prefix}0..{prefix}N-1, for a client's own
# cookie storage only: how many cookies a storage keeps, and the Cookie header it then sends.
async def r_cookie_flood(req):
    count = int(req.query.get("count", "1000")) if req.query.get("count", "1000").isdigit() else 1000
    prefix = "".join(c for c in req.query.get("prefix", "c") if c.isalnum())[:16] or "c"
    cookies = tuple(("Set-Cookie", f"{prefix}{i}=v; Path=/") for i in range(min(count, 20_000)))
    return Response(200, cookies, b"{}")


# helper-26: a session cookie marked Secure, set with a redirect to ?next=URL (302).
async def r_secure_cookie_then_redirect(req):
    return Response(302, (("Location", req.query.get("next", "/echo")),
                          ("Set-Cookie", "sid=sec-SECRET-cookie; Path=/; Secure; HttpOnly")), b"")


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
    "/length-required": r_length_required,
    "/token-in-401": r_token_in_401,
    "/echo-401": r_echo_401,
    "/redirect-to": r_redirect_to,
    "/echo": r_echo,
    "/bad-content-length": r_bad_content_length,
    "/invalid-status-line": r_invalid_status_line,
    "/huge-header": r_huge_header,
    "/not-http": r_not_http,
    "/both-framings": r_both_framings,
    "/once-per-connection": r_once_per_connection,
    "/connection": r_connection,
    "/content-length": r_content_length,
    "/hostile": r_hostile,
    "/early-hints": r_early_hints,
    "/repeated-headers": r_repeated_headers,
    "/set-cookies": r_set_cookies,
    "/cookie-flood": r_cookie_flood,
    "/secure-cookie-then-redirect": r_secure_cookie_then_redirect,
}

PREFIX_ROUTES = (
    ("/hang/", r_hang),  # any path under it hangs: an API base URL that never answers
    ("/status/", r_status),
    ("/sequence/", r_sequence),
    ("/bytes/", r_bytes),
    ("/changing/", r_changing),
    ("/cache/", cache_routes.route),  # HTTP caching rules and hit counters
    ("/limits/", limit_routes.route),  # bodies past a client's memory limit
)


def route(path: str):
    handler = EXACT_ROUTES.get(path)
    if handler is not None:
        return handler
    for prefix, handler in PREFIX_ROUTES:
        if path.startswith(prefix):
            return handler
    return r_not_found


def dispatch(req):
    # A plain function returning the route's coroutine, not a coroutine
    # itself: one await fewer on the /fast benchmark's path.
    return route(req.path)(req)


if __name__ == "__main__":
    main(dispatch, description=__doc__.splitlines()[0], server_name=SERVER_NAME,
         bug_message="fixture server bug")
