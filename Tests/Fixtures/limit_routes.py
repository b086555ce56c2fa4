"""Hostile bodies of the fixture server: the routes that test a client's limit on the response
bodies it keeps in memory (issue 23, item 3).

fixture_server.py hands every path under /limits/ to route() below.

Routes (any method):
    /limits/endless?status=S&rate_mib=R   status S (200 by default) and a chunked body that
                                          never ends: 64 KiB chunks as fast as the client reads
                                          them, or at about R MiB/s
    /limits/gzip-bomb?mib=N&status=S      Content-Encoding: gzip, a body of about N KiB (1024
                                          by default, so about 1 MiB) that inflates to N MiB of
                                          zeros
    /limits/sized?bytes=N                 exactly N bytes ("x"), with Content-Length

Python 3.11 standard library only.
"""

from __future__ import annotations

import asyncio
import struct
import zlib

from http_fixture import STREAM_CHUNK, Response, json_response

MIB = 1024 * 1024
_CHUNK = b"x" * STREAM_CHUNK
# One chunk of the chunked framing, built once: the endless route's loop only writes it.
_FRAMED_CHUNK = b"%x\r\n" % len(_CHUNK) + _CHUNK + b"\r\n"


def _status(req, default: int = 200) -> int:
    text = req.query.get("status", "")
    return int(text) if text.isdigit() and 200 <= int(text) <= 599 else default


def _number(req, name: str, default: int, limit: int) -> int:
    text = req.query.get(name, "")
    return min(int(text), limit) if text.isdigit() else default


async def _endless(rate_mib: int):
    # `rate_mib` 0: as fast as the client reads (send_response drains after every chunk).
    pause = STREAM_CHUNK / (rate_mib * MIB) if rate_mib else 0
    while True:
        yield _FRAMED_CHUNK
        # Always give the loop a turn: drain() returns without one while the client keeps up,
        # and this server's other connections (other tests' requests) would wait until the
        # client stopped reading, past their deadlines.
        await asyncio.sleep(pause)


async def r_endless(req):
    req.keep_alive = False
    headers = (("Content-Type", "application/octet-stream"), ("Transfer-Encoding", "chunked"))
    return Response(_status(req), headers, stream=_endless(_number(req, "rate_mib", 0, 100_000)))


# gzip bombs by inflated size in MiB, built once each.
_bombs: dict[int, bytes] = {}


def _build_bomb(mib: int) -> bytes:
    """A gzip member whose deflate data is one compressed MiB of zeros repeated: after a full
    flush the compressor starts afresh, so every MiB compresses to the same bytes and only one
    is computed (compressing the whole of a GiB takes half a minute here)."""
    zeros = bytes(MIB)
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = compressor.compress(zeros) + compressor.flush(zlib.Z_FULL_FLUSH)
    repeated = compressor.compress(zeros) + compressor.flush(zlib.Z_FULL_FLUSH)
    end = compressor.flush(zlib.Z_FINISH)
    crc = 0
    for _ in range(mib):
        crc = zlib.crc32(zeros, crc)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    trailer = struct.pack("<II", crc, (mib * MIB) & 0xFFFFFFFF)
    return header + first + repeated * (mib - 1) + end + trailer


async def r_gzip_bomb(req):
    mib = max(1, _number(req, "mib", 1024, 4096))
    if mib not in _bombs:
        # In a thread: the checksum of a GiB takes seconds, and other tests share this server.
        _bombs[mib] = await asyncio.to_thread(_build_bomb, mib)
    headers = (("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip"))
    return Response(_status(req), headers, _bombs[mib])


async def _sized(size: int):
    remaining = size
    while remaining > 0:
        chunk = _CHUNK if remaining >= len(_CHUNK) else _CHUNK[:remaining]
        remaining -= len(chunk)
        yield chunk
        await asyncio.sleep(0)


async def r_sized(req):
    size = _number(req, "bytes", 0, 4096 * MIB)
    headers = (("Content-Type", "application/octet-stream"), ("Content-Length", size))
    return Response(200, headers, stream=_sized(size))


ROUTES = {
    "/limits/endless": r_endless,
    "/limits/gzip-bomb": r_gzip_bomb,
    "/limits/sized": r_sized,
}


async def route(req):
    handler = ROUTES.get(req.path)
    if handler is None:
        return json_response(404, {"error": "no route"})
    return await handler(req)
