"""Routes of the loopback fixture for HTTP caching. fixture_server.py hands every path under /cache to
handle().

GET /cache/<name>?maxAge=&noStore=&noCache=&scope=&vary=&etag=&lastModified=
    {"name", "version", "language", "user"}: the resource's version (1 at first), the request's
    Accept-Language, and the user its Authorization names (what follows the last "-", never the whole
    token). ETag "v<version>" unless etag=0; Last-Modified (one per version) with lastModified=1;
    Cache-Control from scope (private or public), maxAge, noStore=1 and noCache=1; Vary from vary. Answers 304 to an
    If-None-Match naming the current ETag, or to an If-Modified-Since at or after the Last-Modified.
POST /cache/<name>
    A new version.
/cache-bump?name=
    A new version, outside HTTP caching's sight.
/cache-stats?name=
    {"gets", "conditional", "not_modified", "posts"}.
"""

import email.utils
import threading

LOCK = threading.Lock()
RESOURCES = {}


def resource(name):
    return RESOURCES.setdefault(name, {"version": 1, "gets": 0, "conditional": 0, "not_modified": 0, "posts": 0})


def handle(handler, path, query):
    """Answers `path`; returns False when it is not a route of this module."""
    def flag(name):
        return query.get(name, ["0"])[0] == "1"
    if path == "/cache-stats":
        with LOCK:
            stats = dict(resource(query.get("name", [""])[0]))
        stats.pop("version")
        handler.send_json(200, stats)
        return True
    if path == "/cache-bump":
        with LOCK:
            resource(query.get("name", [""])[0])["version"] += 1
        handler.send_json(200, {"ok": True})
        return True
    if not path.startswith("/cache/"):
        return False
    name = path[len("/cache/"):]
    with LOCK:
        entry = resource(name)
        if handler.command == "POST":
            entry["posts"] += 1
            entry["version"] += 1
            version = entry["version"]
        else:
            entry["gets"] += 1
            version = entry["version"]
    if handler.command == "POST":
        handler.send_json(200, {"name": name, "version": version})
        return True
    etag = None if query.get("etag", ["1"])[0] == "0" else '"v%d"' % version
    modified = 1_700_000_000 + version * 1000
    headers = []  # send_response adds Date
    control = []
    if "scope" in query:
        control.append(query["scope"][0])
    if "maxAge" in query:
        control.append("max-age=" + query["maxAge"][0])
    if flag("noStore"):
        control.append("no-store")
    if flag("noCache"):
        control.append("no-cache")
    if control:
        headers.append(("Cache-Control", ", ".join(control)))
    if etag:
        headers.append(("ETag", etag))
    if flag("lastModified"):
        headers.append(("Last-Modified", email.utils.formatdate(modified, usegmt=True)))
    if "vary" in query:
        headers.append(("Vary", query["vary"][0]))
    if_none_match = handler.headers.get("If-None-Match")
    if_modified_since = handler.headers.get("If-Modified-Since")
    if if_none_match or if_modified_since:
        with LOCK:
            entry["conditional"] += 1
        unchanged = (etag is not None and if_none_match == etag) or (
            if_none_match is None and flag("lastModified") and if_modified_since
            and email.utils.parsedate_to_datetime(if_modified_since).timestamp() >= modified)
        if unchanged:
            with LOCK:
                entry["not_modified"] += 1
            handler.send(304, headers=headers)
            return True
    language = handler.headers.get("Accept-Language", "")
    user = handler.headers.get("Authorization", "").rsplit("-", 1)[-1]
    handler.send_json(200, {"name": name, "version": version, "language": language, "user": user},
                      headers=headers)
    return True
