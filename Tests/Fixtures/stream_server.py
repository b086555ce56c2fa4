#!/usr/bin/env python3
"""Streaming fixture server: server-sent events and newline-delimited JSON.

httpbin streams nothing that a server-sent events client can be tested on: no
event stream, no control over where chunks are cut, no dropped connection to
resume from. These routes produce exactly those bodies, all with
Transfer-Encoding: chunked (no Content-Length), each chunk written and
flushed on its own so that the cuts reach the client as described (TCP may
still merge chunks that follow each other closely: ?delay_ms keeps them
apart). The HTTP/1.1 machinery is http_fixture.py, shared with the other
fixture servers.

Usage:  python3 stream_server.py --port N [--port-file PATH] [--verbose]

    N = 0 picks a free port. Once listening, the server writes the port to
    PATH (atomically) and prints one line "listening 127.0.0.1:PORT".
    SIGTERM or SIGINT stops it with exit status 0.

Routes (GET; unknown paths get 404 {"error":"no route"}):
    /sse/sample             the sample event stream (SAMPLE_LINES below): a
                            byte order mark, comments, retry, multi-line and
                            empty data, an id-only event, non-ASCII text.
        ?newline=lf|crlf|cr|mixed   line ends (mixed: LF, CR, CRLF in turn); lf
        ?split=N            two chunks, cut after byte N of the body
        ?chunk=K            chunks of K bytes (1: one byte a chunk)
        ?delay_ms=D         pause D ms between chunks; 0
    /sse/resumable?key=K&events=N&drop_after=M
                            events "id: i / data: event i" for i = 1..N. Each
                            connection starts after its Last-Event-ID (from 1
                            without one), sends at most M whole events, and if
                            more remain sends half of the next one and drops
                            the connection (no final chunk). Once every event
                            was sent, the stream ends cleanly, and a
                            reconnection with Last-Event-ID >= N gets 204.
        ?cut=chunk|inside   where the half event ends: a whole chunk of the
                            chunked coding (chunk, the default), or inside a
                            chunk whose size line announces 16 bytes more than
                            are sent before the connection goes (inside)
    /sse/resumable/stats?key=K
                            {"connections": n, "last_event_ids": [v, ...]},
                            the Last-Event-ID of each connection (null: none)
    /sse/retry?ms=N         "retry: N", then one event "retry set"
    /sse/stop               204 No Content: the server says "do not reconnect"
    /sse/error              500 {"error": "stream unavailable", "retryable": false}
    /sse/stall              one event "first", then nothing until the client leaves
    /sse/endless?events=N&size=S
                            events "data: x...x" (S bytes of data; 100) as fast
                            as the client reads; N events, or without end when
                            N is absent (for memory and throughput tests)

Hostile and edge-case event streams (each request is logged under ?key=K, see
/sse/connections):
    /sse/storm?key=K        "retry: 0" and the connection closes at once, with
                            no event (a reconnection storm for a naive client)
        ?event=1            one event "data: storm" before the close
    /sse/flaky?key=K&fail=N&events=E
                            the first N requests of K are closed before any
                            byte of an answer; later ones get events
                            "id: i / data: event i" for i = 1..E after their
                            Last-Event-ID, then a clean end; 204 once all
                            E were sent
    /sse/listen-later?key=K&port=P&after_ms=M
                            answers {"scheduled": P} at once, and M ms later
                            starts listening on 127.0.0.1:P (for 30 s):
                            there every request gets "id: 1 / data: served",
                            or 204 when it carries a Last-Event-ID; until
                            then connections to P are refused
    /sse/typed?key=K&status=S&type=T
                            status S (200) with Content-Type T
                            (application/json; "none": no Content-Type) and
                            the body "data: parsed anyway" + blank line: an
                            answer that is not an event stream
    /sse/completion?key=K   any method (a chat completion is a POST): the
                            request body is logged; events data: {"delta":
                            "Hel"}, {"delta": "lo"} and [DONE], then a clean
                            end, as LLM APIs stream a completion
    /sse/connections?key=K  {"connections": n, "methods": [...],
                            "bodies": [...], "last_event_ids": [...],
                            "times": [...]}: every request logged under K,
                            times in seconds since the first
    /ndjson?count=N         N lines {"id": i, "name": "item i"}, i = 1..N
        ?bad_line=L         line L is not JSON
        ?newline=, ?chunk=, ?split=, ?delay_ms=   as for /sse/sample

Python 3.11 standard library only; binds to 127.0.0.1 and nothing else.
"""

