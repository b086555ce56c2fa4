#!/usr/bin/env python3
"""Fake of The Movie Database (TMDB) API v3 for the MovieDB example's tests.

The real API (https://api.themoviedb.org/3) needs a key, is rate limited and
changes its data daily, so tests against it could neither run offline nor
assert on titles. This fake answers the same paths with the same JSON shapes
and TMDB's real error bodies, but with deterministic data, including the
awkward records TMDB really sends (null images, empty release dates, missing
genre_ids, non-ASCII titles), and scripted failures: 401, 404, 429 with
Retry-After, 500. The HTTP/1.1 machinery is http_fixture.py, shared with
fixture_server.py; this file holds only TMDB's routes, data and errors.

Caching, as TMDB does it: successful answers carry "Cache-Control: public,
max-age=300" (what api.themoviedb.org sends). /configuration and /movie/{id}
also carry an ETag and answer 304 Not Modified, without a body, to a matching
If-None-Match; the lists have no validator, so a stale list is fetched again.

Usage:  python3 fake_tmdb.py --port N [--port-file PATH] [--verbose]

    N = 0 picks a free port. Once listening, the server writes the port to
    PATH (atomically) and prints one line "listening 127.0.0.1:PORT".
    SIGTERM or SIGINT stops it with exit status 0.

Credentials: header "Authorization: Bearer test-token" or query api_key=test-key.
Test hooks (no credentials needed, not recorded):
    GET  /__stats  -> {"requests": [{"path", "query", "authorized", "status",
                       "if_none_match"}, ...]}: every API request that reached
                       the server (a client cache's hits never do), with the
                       status it got and the If-None-Match it sent (or null)
    POST /__reset  -> forgets recorded requests and which ids were rate limited

Python 3.11 standard library only; binds to 127.0.0.1 and nothing else.
"""

from __future__ import annotations

import re

# http_fixture.py sits next to this file. Python puts a script's own directory
# first on sys.path, so this import works whatever the working directory is.
import http_fixture
from http_fixture import Response, main

SERVER_NAME = "networklayer-fake-tmdb"
# TMDB's own spelling (no space), which a strict client might compare.
JSON_TYPE = "application/json;charset=utf-8"
# What api.themoviedb.org sends with its answers.
CACHE_CONTROL = ("Cache-Control", "public, max-age=300")


def json_response(status: int, obj, headers=()) -> Response:
    # TMDB's Content-Type on every body, not http_fixture's plain default.
    return http_fixture.json_response(status, obj, headers, JSON_TYPE)


def cacheable(obj) -> Response:
    """A 200 that a client may keep for max-age, and must then fetch again."""
    return json_response(200, obj, (CACHE_CONTROL,))


def validated(req, etag: str, obj) -> Response:
    """A cacheable 200 with `etag`, or a 304 without a body when the client has it already."""
    headers = (CACHE_CONTROL, ("ETag", etag))
    if http_fixture.etag_matches(req.headers.get("if-none-match"), etag):
        return Response(304, headers)
    return json_response(200, obj, headers)


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


def api_configuration() -> dict:
    # TMDB's answer, trimmed: change_keys left out.
    return {"images": {
        "base_url": "http://image.tmdb.org/t/p/",
        "secure_base_url": "https://image.tmdb.org/t/p/",
        "backdrop_sizes": ["w300", "w780", "w1280", "original"],
        "logo_sizes": ["w45", "w92", "w154", "w185", "w300", "w500", "original"],
        "poster_sizes": ["w92", "w154", "w185", "w342", "w500", "w780", "original"],
        "profile_sizes": ["w45", "w185", "h632", "original"],
        "still_sizes": ["w92", "w185", "w300", "original"],
    }}


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
        return cacheable(body)
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
    return movie_error(movie_id) or validated(req, f'"movie-{movie_id}-v1"', movie_details(movie_id))


async def r_configuration(req, match):
    return validated(req, '"configuration-v1"', api_configuration())


# Order matters: the named lists must win over /movie/{id}.
API_ROUTES = [
    (re.compile(r"/3/movie/popular"), r_popular),
    (re.compile(r"/3/movie/now_playing"), r_now_playing),
    (re.compile(r"/3/search/movie"), r_search),
    (re.compile(r"/3/movie/(?P<id>\d+)/recommendations"), r_recommendations),
    (re.compile(r"/3/movie/(?P<id>\d+)/videos"), r_videos),
    (re.compile(r"/3/movie/(?P<id>\d+)"), r_details),
    (re.compile(r"/3/configuration"), r_configuration),
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
    record = {"path": path, "query": dict(req.query), "authorized": is_authorized,
              "status": None, "if_none_match": req.headers.get("if-none-match")}
    RECORDED.append(record)
    response = await answer(req, path, is_authorized)
    record["status"] = response.status
    return response


async def answer(req, path: str, is_authorized: bool) -> Response:

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


if __name__ == "__main__":
    # The machinery's own errors (unframeable requests, a route's bug) use
    # TMDB's Content-Type too, like everything else this server sends.
    main(dispatch, description=__doc__.splitlines()[0], server_name=SERVER_NAME,
         error_content_type=JSON_TYPE, bug_message="fake TMDB bug")
