#!/usr/bin/env python3
"""Loopback TLS fixture server for CoreAPI's TLS trust tests.

Standard library only. Usage: tls_server.py [--max-tls=1.1] CERT KEY [CLIENT_CA]

Serves HTTPS on 127.0.0.1, port 0, with the certificate chain CERT (PEM, leaf first) and its key KEY,
prints "PORT <n>" on stdout, and serves until its standard input closes (so it never outlives the test
process that started it). With CLIENT_CA, every client must present a certificate issued by that CA
(mutual TLS); the handshake fails otherwise. With --max-tls=1.1 it offers only TLS 1.0 and 1.1, at
OpenSSL's security level 0, which still allows them (clients must refuse such a server).

Every request is answered with 200 and {"path": <path>, "client": <the client certificate's common name,
or null>}.
"""

import json
import ssl
import sys
import threading
import warnings
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        client = None
        peer = self.connection.getpeercert()
        if peer:
            for entry in peer.get("subject", ()):
                for key, value in entry:
                    if key == "commonName":
                        client = value
        body = json.dumps({"path": self.path, "client": client}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # Handshakes that a test makes fail on purpose end here; that is expected.
        error = sys.exc_info()[1]
        if not isinstance(error, (ssl.SSLError, BrokenPipeError, ConnectionResetError, OSError)):
            super().handle_error(request, client_address)


def main():
    old_tls = "--max-tls=1.1" in sys.argv
    arguments = [argument for argument in sys.argv[1:] if not argument.startswith("--")]
    cert, key = arguments[0], arguments[1]
    client_ca = arguments[2] if len(arguments) > 2 else None
    server = Server(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    if old_tls:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            context.minimum_version = ssl.TLSVersion.TLSv1
            context.maximum_version = ssl.TLSVersion.TLSv1_1
        context.set_ciphers("DEFAULT:@SECLEVEL=0")
    if client_ca:
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(client_ca)
    # The handshake happens in the thread that serves the connection, never in the accepting one.
    server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    sys.stdin.read()  # returns when the parent closes our stdin or exits
    server.shutdown()


if __name__ == "__main__":
    main()