from __future__ import annotations

import asyncio
import json
import time

# http_fixture.py sits next to this file. Python puts a script's own directory
# first on sys.path, so this import works whatever the working directory is.
from http_fixture import CLOSE, Response, json_response, main, render_head

SERVER_NAME = "networklayer-stream-fixture"
NOT_FOUND = json_response(404, {"error": "no route"})

# The sample stream. Tests/NetworkLayerTests/Streaming holds the events a
# client must read from it (StreamFixtureTests.sampleEvents): keep them in step.
BOM = "\ufeff"
SAMPLE_LINES = [
    ": stream of the fixture server",
    "retry: 1500",
    "event: greeting",
    "data: hello",
    "data:  world",
    "id: 1",
    "",
    "data: é 🎬 ünïcödé",
    "id: 2",
    "",
    ": keep-alive",
    "data",
    "",
    "id: 3",
    "",
    "event: score",
    'data: {"home": 1, "away": 0}',
    "",
    "data: last",
    "",
]
# "mixed" puts CRLF, never LF, after a CR: a CR line end followed by an empty
# line ended by LF would be one CRLF on the wire, and the events would change.
NEWLINES = {"lf": ["\n"], "crlf": ["\r\n"], "cr": ["\r"], "mixed": ["\n", "\r", "\r\n"]}

EVENT_STREAM_HEADERS = (
    ("Content-Type", "text/event-stream; charset=utf-8"),
    ("Cache-Control", "no-cache"),
    ("Transfer-Encoding", "chunked"),
)
NDJSON_HEADERS = (
    ("Content-Type", "application/x-ndjson"),
    ("Transfer-Encoding", "chunked"),
)
LAST_CHUNK = b"0\r\n\r\n"


class QueryError(Exception):
    pass


def frame(piece: bytes) -> bytes:
    """One chunk of the chunked transfer coding (RFC 9112 7.1)."""
    return f"{len(piece):x}\r\n".encode() + piece + b"\r\n"


def int_param(req, name: str, default: int | None, minimum: int = 0) -> int | None:
    text = req.query.get(name)
    if text is None:
        return default
    if not text.isdigit() or int(text) < minimum:
        raise QueryError(f"{name} must be an integer >= {minimum}")
    return int(text)


def join_lines(lines, newline_name: str) -> bytes:
    endings = NEWLINES.get(newline_name)
    if endings is None:
        raise QueryError("newline must be one of lf, crlf, cr, mixed")
    return "".join(line + endings[i % len(endings)] for i, line in enumerate(lines)).encode("utf-8")


def cut(req, body: bytes) -> list[bytes]:
    """The body in the pieces that ?split= or ?chunk= ask for; one piece otherwise."""
    split = int_param(req, "split", None)
    size = int_param(req, "chunk", None, minimum=1)
    if split is not None:
        return [piece for piece in (body[:split], body[split:]) if piece]
    if size is not None:
        return [body[i:i + size] for i in range(0, len(body), size)]
    return [body]


async def chunked(pieces, delay: float):
    """Frames each piece as one chunk, pausing between them, then the last chunk."""
    first = True
    for piece in pieces:
        if delay and not first:
            await asyncio.sleep(delay)
        first = False
        yield frame(piece)
    yield LAST_CHUNK


def streamed(req, headers, body: bytes) -> Response:
    delay = int_param(req, "delay_ms", 0) / 1000
    return Response(200, headers, stream=chunked(cut(req, body), delay))


# ---- server-sent events ----

async def r_sse_sample(req):
    body = join_lines(SAMPLE_LINES, req.query.get("newline", "lf"))
    return streamed(req, EVENT_STREAM_HEADERS, BOM.encode("utf-8") + body)


# key -> the Last-Event-ID of each connection, in order (None: no header)
RESUMABLE_LOGS: dict[str, list[str | None]] = {}


def resumable_event(number: int) -> bytes:
    return f"id: {number}\ndata: event {number}\n\n".encode()


