#!/usr/bin/env python3
"""Loopback server of the notes service in OpenAPI/openapi.yaml, for the tests of generated clients.

Standard library only. Binds 127.0.0.1 on port 0 twice, prints "PORT <n>" and then "PORT2 <m>" on stdout
(the second is meant to be reached as http://localhost:<m>, another origin), and serves until its standard
input closes, so it never outlives the test process that started it. Every socket has TCP_NODELAY.

Routes, all below /v1:
  GET  /notes/<id>           note 7: 200 {"id", "title", "tags", "requestTag" (the X-Request-Tag field),
                             "fields" (every fields= of the query)}; any other id: 404 {"code", "message"}
  POST /notes                a JSON {"title", "tags"}: 201 with Location and the note (id 42); an empty title:
                             400 {"code": "bad_title", ...}
  POST /attachments          a multipart/form-data body: 200 {"parts": [{"name", "filename", "contentType",
                             "size", "sha256"}]}
  PUT  /uploads/<name>       any body, Content-Length or chunked: 200 {"size", "sha256", "contentLength",
                             "transferEncoding"}
  GET  /export?size=N&chunk=C&delayMs=D
                             200 application/octet-stream with Content-Length N: byte i is i % 251, written in
                             pieces of C bytes (65536 unless given) D milliseconds apart (none unless given)
  GET  /echo[?redirectTo=U][&key=K&failures=F][&delayMs=D]
                             after D milliseconds (none unless given): with redirectTo, 307 to U; with key and failures, the first F requests of K get 503
                             with Retry-After: 0; otherwise 200 {"method", "path", "port", "attempts" (requests
                             of K so far), "headers": [[name, value], ...] as they arrived}
"""
import hashlib
import json
import socket
import sys
import threading
import time
import urllib.parse
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

attempts = {}
attempts_lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format, *args):
        pass

    def read_body(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return body
                body += self.rfile.read(size)
                self.rfile.readline()
        length = int(self.headers.get("Content-Length", "0") or "0")
        return self.rfile.read(length) if length else b""

    def send_json(self, status, value, extra=()):
        payload = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        for name, field in extra:
            self.send_header(name, field)
        self.end_headers()
        self.wfile.write(payload)

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_PUT(self):
        self.route("PUT")

    def route(self, method):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        body = self.read_body()
        path = url.path
        if method == "GET" and path.startswith("/v1/notes/"):
            note = path[len("/v1/notes/"):]
            if note != "7":
                return self.send_json(404, {"code": "not_found", "message": "no note " + note})
            return self.send_json(200, {
                "id": 7, "title": "note 7", "tags": ["a", "b"],
                "requestTag": self.headers.get("X-Request-Tag", ""), "fields": query.get("fields", []),
            })
        if method == "POST" and path == "/v1/notes":
            new = json.loads(body)
            if not new.get("title"):
                return self.send_json(400, {"code": "bad_title", "message": "a note needs a title"})
            return self.send_json(201, {"id": 42, "title": new["title"], "tags": new["tags"]},
                                  [("Location", "/v1/notes/42")])
        if method == "POST" and path == "/v1/attachments":
            head = "Content-Type: %s\r\n\r\n" % self.headers.get("Content-Type", "")
            message = BytesParser(policy=HTTP).parsebytes(head.encode() + body)
            parts = []
            for part in message.iter_parts():
                payload = part.get_payload(decode=True) or b""
                parts.append({
                    "name": part.get_param("name", header="content-disposition"),
                    "filename": part.get_filename() or "",
                    "contentType": part.get_content_type(),
                    "size": len(payload),
                    "sha256": hashlib.sha256(payload).hexdigest(),
                })
            return self.send_json(200, {"parts": parts})
        if method == "PUT" and path.startswith("/v1/uploads/"):
            return self.send_json(200, {
                "size": len(body), "sha256": hashlib.sha256(body).hexdigest(),
                "contentLength": self.headers.get("Content-Length", ""),
                "transferEncoding": self.headers.get("Transfer-Encoding", ""),
            })
        if method == "GET" and path == "/v1/export":
            return self.export(query)
        if method == "GET" and path == "/v1/echo":
            time.sleep(int(query.get("delayMs", ["0"])[0]) / 1000)
            if "redirectTo" in query:
                self.send_response(307)
                self.send_header("Location", query["redirectTo"][0])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            key = query.get("key", [""])[0]
            with attempts_lock:
                attempts[key] = attempts.get(key, 0) + 1
                count = attempts[key]
            if key and count <= int(query.get("failures", ["0"])[0]):
                return self.send_json(503, {"code": "unavailable", "message": "try again"}, [("Retry-After", "0")])
            return self.send_json(200, {
                "method": method, "path": self.path, "port": self.server.server_address[1], "attempts": count,
                "headers": [[name, value] for name, value in self.headers.items()],
            })
        self.send_json(404, {"code": "no_route", "message": method + " " + path})

    def export(self, query):
        size = int(query["size"][0])
        chunk = int(query.get("chunk", ["65536"])[0])
        delay = int(query.get("delayMs", ["0"])[0]) / 1000
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        pattern = bytes(i % 251 for i in range(251)) * (chunk // 251 + 2)
        sent = 0
        while sent < size:
            count = min(chunk, size - sent)
            offset = sent % 251
            self.wfile.write(pattern[offset:offset + count])
            self.wfile.flush()
            sent += count
            if delay and sent < size:
                time.sleep(delay)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def handle_error(self, request, client_address):
        # Clients that cancel close their connection mid-response; that is expected here.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def main():
    servers = [Server(("127.0.0.1", 0), Handler), Server(("127.0.0.1", 0), Handler)]
    for each in servers:
        threading.Thread(target=each.serve_forever, daemon=True).start()
    print("PORT %d" % servers[0].server_address[1], flush=True)
    print("PORT2 %d" % servers[1].server_address[1], flush=True)
    sys.stdin.read()  # returns when the parent closes our stdin or exits
    for each in servers:
        each.shutdown()


if __name__ == "__main__":
    main()
