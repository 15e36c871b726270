"""Loopback WebSocket server for CoreAPI's WebSocket tests, on the `websockets` package.

Prints `PORT <n>` once it listens on 127.0.0.1 and exits when its standard input closes. Routes (the
path of the opening handshake; `name` in the query keeps tests apart):

  /echo            sends every message back as it came
  /headers         sends the handshake's header fields as one JSON object, then echoes
  /burst?count=N   sends N text messages `m <i>`, then echoes
  /big?size=N&fragments=F  sends one binary message of N bytes (in F fragments, 1 by default), then
                   echoes
  /close           sends `bye` and closes with 4001 and the reason `room closed`
  /drop-once       first connection of a name: sends `first` and drops the TCP connection without a
                   close frame; later ones send `second <authorization>` and echo
  /silent          sends `ready`, then stops reading, so pings get no pong
  /private         refuses the handshake with 401 unless `Authorization: Bearer good`
  /late-answer?delay=S  waits for a message, stops reading, sends `paused`, and S seconds later
                   closes with 4002 `late answer` before it reads on: the answer to a close frame the
                   client sent meanwhile
  GET /stats?name= (plain HTTP) the close codes and reasons the server saw for that name, as JSON
"""

import asyncio
import json
import sys
import threading
from http import HTTPStatus
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Response
from websockets.datastructures import Headers

closures = {}
connections = {}


def split(path):
    parts = urlsplit(path)
    query = {key: values[0] for key, values in parse_qs(parts.query).items()}
    return parts.path, query


def process_request(connection, request):
    route, query = split(request.path)
    if route == "/stats":
        body = json.dumps(closures.get(query.get("name", ""), [])).encode()
        return Response(200, "OK", Headers([("Content-Type", "application/json"),
                                            ("Content-Length", str(len(body)))]), body)
    if route == "/private" and request.headers.get("Authorization") != "Bearer good":
        return connection.respond(HTTPStatus.UNAUTHORIZED, "token required\n")
    return None


async def echo(ws):
    async for message in ws:
        await ws.send(message)


async def handler(ws):
    route, query = split(ws.request.path)
    name = query.get("name", "")
    connections[name] = connections.get(name, 0) + 1
    try:
        if route == "/echo":
            await echo(ws)
        elif route == "/headers":
            await ws.send(json.dumps({key.lower(): value for key, value in ws.request.headers.raw_items()}))
            await echo(ws)
        elif route == "/burst":
            for index in range(int(query.get("count", "0"))):
                await ws.send("m %d" % index)
            await echo(ws)
        elif route == "/big":
            size, fragments = int(query.get("size", "0")), int(query.get("fragments", "1"))
            if fragments > 1:
                await ws.send([bytes(size // fragments)] * fragments)
            else:
                await ws.send(bytes(size))
            await echo(ws)
        elif route == "/close":
            await ws.send("bye")
            await ws.close(4001, "room closed")
        elif route == "/drop-once":
            if connections[name] == 1:
                await ws.send("first")
                await asyncio.sleep(0.05)
                ws.transport.abort()
                return
            await ws.send("second %s" % ws.request.headers.get("Authorization", ""))
            await echo(ws)
        elif route == "/silent":
            await ws.send("ready")
            ws.transport.pause_reading()
            await asyncio.sleep(60)
        elif route == "/private":
            await echo(ws)
        elif route == "/late-answer":
            await ws.recv()
            ws.transport.pause_reading()
            await ws.send("paused")
            await asyncio.sleep(float(query.get("delay", "1.5")))
            # The close frame goes out first; the client's, waiting unread, completes the handshake.
            closing = asyncio.create_task(ws.close(4002, "late answer"))
            await asyncio.sleep(0.05)
            ws.transport.resume_reading()
            await closing
    except ConnectionClosed:
        pass
    finally:
        code = ws.close_code if ws.close_code is not None else 1006
        closures.setdefault(name, []).append({"code": code, "reason": ws.close_reason or ""})


def watch_stdin(loop, stop):
    sys.stdin.read()
    loop.call_soon_threadsafe(stop.set_result, None)


async def main():
    stop = asyncio.get_running_loop().create_future()
    async with serve(handler, "127.0.0.1", 0, process_request=process_request, max_size=None,
                     ping_interval=None, compression=None) as server:
        port = server.sockets[0].getsockname()[1]
        print("PORT %d" % port, flush=True)
        threading.Thread(target=watch_stdin, args=(asyncio.get_running_loop(), stop), daemon=True).start()
        await stop


if __name__ == "__main__":
    asyncio.run(main())