async def r_sse_resumable(req):
    key = req.query.get("key")
    if not key:
        raise QueryError("key is required")
    total = int_param(req, "events", 10)
    per_connection = int_param(req, "drop_after", 3, minimum=1)
    cut = req.query.get("cut", "chunk")
    if cut not in ("chunk", "inside"):
        raise QueryError("cut must be chunk or inside")
    last_id = req.headers.get("last-event-id")
    RESUMABLE_LOGS.setdefault(key, []).append(last_id)
    # A POST's body is read first: closing with it unread would reset the connection.
    await req.discard_body()

    start = int(last_id) + 1 if last_id is not None and last_id.isdigit() else 1
    if start > total:
        return Response(204)
    end = min(total, start + per_connection - 1)
    writer = req.writer
    # Connection: close, as the connection ends with this stream, cut or whole.
    writer.write(render_head(200, EVENT_STREAM_HEADERS, keep_alive=False))
    for number in range(start, end + 1):
        writer.write(frame(resumable_event(number)))
        await writer.drain()
    if end < total:
        # Half of the next event, then the connection goes: the client must
        # discard it and resume after `end`. Cut inside a chunk, the chunk is short of its size.
        half = f"id: {end + 1}\ndata: cut".encode()
        writer.write(f"{len(half) + 16:x}\r\n".encode() + half if cut == "inside" else frame(half))
        await writer.drain()
        return CLOSE
    writer.write(LAST_CHUNK)
    await writer.drain()
    # Whole and clean, yet closed: an event stream is reconnected either way.
    return CLOSE


async def r_sse_resumable_stats(req):
    log = RESUMABLE_LOGS.get(req.query.get("key", ""), [])
    return json_response(200, {"connections": len(log), "last_event_ids": log})


async def r_sse_retry(req):
    milliseconds = int_param(req, "ms", 1000)
    body = f"retry: {milliseconds}\ndata: retry set\n\n".encode()
    return streamed(req, EVENT_STREAM_HEADERS, body)


async def r_sse_stop(req):
    return Response(204)


async def r_sse_error(req):
    return json_response(500, {"error": "stream unavailable", "retryable": False})


async def r_sse_stall(req):
    req.writer.write(render_head(200, EVENT_STREAM_HEADERS) + frame(b"data: first\n\n"))
    await req.writer.drain()
    # Nothing more, ever: wait at no CPU cost until the client closes.
    while await req.reader.read(65536):
        pass
    return CLOSE


