"""The coach's tables still loading, as a page sees it: the server's own 503 for a review
(``tables-not-ready``, built by ``app.api.errors.tables_not_ready``) answered to the page's
review requests until the test says the tables are ready, then the live server's answers.
The server's side of that 503 is tested in tests/app/coach/test_review.py; here it is the page
that is under test: it says the review is being computed, asks again, and shows the review."""

import json
import re
import time

from app.api.errors import tables_not_ready

REVIEW_REQUEST = re.compile(r"/api/v1/(games|matches)/[0-9a-f]+/review")
RETRY_AFTER = "1"  # the server says 10 s; a second keeps the test short
ASKED_SECONDS = 30  # a page's retries on a busy machine


class TablesLoading:
    """Answer ``page``'s review requests with ``tables-not-ready`` until ``ready()``."""

    def __init__(self, page):
        """Route the page's review requests through this object from now on."""
        self.page = page
        self.answered = 0
        self.loaded = False
        page.route(REVIEW_REQUEST, self._answer)

    def wait_until_asked(self, times: int) -> None:
        """Wait until the page has asked for a review ``times`` times (it retries on its own);
        the page's routes are served while it waits."""
        deadline = time.monotonic() + ASKED_SECONDS
        while self.answered < times:
            assert time.monotonic() < deadline, f"the page asked {self.answered} times"
            self.page.wait_for_timeout(100)

    def ready(self) -> None:
        """The tables are loaded: the page's next review request reaches the server."""
        self.loaded = True

    def _answer(self, route) -> None:
        """The 503 while loading, else the live server's answer."""
        if self.loaded:
            route.continue_()
            return
        self.answered += 1
        error = tables_not_ready()
        route.fulfill(status=error.status,
                      headers={**error.headers, "Retry-After": RETRY_AFTER},
                      content_type="application/json",
                      body=json.dumps({"error": {"code": error.code, "message": error.message}}))
