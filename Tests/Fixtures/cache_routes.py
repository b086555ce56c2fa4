"""HTTP caching routes of the fixture server: one RFC 9111 rule per route, and a hit
counter per key, so that a test can prove each rule of a client cache by the number of
requests that reached the server and by the body it received.

fixture_server.py hands every path under /cache/ to route() below. {key} is any string a
test picks (a UUID, usually), so tests never share a counter. Bodies are JSON:
    {"key": ..., "hit": n, "version": v, "language": ...}
where "hit" counts the requests of that key that reached the server, this one included.

Routes (GET and HEAD unless noted):
    /cache/max-age/{key}?seconds=N        Cache-Control: max-age=N (60 by default)
    /cache/no-store/{key}                 Cache-Control: no-store
    /cache/no-cache/{key}                 Cache-Control: no-cache, with an ETag; 304 when
                                          If-None-Match matches
    /cache/etag/{key}?max_age=N           ETag "v{version}", max-age=N (0 by default); 304
                                          when If-None-Match matches. POST, PUT, PATCH and
                                          DELETE change the version (new ETag, new body)
                                          and answer 200: the unsafe request that must
                                          invalidate a client's stored copy
    /cache/last-modified/{key}?max_age=N  Last-Modified one day before the server started,
                                          max-age=N (0 by default); 304 when
                                          If-Modified-Since is at or after it
    /cache/expires/{key}?seconds=N        Expires N seconds ahead (60 by default), no
                                          Cache-Control
        ?ago=N                            Expires N seconds in the past instead
        ?value=V                          Expires: V as given (0: "already expired")
    /cache/age/{key}?age=A&max_age=M      Age: A (30 by default), max-age=M (60 by default)
    /cache/vary/{key}                     Vary: Accept-Language, max-age=60; the body names
                                          the Accept-Language it was sent
    /cache/private/{key}                  Cache-Control: private, max-age=60
    /cache/whoami/{key}                   Cache-Control: private, max-age=60; the body echoes
                                          the credentials the request carried
                                          ("authorization", "x-auth-token", "x-api-key",
                                          "cookie"): who the server answered
    /cache/secret-header/{key}?max_age=N  X-Session-Token: ROTATED-SECRET-{hit} (a credential the
                                          server rotates), ETag "fixed", Cache-Control: private,
                                          max-age=N (60 by default); 304, with a new token too,
                                          when If-None-Match matches
    Every route above also takes ?delay_ms=N: the answer waits N ms after the hit is
    counted, so that requests overlap (in-flight deduplication).
    /cache/stats/{key}                    {"hits", "full", "not_modified", "methods",
                                          "last_if_none_match", "last_if_modified_since"};
                                          reading it is not a hit

Python 3.11 standard library only.
"""

from __future__ import annotations

import asyncio
import email.utils
import time

from http_fixture import Response, etag_matches, json_body, json_response

NOT_FOUND = json_response(404, {"error": "no route"})

# One day before the server started: old enough that a 304 to If-Modified-Since makes sense,
# fixed so that every response of a run carries the same validator.
LAST_MODIFIED_EPOCH = int(time.time()) - 86_400
LAST_MODIFIED = email.utils.formatdate(LAST_MODIFIED_EPOCH, usegmt=True)

# key -> counters and what the last request carried
STATS: dict[str, dict] = {}
# key -> version of the /cache/etag resource, bumped by unsafe methods
VERSIONS: dict[str, int] = {}

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _stats(key: str) -> dict:
    return STATS.setdefault(key, {
        "hits": 0, "full": 0, "not_modified": 0, "methods": [],
        "last_if_none_match": None, "last_if_modified_since": None,
    })


def _seconds(query: dict, name: str, default: int) -> int:
    text = query.get(name, "")
    return int(text) if text.isdigit() else default


def _full(req, stats: dict, key: str, headers, version: int = 1) -> Response:
    stats["full"] += 1
    body = {"key": key, "hit": stats["hits"], "version": version}
    if "accept-language" in req.headers:
        body["language"] = req.headers["accept-language"]
    return Response(200, (("Content-Type", "application/json"), *headers), json_body(body))


