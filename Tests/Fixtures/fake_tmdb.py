#!/usr/bin/env python3
"""Fake of The Movie Database (TMDB) API v3 for the MovieDB example's tests.

The real API (https://api.themoviedb.org/3) needs a key, is rate limited and
changes its data daily, so tests against it could neither run offline nor
assert on titles. This fake answers the same paths with the same JSON shapes
and TMDB's real error bodies, but with deterministic data, including the
awkward records TMDB really sends (null images, empty release dates, missing
genre_ids, non-ASCII titles), and scripted failures: 401, 404, 429 with
Retry-After, 500.

Usage:  python3 fake_tmdb.py --port N [--port-file PATH] [--verbose]

    N = 0 picks a free port. Once listening, the server writes the port to
    PATH (atomically) and prints one line "listening 127.0.0.1:PORT".
    SIGTERM or SIGINT stops it with exit status 0.

Credentials: header "Authorization: Bearer test-token" or query api_key=test-key.
Test hooks (no credentials needed, not recorded):
    GET  /__stats  -> {"requests": [{"path", "query", "authorized"}, ...]}
    POST /__reset  -> forgets recorded requests and which ids were rate limited

Python 3.11 standard library only; binds to 127.0.0.1 and nothing else.
"""

from __future__ import annotations

import argparse
import asyncio
import email.utils
import json
import logging
import os
import re
import signal
import sys
import time
import traceback
from http import HTTPStatus
from urllib.parse import parse_qs, unquote, urlsplit

HOST = "127.0.0.1"
SERVER_NAME = "networklayer-fake-tmdb"
# TMDB's own spelling (no space), which a strict client might compare.
JSON_TYPE = "application/json;charset=utf-8"

# Generous enough for any header block a test sends, small enough that a
# runaway client cannot make us buffer without bound.
HEADER_LIMIT = 64 * 1024
BODY_CHUNK = 64 * 1024

VERBOSE = False

# Every connection task, so shutdown can cancel idle keep-alive connections
# instead of waiting for their clients.
CONNECTIONS: set[asyncio.Task] = set()

REASONS = {status.value: status.phrase for status in HTTPStatus}


# --------------------------------------------------------------------------
# HTTP/1.1 plumbing (the same as fixture_server.py, minus streaming
# responses: each file stays self-contained so either runs on its own)
# --------------------------------------------------------------------------

