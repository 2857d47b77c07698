"""A server of fixed API documents, for running verify.py as a player runs it (over HTTP) on
what a test publishes: a core-made day, or a live server's pages copied and changed."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

API = "/api/v1"


def page_json(document) -> str:
    """A document as the service writes it: keys sorted, no whitespace, UTF-8 (so that each
    transcript is its canonical JSON)."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class PublishedServer:
    """Answers each GET of a path (with its query) it was given a document for, 404 otherwise;
    ``requested`` lists the paths asked, in order."""

    def __init__(self):
        """Start serving on a free local port."""
        self.documents: dict[str, str] = {}
        self.requested: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (http.server's name)
                """The document of the path, or a JSON 404 as the service answers."""
                server.requested.append(self.path)
                text = server.documents.get(self.path)
                status = 200 if text is not None else 404
                if text is None:
                    text = page_json({"error": {"code": "not-found", "message": "not published"}})
                body = text.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                """Quiet."""

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def publish(self, path: str, document) -> None:
        """Answer ``GET /api/v1<path>`` with ``document`` (JSON text as given, else encoded)."""
        self.documents[API + path] = document if isinstance(document, str) else \
            page_json(document)

    def close(self) -> None:
        """Stop serving."""
        self.httpd.shutdown()
        self.httpd.server_close()


def publish_day(server: PublishedServer, entries: list, date: str, ruleset: str, games: list,
                leaderboard: dict, page_size: int = 1000) -> None:
    """Publish a revealed (date, sheet) as the service does: the ledger, the leaderboard,
    the day's games in pages of ``page_size`` (each page's ``next`` the id its next page starts
    after)."""
    server.publish("/ledger", {"entries": entries})
    server.publish(f"/leaderboard/{date}/{ruleset}?limit=100", leaderboard)
    path = f"/days/{date}/{ruleset}/games?limit={page_size}"
    for start in range(0, max(len(games), 1), page_size):
        page = games[start:start + page_size]
        later = start + page_size < len(games)
        server.publish(path if start == 0 else f"{path}&after={games[start - 1]['id']}",
                       {"games": page, "next": page[-1]["id"] if later else None,
                        "total": len(games)})


def leaderboard_of(rows: list) -> dict:
    """A published leaderboard (players, top, no score bands) of the core's recomputed one."""
    return {"players": len(rows), "distribution": [],
            "top": [{"rank": row["rank"], "player": row["player"], "name": row["name"],
                     "total": row["total"]} for row in rows[:100]]}