async def endless_events(count: int | None, size: int):
    event = b"data: " + b"x" * size + b"\n\n"
    per_block = max(1, 65536 // len(event))
    block = frame(event * per_block)
    remaining = count
    while remaining is None or remaining >= per_block:
        yield block
        if remaining is not None:
            remaining -= per_block
    if remaining:
        yield frame(event * remaining)
    yield LAST_CHUNK


async def r_sse_endless(req):
    count = int_param(req, "events", None)
    size = int_param(req, "size", 100)
    return Response(200, EVENT_STREAM_HEADERS, stream=endless_events(count, size))


# ---- hostile and edge-case event streams ----

# key -> one record per request: method, body, Last-Event-ID, time
CONNECTION_LOGS: dict[str, list[dict]] = {}


async def log_request(req, *, read_body: bool = False) -> str:
    key = req.query.get("key")
    if not key:
        raise QueryError("key is required")
    body = (await req.read_body()).decode("utf-8", "replace") if read_body else None
    CONNECTION_LOGS.setdefault(key, []).append({
        "method": req.method, "body": body,
        "last_event_id": req.headers.get("last-event-id"), "time": time.monotonic(),
    })
    return key


async def write_whole_stream(req, body: bytes, status: int = 200, headers=EVENT_STREAM_HEADERS):
    """The answer and a clean end, then the connection closes (Connection: close)."""
    req.writer.write(render_head(status, headers, keep_alive=False))
    if status != 204:
        req.writer.write(frame(body) + LAST_CHUNK if body else LAST_CHUNK)
    await req.writer.drain()
    return CLOSE


async def r_sse_storm(req):
    await log_request(req)
    body = b"retry: 0\n\n" + (b"data: storm\n\n" if req.query.get("event") == "1" else b"")
    return await write_whole_stream(req, body)


async def r_sse_flaky(req):
    key = await log_request(req)
    failures = int_param(req, "fail", 2)
    total = int_param(req, "events", 3)
    if len(CONNECTION_LOGS[key]) <= failures:
        return CLOSE  # not a byte: the connection fails before it opens
    last_id = req.headers.get("last-event-id")
    start = int(last_id) + 1 if last_id is not None and last_id.isdigit() else 1
    if start > total:
        return Response(204)
    return await write_whole_stream(req, b"".join(resumable_event(n) for n in range(start, total + 1)))


async def serve_later(key: str, port: int, delay: float):
    await asyncio.sleep(delay)

    async def handle(reader, writer):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method = lines[0].split(" ")[0]
            names = {line.partition(":")[0].strip().lower(): line.partition(":")[2].strip() for line in lines[1:] if line}
            last_id = names.get("last-event-id")
            CONNECTION_LOGS.setdefault(key, []).append({
                "method": method, "body": None, "last_event_id": last_id, "time": time.monotonic()})
            if last_id is not None:
                writer.write(render_head(204, (), keep_alive=False))
            else:
                writer.write(render_head(200, EVENT_STREAM_HEADERS, keep_alive=False)
                             + frame(b"id: 1\ndata: served\n\n") + LAST_CHUNK)
            await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", port)
    await asyncio.sleep(30)
    server.close()


# The listeners started by /sse/listen-later, kept so that they are not collected mid-run.
LATER_SERVERS: set[asyncio.Task] = set()


async def r_sse_listen_later(req):
    key = req.query.get("key")
    if not key:
        raise QueryError("key is required")
    port = int_param(req, "port", None, minimum=1024)
    if port is None:
        raise QueryError("port is required")
    task = asyncio.get_running_loop().create_task(serve_later(key, port, int_param(req, "after_ms", 500) / 1000))
    LATER_SERVERS.add(task)
    task.add_done_callback(LATER_SERVERS.discard)
    return json_response(200, {"scheduled": port})


async def r_sse_typed(req):
    await log_request(req)
    status = int_param(req, "status", 200, minimum=200)
    content_type = req.query.get("type", "application/json")
    headers = (("Transfer-Encoding", "chunked"),)
    if content_type != "none":
        headers = (("Content-Type", content_type), *headers)
    return await write_whole_stream(req, b"data: parsed anyway\n\n", status=status, headers=headers)


COMPLETION_EVENTS = (
    b'data: {"delta": "Hel"}\n\n',
    b'data: {"delta": "lo"}\n\n',
    b"data: [DONE]\n\n",
)


async def r_sse_completion(req):
    await log_request(req, read_body=True)
    return await write_whole_stream(req, b"".join(COMPLETION_EVENTS))


async def r_sse_connections(req):
    log = CONNECTION_LOGS.get(req.query.get("key", ""), [])
    first = log[0]["time"] if log else 0
    return json_response(200, {
        "connections": len(log),
        "methods": [entry["method"] for entry in log],
        "bodies": [entry["body"] for entry in log],
        "last_event_ids": [entry["last_event_id"] for entry in log],
        "times": [round(entry["time"] - first, 4) for entry in log],
    })


# ---- newline-delimited JSON ----

async def r_ndjson(req):
    count = int_param(req, "count", 10)
    bad_line = int_param(req, "bad_line", None, minimum=1)
    lines = []
    for number in range(1, count + 1):
        if number == bad_line:
            lines.append('{"id": oops}')
        else:
            lines.append(json.dumps({"id": number, "name": f"item {number}"}, separators=(",", ":")))
    body = join_lines(lines, req.query.get("newline", "lf"))
    return streamed(req, NDJSON_HEADERS, body)


ROUTES = {
    "/sse/sample": r_sse_sample,
    "/sse/resumable": r_sse_resumable,
    "/sse/resumable/stats": r_sse_resumable_stats,
    "/sse/retry": r_sse_retry,
    "/sse/stop": r_sse_stop,
    "/sse/error": r_sse_error,
    "/sse/stall": r_sse_stall,
    "/sse/endless": r_sse_endless,
    "/sse/storm": r_sse_storm,
    "/sse/flaky": r_sse_flaky,
    "/sse/listen-later": r_sse_listen_later,
    "/sse/typed": r_sse_typed,
    "/sse/completion": r_sse_completion,
    "/sse/connections": r_sse_connections,
    "/ndjson": r_ndjson,
}


async def r_not_found(req):
    return NOT_FOUND


async def dispatch(req):
    try:
        return await ROUTES.get(req.path, r_not_found)(req)
    except QueryError as error:
        return json_response(400, {"error": str(error)})


if __name__ == "__main__":
    main(dispatch, description=__doc__.splitlines()[0], server_name=SERVER_NAME,
         bug_message="stream fixture server bug")
