#!/usr/bin/env python3
"""Loopback fixture that resets a kept-alive connection in the middle of a request body.

Standard library only. Binds 127.0.0.1 on port 0, prints "PORT <n>" on stdout and serves until its
standard input closes (so it never outlives the test process that started it). HTTP/1.1, kept alive,
TCP_NODELAY on every socket.

It does what a server does when it closes an idle connection just as a client reuses it (gunicorn, for
one): the first request under a name that arrives on a connection which has served a request before is
cut once `after` bytes of its body have arrived, with a reset (SO_LINGER 0) or a close. Every other
request body is read whole and checked byte by byte: against the length and SHA-256 the client says it
sends, and, as it arrives, against the bytes the cut request delivered, so a body sent again from its
middle is refused at its first byte instead of waited for.

Routes:
  GET /warm      {"request": n}: the number of the request on its connection (1 for the first)
  POST|PUT /upload?name=N&length=L&sha256=H[&after=A][&how=close]
                 The first request for N that arrives on a reused connection is cut: A bytes of its
                 body (65536 by default) are read, then the connection is reset without a response
                 ("reset"); with how=close the server closes its side instead (FIN) and reads and drops
                 the rest of the body, so the client finds the connection closed only once it has sent
                 the whole body ("closed").
                 Any other request for N has its body read (Content-Length or chunked) and checked: 200
                 {"outcome": "whole", "length", "sha256"} when it is L bytes with SHA-256 H, "corrupt"
                 (200, same fields) when it is not; 400 {"outcome": "mismatch", "offset", "error"} as
                 soon as a byte differs from what the cut request delivered (the connection is then
                 closed). A body that stops arriving for 30 s, or whose connection ends early, is
                 "partial" and gets no response.
  GET /log?name=N
                 [{"outcome", "request", "received", ...}, ...]: the /upload requests for N in the order
                 they ended (a cut one when it was cut), with the number of each on its connection and
                 the body bytes it received.
"""

import hashlib
import json
import socket
import struct
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

READ_TIMEOUT = 30  # seconds a body may stop arriving before it is logged "partial"
LOCK = threading.Lock()
LOGS = {}  # name -> [entry, ...]
PREFIXES = {}  # name -> the body bytes the reset request delivered


def log(name, entry):
    with LOCK:
        LOGS.setdefault(name, []).append(entry)


class Partial(Exception):
    """The body stopped arriving, or its connection closed, before it was complete."""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "CoreAPIResetFixture/1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.connection.settimeout(READ_TIMEOUT)
        self.served = 0

    def log_message(self, format, *args):
        pass

    def send_json(self, status, value):
        body = json.dumps(value, sort_keys=True).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def read(self, size):
        """Exactly `size` bytes of the body, in pieces; raises Partial when they stop coming."""
        while size:
            try:
                piece = self.rfile.read(min(size, 1 << 16))
            except (socket.timeout, ConnectionError):
                piece = b""
            if not piece:
                raise Partial()
            size -= len(piece)
            yield piece

    def body(self):
        """The body in pieces, chunked or by Content-Length."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            while True:
                line = self.rfile.readline()
                if not line:
                    raise Partial()
                size = int(line.split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return
                yield from self.read(size)
                self.rfile.readline()
        yield from self.read(int(self.headers.get("Content-Length") or 0))

    def cut(self, name, after, how):
        received = b""
        try:
            for piece in self.read(after):
                received += piece
        except Partial:
            pass
        with LOCK:
            PREFIXES[name] = received
        self.close_connection = True
        # Logged before the client can tell, so it comes before any request the client sends again.
        log(name, {"outcome": "closed" if how == "close" else "reset", "request": self.served,
                   "received": len(received)})
        if how == "close":
            # Ends its side (FIN), then reads and drops the rest of the body, so the client sends it all
            # and then finds the connection closed without a response.
            self.connection.shutdown(socket.SHUT_WR)
            rest = int(self.headers.get("Content-Length") or 0) - len(received)
            try:
                for _ in self.read(max(rest, 0)):
                    pass
            except Partial:
                pass
            return
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()

    def upload(self, query):
        name = query.get("name", [""])[0]
        after = int(query.get("after", ["65536"])[0])
        with LOCK:
            first = name not in LOGS
            if first and self.served > 1:
                LOGS[name] = []  # claimed: one reset per name
            prefix = PREFIXES.get(name, b"")
        if first and self.served > 1:
            self.cut(name, after, query.get("how", ["reset"])[0])
            return
        digest, received = hashlib.sha256(), 0
        try:
            for piece in self.body():
                checked = prefix[received:received + len(piece)]
                for index, (got, expected) in enumerate(zip(piece, checked)):
                    if got != expected:
                        offset = received + index
                        log(name, {"outcome": "mismatch", "request": self.served, "offset": offset,
                                   "received": received + len(piece)})
                        self.close_connection = True
                        message = "byte %d differs from what the cut request delivered" % offset
                        self.send_json(400, {"outcome": "mismatch", "offset": offset,
                                             "error": {"code": 400, "message": message}})
                        return
                digest.update(piece)
                received += len(piece)
        except Partial:
            log(name, {"outcome": "partial", "request": self.served, "received": received})
            self.close_connection = True
            return
        length = int(query.get("length", ["-1"])[0])
        sha256 = digest.hexdigest()
        whole = received == length and sha256 == query.get("sha256", [""])[0]
        outcome = "whole" if whole else "corrupt"
        log(name, {"outcome": outcome, "request": self.served, "received": received, "sha256": sha256})
        self.send_json(200, {"outcome": outcome, "length": received, "sha256": sha256})

    def handle_any(self):
        self.served += 1
        url = urlsplit(self.path)
        query = parse_qs(url.query)
        if url.path == "/upload" and self.command in ("POST", "PUT"):
            self.upload(query)
        elif url.path == "/warm":
            self.send_json(200, {"request": self.served})
        elif url.path == "/log":
            with LOCK:
                entries = list(LOGS.get(query.get("name", [""])[0], []))
            self.send_json(200, entries)
        else:
            self.close_connection = True
            self.send_json(404, {"error": "no route %s %s" % (self.command, url.path)})

    do_GET = do_POST = do_PUT = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # The connections this fixture resets, and clients that give up, end here; that is expected.
        if not isinstance(sys.exc_info()[1], (ConnectionError, OSError)):
            super().handle_error(request, client_address)


def main():
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    sys.stdin.read()  # returns when the parent closes our stdin or exits
    server.shutdown()


if __name__ == "__main__":
    main()