class BadRequest(Exception):
    """A request we cannot frame; the connection is answered and then closed
    because we no longer know where the next request starts."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class Response:
    __slots__ = ("status", "headers", "body")

    def __init__(self, status, headers=(), body=b""):
        self.status = status
        self.headers = headers
        self.body = body


_BODY_NONE, _BODY_UNREAD, _BODY_READING, _BODY_DONE = range(4)


class Request:
    __slots__ = ("method", "target", "version", "headers", "path", "query_string",
                 "_query", "keep_alive", "reader", "writer",
                 "_chunked", "_length", "_expect_continue", "_body_state")

    @property
    def query(self) -> dict[str, str]:
        if self._query is None:
            parsed = parse_qs(self.query_string, keep_blank_values=True)
            self._query = {name: values[0] for name, values in parsed.items()}
        return self._query

    async def body_chunks(self):
        """Yield the request body as it arrives. No TMDB route reads a body,
        but it must still be consumed to find the next keep-alive request."""
        if self._body_state != _BODY_UNREAD:
            return
        self._body_state = _BODY_READING
        if self._expect_continue:
            # Invite the body only when we are about to read it.
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
                    data = await reader.read(min(remaining, BODY_CHUNK))
                    if not data:
                        raise asyncio.IncompleteReadError(b"", remaining)
                    remaining -= len(data)
                    yield data
                if (await reader.readline()).strip():
                    raise BadRequest(400, "chunk not followed by CRLF")
        else:
            remaining = self._length
            while remaining:
                data = await reader.read(min(remaining, BODY_CHUNK))
                if not data:
                    raise asyncio.IncompleteReadError(b"", remaining)
                remaining -= len(data)
                yield data
        self._body_state = _BODY_DONE

    async def discard_body(self) -> bool:
        """False means the body was left half read and the connection cannot
        be reused."""
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
    # The value changes once a second; formatting it per request is waste.
    now = int(time.time())
    if now != _date_cache[0]:
        _date_cache[0] = now
        _date_cache[1] = email.utils.formatdate(now, usegmt=True)
    return _date_cache[1]


def render_head(status: int, headers, keep_alive: bool = True) -> bytes:
    parts = [f"HTTP/1.1 {status} {REASONS.get(status, 'Unknown')}\r\n"
             f"Date: {http_date()}\r\nServer: {SERVER_NAME}\r\n"]
    for name, value in headers:
        parts.append(f"{name}: {value}\r\n")
    if not keep_alive:
        parts.append("Connection: close\r\n")
    parts.append("\r\n")
    return "".join(parts).encode("utf-8")


async def send_response(req: Request, resp: Response) -> None:
    head = render_head(resp.status, (*resp.headers, ("Content-Length", len(resp.body))),
                       req.keep_alive)
    # One write for head and body: one send() and no Nagle interplay.
    req.writer.write(head if req.method == "HEAD" else head + resp.body)
    await req.writer.drain()


def json_response(status: int, obj, headers=()) -> Response:
    # ensure_ascii=False: real UTF-8 on the wire, as TMDB sends it, so the
    # client's decoding of non-ASCII titles is actually exercised.
    body = json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return Response(status, (("Content-Type", JSON_TYPE), *headers), body)


async def handle_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    task = asyncio.current_task()
    CONNECTIONS.add(task)
    try:
        while True:
            try:
                req = await read_request(reader, writer)
            except BadRequest as error:
                # No Request to answer through: the head itself was unusable.
                req = Request()
                req.method, req.keep_alive, req.writer = "GET", False, writer
                await send_response(req, json_response(error.status, {"error": error.message}))
                break
            if req is None:
                break

            try:
                result = await dispatch(req)
            except (ConnectionError, asyncio.IncompleteReadError):
                raise
            except BadRequest as error:
                req.keep_alive = False
                result = json_response(error.status, {"error": error.message})
            except Exception:
                # A bug in a route, not a client going away: worth one traceback.
                traceback.print_exc()
                req.keep_alive = False
                result = json_response(500, {"error": "fake TMDB bug"})

            if not await req.discard_body():
                req.keep_alive = False
            await send_response(req, result)
            if VERBOSE:
                print(f"{req.method} {req.target} -> {result.status}", file=sys.stderr, flush=True)
            if not req.keep_alive:
                break
    except (ConnectionError, asyncio.IncompleteReadError, BadRequest, ValueError):
        # Clients may vanish at any point; ValueError is StreamReader's
        # "line too long" in a chunked body.
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
# TMDB errors, verbatim from the real API
# --------------------------------------------------------------------------

def tmdb_error(http_status: int, status_code: int, message: str, headers=()) -> Response:
    return json_response(http_status, {"success": False, "status_code": status_code,
                                       "status_message": message}, headers)


UNAUTHORIZED = tmdb_error(401, 7, "Invalid API key: You must be granted a valid key.")
INVALID_PAGE = tmdb_error(400, 22, "Invalid page: Pages start at 1 and max at 500. "
                                   "They are expected to be an integer.")
NOT_FOUND_34 = tmdb_error(404, 34, "The resource you requested could not be found.")
RATE_LIMITED = tmdb_error(429, 25, "Your request count (41) is over the allowed limit of 40.",
                          (("Retry-After", "1"),))
INTERNAL_ERROR = tmdb_error(500, 11, "Internal error: Something went wrong, contact TMDb.")
NO_ROUTE = json_response(404, {"error": "no route"})

MISSING_ID = 404404
BROKEN_ID = 500500
RATE_LIMITED_ONCE = range(900000, 901000)
RATE_LIMITED_ALWAYS = range(901000, 902000)


# --------------------------------------------------------------------------
# Deterministic data
# --------------------------------------------------------------------------

TOTAL_PAGES = 3
TOTAL_RESULTS = 55
PER_PAGE = 4

# Ids are 1000 * page + offset + position (position 1..4), so every movie of
# every list route and page has its own id, none in the special ranges.
ID_OFFSETS = {"popular": 0, "now_playing": 100, "search": 200, "recommendations": 300}


def list_movie(label: str, id_offset: int, page: int, position: int) -> dict:
    """Movie `position` (1..4) of a list page, titled "<label> <page>-<position>".

    1: the well-formed one, vote_average 7.25, release_date "2024-03-01"
    2: poster_path and backdrop_path both null
    3: release_date "" and no genre_ids key at all (unreleased, unclassified)
    4: a non-ASCII title, with the label suffix kept so it stays distinct
    """
    movie_id = 1000 * page + id_offset + position
    title = f"{label} {page}-{position}"
    if position == 4:
        title = f"Amélie 東京 🎬 {title}"
    movie = {
        "adult": False,
        "backdrop_path": f"/backdrop{movie_id}.jpg",
        "genre_ids": [18, 35] if position % 2 else [28],
        "id": movie_id,
        "original_language": "fr" if position == 4 else "en",
        "original_title": title,
        "overview": f"Overview of {title}.",
        "popularity": round(250.5 - 10.125 * position - page, 3),
        "poster_path": f"/poster{movie_id}.jpg",
        "release_date": f"2023-0{position}-15",
        "title": title,
        "video": False,
        "vote_average": 6.5,
        "vote_count": 100 * position + page,
    }
    if position == 1:
        movie["vote_average"] = 7.25
        movie["release_date"] = "2024-03-01"
    elif position == 2:
        movie["poster_path"] = None
        movie["backdrop_path"] = None
    elif position == 3:
        movie["release_date"] = ""
        movie["vote_average"] = 0.0
        movie["vote_count"] = 0
        del movie["genre_ids"]
    return movie


def list_page(label: str, id_offset: int, page: int) -> dict:
    # Like TMDB, a page past total_pages (but within 1..500) is empty, not an error.
    results = ([list_movie(label, id_offset, page, position) for position in range(1, PER_PAGE + 1)]
               if page <= TOTAL_PAGES else [])
    return {"page": page, "results": results,
            "total_pages": TOTAL_PAGES, "total_results": TOTAL_RESULTS}


def movie_details(movie_id: int) -> dict:
    return {
        "adult": False,
        "backdrop_path": f"/backdrop{movie_id}.jpg",
        "belongs_to_collection": None,
        "budget": 1_000_000 * (movie_id % 100),
        "genres": [{"id": 18, "name": "Drama"}],
        "homepage": f"https://www.example.com/movie/{movie_id}",
        "id": movie_id,
        "imdb_id": f"tt{movie_id:07d}",
        "original_language": "en",
        "original_title": f"Movie {movie_id}",
        "overview": f"The overview of movie {movie_id}.",
        "popularity": 42.125,
        "poster_path": f"/poster{movie_id}.jpg",
        "production_companies": [],
        "release_date": "2024-03-01",
        "revenue": 3_000_000 * (movie_id % 100),
        # TMDB sends null for films whose runtime nobody entered yet.
        "runtime": None if movie_id % 10 == 0 else 90 + movie_id % 60,
        "spoken_languages": [{"english_name": "English", "iso_639_1": "en", "name": "English"}],
        "status": "Released",
        "tagline": f"Tagline of movie {movie_id}.",
        "title": f"Movie {movie_id}",
        "video": False,
        "vote_average": 7.25,
        "vote_count": 1234,
    }


def movie_videos(movie_id: int) -> dict:
    return {"id": movie_id, "results": [
        {"iso_639_1": "en", "iso_3166_1": "US", "name": "Official Trailer",
         "key": "abc123XYZ", "site": "YouTube", "size": 1080, "type": "Trailer",
         "official": True, "published_at": "2024-01-10T17:00:00.000Z",
         "id": "65a0f1c2e8a1b2c3d4e5f601"},
        {"iso_639_1": "en", "iso_3166_1": "US", "name": "Teaser",
         "key": "76979871", "site": "Vimeo", "size": 720, "type": "Teaser",
         "official": False, "published_at": "2023-11-02T09:30:00.000Z",
         "id": "65a0f1c2e8a1b2c3d4e5f602"},
    ]}


# --------------------------------------------------------------------------
# State and routes
# --------------------------------------------------------------------------

RECORDED: list[dict] = []
# Ids in RATE_LIMITED_ONCE that have already had their 429.
RATE_LIMIT_SPENT: set[int] = set()


def page_number(req) -> int | None:
    text = req.query.get("page", "1")
    if not text.isdigit() or not 1 <= int(text) <= 500:
        return None
    return int(text)


def list_route(label_for, id_offset: int, extra=None):
    async def handler(req, match):
        page = page_number(req)
        if page is None:
            return INVALID_PAGE
        body = list_page(label_for(req, match), id_offset, page)
        if extra:
            body = {**extra, **body}
        return json_response(200, body)
    return handler


r_popular = list_route(lambda req, m: "Popular", ID_OFFSETS["popular"])
r_now_playing = list_route(lambda req, m: "Now Playing", ID_OFFSETS["now_playing"],
                           {"dates": {"maximum": "2026-12-01", "minimum": "2026-10-19"}})
_search_page = list_route(lambda req, m: f"Result for {req.query['query']}", ID_OFFSETS["search"])
_recommendations_page = list_route(lambda req, m: f"Recommended for {m['id']}",
                                   ID_OFFSETS["recommendations"])


async def r_search(req, match):
    if not req.query.get("query"):
        if page_number(req) is None:
            return INVALID_PAGE
        # What TMDB answers to a search without a query: an empty list.
        return json_response(200, {"page": 1, "results": [], "total_pages": 1,
                                   "total_results": 0})
    return await _search_page(req, match)


def movie_error(movie_id: int) -> Response | None:
    if movie_id == MISSING_ID:
        return NOT_FOUND_34
    if movie_id == BROKEN_ID:
        return INTERNAL_ERROR
    return None


async def r_recommendations(req, match):
    return movie_error(int(match["id"])) or await _recommendations_page(req, match)


async def r_videos(req, match):
    movie_id = int(match["id"])
    return movie_error(movie_id) or json_response(200, movie_videos(movie_id))


async def r_details(req, match):
    movie_id = int(match["id"])
    if movie_id in RATE_LIMITED_ALWAYS:
        return RATE_LIMITED
    if movie_id in RATE_LIMITED_ONCE and movie_id not in RATE_LIMIT_SPENT:
        RATE_LIMIT_SPENT.add(movie_id)
        return RATE_LIMITED
    return movie_error(movie_id) or json_response(200, movie_details(movie_id))


# Order matters: the named lists must win over /movie/{id}.
API_ROUTES = [
    (re.compile(r"/3/movie/popular"), r_popular),
    (re.compile(r"/3/movie/now_playing"), r_now_playing),
    (re.compile(r"/3/search/movie"), r_search),
    (re.compile(r"/3/movie/(?P<id>\d+)/recommendations"), r_recommendations),
    (re.compile(r"/3/movie/(?P<id>\d+)/videos"), r_videos),
    (re.compile(r"/3/movie/(?P<id>\d+)"), r_details),
]


def authorized(req) -> bool:
    if req.headers.get("authorization") == "Bearer test-token":
        return True
    # Only look at the query when there is one: most requests use the header.
    return bool(req.query_string) and req.query.get("api_key") == "test-key"


async def dispatch(req) -> Response:
    path = req.path
    # Test hooks: unauthenticated and unrecorded, so inspecting the log
    # does not change it.
    if path == "/__stats":
        return json_response(200, {"requests": RECORDED})
    if path == "/__reset":
        if req.method != "POST":
            return json_response(405, {"error": "method not allowed"}, (("Allow", "POST"),))
        RECORDED.clear()
        RATE_LIMIT_SPENT.clear()
        return json_response(200, {"ok": True})

    is_authorized = authorized(req)
    RECORDED.append({"path": path, "query": dict(req.query), "authorized": is_authorized})

    for pattern, handler in API_ROUTES:
        match = pattern.fullmatch(path)
        if match:
            break
    else:
        return NO_ROUTE
    if req.method not in ("GET", "HEAD"):
        return json_response(405, {"error": "method not allowed"}, (("Allow", "GET, HEAD"),))
    if not is_authorized:
        return UNAUTHORIZED
    return await handler(req, match)


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
    # Transports report peers that reset mid-write here; a client hanging up
    # is an expected event, not an error.
    if isinstance(context.get("exception"), (ConnectionError, asyncio.IncompleteReadError)):
        return
    loop.default_exception_handler(context)


async def serve(port: int, port_file: str | None) -> None:
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(quiet_exception_handler)
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)

    # A large backlog: tests may open hundreds of connections at once.
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
