#!/usr/bin/env python3
"""An HTTP CONNECT proxy on 127.0.0.1 for the tests, tunnelling to 127.0.0.1 only.

    CONNECT 127.0.0.1:PORT      "200 Connection established" with an X-Proxy header, then a tunnel
    GET /tunnels                the number of tunnels opened so far, as text
    GET /last-connect           the lower-cased header names of the last CONNECT, comma-separated

Its answer to CONNECT carries a header of its own, so that a client which takes that answer
for the origin's response shows it. Run: connect_proxy.py --port 0 --port-file FILE
"""
import argparse
import asyncio

tunnels = 0
last_connect_names = []


async def pipe(reader, writer):
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


async def handle(reader, writer):
    global tunnels, last_connect_names
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
        writer.close()
        return
    method, target, _ = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
    if method == "GET" and target == "/tunnels":
        body = str(tunnels).encode()
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
        await writer.drain()
        writer.close()
        return
    if method == "GET" and target == "/last-connect":
        body = ",".join(last_connect_names).encode()
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
        await writer.drain()
        writer.close()
        return
    if method == "CONNECT":
        lines = head.decode("latin-1").split("\r\n")[1:]
        last_connect_names = sorted(line.split(":", 1)[0].strip().lower() for line in lines if ":" in line)
    host, _, port = target.rpartition(":")
    if method != "CONNECT" or host != "127.0.0.1" or not port.isdigit():
        writer.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        await writer.drain()
        writer.close()
        return
    upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", int(port))
    tunnels += 1
    writer.write(b"HTTP/1.1 200 Connection established\r\nX-Proxy: connect-fixture\r\n\r\n")
    await writer.drain()
    await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file")
    arguments = parser.parse_args()
    server = await asyncio.start_server(handle, "127.0.0.1", arguments.port)
    port = server.sockets[0].getsockname()[1]
    if arguments.port_file:
        with open(arguments.port_file, "w") as file:
            file.write(str(port))
    async with server:
        await server.serve_forever()


asyncio.run(main())