def _not_modified(stats: dict, headers) -> Response:
    stats["not_modified"] += 1
    return Response(304, headers)


def _modified_since(value: str | None) -> bool:
    """True unless If-Modified-Since names a time at or after LAST_MODIFIED."""
    if value is None:
        return True
    try:
        since = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError):
        return True  # an unreadable date is ignored (RFC 9110 13.1.3)
    return since < LAST_MODIFIED_EPOCH


async def route(req):
    parts = req.path[len("/cache/"):].split("/", 1)
    if len(parts) != 2 or not parts[1]:
        return NOT_FOUND
    kind, key = parts
    if kind == "stats":
        return json_response(200, _stats(key))

    stats = _stats(key)
    stats["hits"] += 1
    stats["methods"].append(req.method)
    stats["last_if_none_match"] = req.headers.get("if-none-match")
    stats["last_if_modified_since"] = req.headers.get("if-modified-since")
    query = req.query
    delay_ms = query.get("delay_ms", "")
    if delay_ms.isdigit():
        await asyncio.sleep(min(int(delay_ms), 10_000) / 1000)

    if kind == "max-age":
        return _full(req, stats, key, (("Cache-Control", f"max-age={_seconds(query, 'seconds', 60)}"),))
    if kind == "no-store":
        return _full(req, stats, key, (("Cache-Control", "no-store"),))
    if kind == "no-cache":
        headers = (("Cache-Control", "no-cache"), ("ETag", '"fixed"'))
        if etag_matches(req.headers.get("if-none-match"), '"fixed"'):
            return _not_modified(stats, headers)
        return _full(req, stats, key, headers)
    if kind == "etag":
        if req.method in UNSAFE:
            VERSIONS[key] = VERSIONS.get(key, 1) + 1
            return json_response(200, {"key": key, "version": VERSIONS[key]})
        version = VERSIONS.get(key, 1)
        etag = f'"v{version}"'
        headers = (("Cache-Control", f"max-age={_seconds(query, 'max_age', 0)}"), ("ETag", etag))
        if etag_matches(req.headers.get("if-none-match"), etag):
            return _not_modified(stats, headers)
        return _full(req, stats, key, headers, version)
    if kind == "last-modified":
        headers = (("Cache-Control", f"max-age={_seconds(query, 'max_age', 0)}"), ("Last-Modified", LAST_MODIFIED))
        if not _modified_since(req.headers.get("if-modified-since")):
            return _not_modified(stats, headers)
        return _full(req, stats, key, headers)
    if kind == "expires":
        if "value" in query:
            expires = query["value"]
        elif "ago" in query:
            expires = email.utils.formatdate(time.time() - _seconds(query, "ago", 60), usegmt=True)
        else:
            expires = email.utils.formatdate(time.time() + _seconds(query, "seconds", 60), usegmt=True)
        return _full(req, stats, key, (("Expires", expires),))
    if kind == "age":
        return _full(req, stats, key, (
            ("Cache-Control", f"max-age={_seconds(query, 'max_age', 60)}"),
            ("Age", str(_seconds(query, "age", 30))),
        ))
    if kind == "vary":
        return _full(req, stats, key, (("Cache-Control", "max-age=60"), ("Vary", "Accept-Language")))
    if kind == "private":
        return _full(req, stats, key, (("Cache-Control", "private, max-age=60"),))
    if kind == "secret-header":
        headers = (
            ("Cache-Control", f"private, max-age={_seconds(query, 'max_age', 60)}"),
            ("ETag", '"fixed"'),
            ("X-Session-Token", f"ROTATED-SECRET-{stats['hits']}"),
        )
        if etag_matches(req.headers.get("if-none-match"), '"fixed"'):
            return _not_modified(stats, headers)
        return _full(req, stats, key, headers)
    if kind == "whoami":
        stats["full"] += 1
        body = {"key": key, "hit": stats["hits"]}
        for name in ("authorization", "x-auth-token", "x-api-key", "cookie"):
            body[name] = req.headers.get(name)
        return json_response(200, body, (("Cache-Control", "private, max-age=60"),))
    stats["hits"] -= 1  # an unknown route is not a hit of anything
    stats["methods"].pop()
    return NOT_FOUND
