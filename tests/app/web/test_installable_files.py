"""The installable app's files as HTTP answers: the manifest and the service worker at the site's
root with their content types and headers, the offline page in the reader's language, and the
link-preview tags every page's head carries (absolute addresses on the configured site; a shared
game's day, sheet and points)."""

import json
import random
import re
from html.parser import HTMLParser

from playkit import PLAY_DATE, play_to_end, start

from app.web.headers import SECURITY_HEADERS

SITE = "https://yacht.example"


class HeadTags(HTMLParser):
    """The ``<meta>`` and ``<link>`` tags of a page, by property/name and by rel."""

    def __init__(self):
        """Nothing read yet."""
        super().__init__()
        self.meta: dict[str, str] = {}
        self.links: dict[str, str] = {}
        self.scripts: list[str] = []

    def handle_starttag(self, tag, attrs):
        """Note a meta tag's content, a link's address, a script's source."""
        found = dict(attrs)
        if tag == "meta" and ("property" in found or "name" in found):
            self.meta[found.get("property") or found["name"]] = found.get("content", "")
        elif tag == "link":
            self.links[found["rel"]] = found["href"]
        elif tag == "script" and "src" in found:
            self.scripts.append(found["src"])


def head_tags(client, path: str, **headers) -> HeadTags:
    """The head tags of the page at ``path``."""
    answer = client.get(path, headers=headers)
    assert answer.status_code == 200, path
    parser = HeadTags()
    parser.feed(answer.get_data(as_text=True))
    return parser


def test_the_manifest_names_what_an_install_needs(client):
    """Served as application/manifest+json, checked on every use, with a name, a standalone
    display over the whole site, the felt's colours and PNG icons of 192 and 512 pixels (one
    maskable) that the site serves."""
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.mimetype == "application/manifest+json"
    assert "no-cache" in answer.headers["Cache-Control"]
    manifest = json.loads(answer.get_data(as_text=True))
    assert manifest["name"] == manifest["short_name"] == "Yacht Daily"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/",
                                                                               "standalone")
    assert manifest["theme_color"] == manifest["background_color"] == "#1c523c"
    icons = {(icon["sizes"], icon["purpose"]): icon for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= set(icons)
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200 and image.mimetype == "image/png"
        assert image.data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(image.data[16:20]), int.from_bytes(image.data[20:24])
        assert f"{width}x{height}" == icon["sizes"]


def test_the_manifest_speaks_the_readers_language(client):
    """Its description follows Accept-Language (a manifest is fetched without cookies)."""
    answer = client.get("/manifest.webmanifest", headers={"Accept-Language": "fr"})
    manifest = json.loads(answer.get_data(as_text=True))
    assert manifest["lang"] == "fr"
    assert "dés" in manifest["description"]


def test_the_service_worker_is_served_at_the_root_and_names_the_static_digest(client, app):
    """JavaScript, checked on every visit, allowed the whole site, under the security headers;
    its cache is named by the static folder's digest and keeps the offline page's shell (the
    styles, icons and scripts every page loads, with the modules they import) and nothing
    else: not a page's own scripts, the verifier, the PDFs' fonts or the preview card, nothing
    under /api/."""
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in answer.headers["Cache-Control"]
    for name, value in SECURITY_HEADERS.items():
        assert answer.headers[name] == value
    script = answer.get_data(as_text=True)
    digest = app.static_url_path.rsplit("/", 1)[-1]
    assert f'const VERSION = "{digest}";' in script
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", script).group(1))
    static = app.static_url_path
    assert sorted(shell) == [f"{static}/{name}" for name in (
        "css/site.css", "img/apple-touch-icon.png", "img/favicon.svg", "js/fairness.js",
        "js/i18n.js", "js/log-monitor.js", "js/sw-register.js")]
    assert not [address for address in shell if "/fonts/" in address]
    assert all(address.startswith(f"{static}/") for address in shell)
    assert 'url.pathname.startsWith("/api/")) return;' in script


def test_the_offline_page_says_it_plainly_in_the_readers_language(client):
    """The offline page, in the language of the cookie or Accept-Language, which
    Content-Language names for the service worker."""
    english = client.get("/offline")
    assert english.headers["Content-Language"] == "en"
    text = english.get_data(as_text=True)
    assert "You are offline" in text
    assert "your game is saved on the server as you play" in text
    french = client.get("/offline", headers={"Accept-Language": "fr"})
    assert french.headers["Content-Language"] == "fr"
    assert "Vous êtes hors ligne" in french.get_data(as_text=True)


def test_every_page_links_the_manifest_and_registers_the_worker(client):
    """The head names the manifest, the theme colour and the touch icon; the worker's small
    script is loaded on every page."""
    for path in ("/", "/rules", "/verify", "/fairness", "/offline"):
        tags = head_tags(client, path)
        assert tags.links["manifest"] == "/manifest.webmanifest"
        assert tags.links["apple-touch-icon"].endswith("/img/apple-touch-icon.png")
        assert tags.meta["theme-color"] == "#1c523c"
        assert any(source.endswith("/js/sw-register.js") for source in tags.scripts), path


def test_every_page_has_a_preview_with_absolute_addresses(client, app):
    """Open Graph and Twitter card tags, their addresses on the configured site."""
    tags = head_tags(client, "/rules")
    assert tags.meta["og:site_name"] == "Yacht Daily"
    assert tags.meta["og:title"].endswith("· Yacht Daily")
    assert tags.meta["og:description"]
    assert tags.meta["og:url"] == f"{SITE}/rules"
    assert tags.meta["og:image"] == f"{SITE}{app.static_url_path}/img/og-card.png"
    assert (tags.meta["og:image:width"], tags.meta["og:image:height"]) == ("1200", "630")
    assert tags.meta["twitter:card"] == "summary_large_image"
    assert client.get(tags.meta["og:image"].removeprefix(SITE)).status_code == 200


def test_a_shared_games_page_previews_its_day_sheet_and_points(app, client):
    """A finished game's Verify link shows its day, sheet and points to anyone (a link-preview
    robot has no player's cookie), as its review page does; a game in play or an unknown id
    shows the page's own title."""
    game = play_to_end(client, start(client, "yahtzee", PLAY_DATE), random.Random(3))
    total = game["totals"]["total"]
    stranger = app.test_client()
    expected = f"Yacht Daily — {PLAY_DATE} · Yahtzee: {total} points"
    for reader, path in ((stranger, f"/verify?game={game['id']}"),
                         (client, f"/games/{game['id']}/review")):
        tags = head_tags(reader, path)
        assert tags.meta["og:title"] == expected, path
        assert tags.meta["og:url"] == f"{SITE}{path}"
    assert head_tags(stranger, f"/verify?game={game['id']}&lang=fr").meta["og:title"] == (
        f"Yacht Daily — {PLAY_DATE} · Yahtzee\u202f: {total} points")
    playing = start(client, "yacht", PLAY_DATE)
    for path in (f"/verify?game={playing['id']}", f"/verify?game={'0' * 32}", "/verify?game=x"):
        assert head_tags(stranger, path).meta["og:title"].endswith("· Yacht Daily")


def test_an_unchanged_service_worker_is_answered_not_modified(client):
    """A browser checks the worker on every visit: the same script again is a 304, compressed
    or not."""
    for encoding in ("br", "gzip", "identity"):
        first = client.get("/sw.js", headers={"Accept-Encoding": encoding})
        again = client.get("/sw.js", headers={"Accept-Encoding": encoding,
                                              "If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304, encoding
        assert again.headers["Service-Worker-Allowed"] == "/"
