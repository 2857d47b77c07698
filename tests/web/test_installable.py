"""The installable app in Chromium: the manifest and the service worker pass Chromium's own
installability check, the worker controls the pages over the whole site, a page that cannot be
fetched offline shows the honest offline page (in the reader's language), the API is never
answered from a cache, every page works the same with service workers blocked, and its link
preview carries absolute addresses."""

import json
import re

from playwright.sync_api import Page, expect

from .conftest import CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS, WAIT_MS, server_time, watch_errors

PHONE_390 = {"width": 390, "height": 844}
DESKTOP_1366 = {"width": 1366, "height": 768}
OFFLINE_SENTENCE = "your game is saved on the server as you play"


def controlled(page: Page) -> None:
    """Wait until the service worker is active and controls ``page`` (a reload is not needed:
    the worker claims the open pages)."""
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=WAIT_MS)


def cached_addresses(page: Page) -> list[str]:
    """Every address the page's origin keeps in its caches."""
    return page.evaluate("""async () => {
        const found = [];
        for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) found.push(request.url);
        }
        return found;
    }""")


def screenshot(page: Page, name: str) -> None:
    """Keep a screenshot of ``page`` for a person to look at."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def test_the_site_passes_chromiums_installability_check(browser, web_server, tmp_path):
    """The manifest (name, icons, standalone display, start URL in scope) and the worker,
    judged by Chromium itself in a profile of its own (its check refuses incognito contexts),
    with the worker controlling the page after a reload, its scope the whole site."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
        base_url=web_server.url, viewport=DESKTOP_1366, locale="en-GB", timezone_id="UTC")
    try:
        context.clock.set_fixed_time(server_time(web_server))
        page = context.new_page()
        errors = watch_errors(page)
        page.goto("/")
        page.evaluate("navigator.serviceWorker.ready")
        page.reload()
        controlled(page)
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == f"{web_server.url}/"
        manifest = page.evaluate("""async () => {
            const link = document.querySelector('link[rel="manifest"]');
            return (await fetch(link.href)).json();
        }""")
        assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
        session = context.new_cdp_session(page)
        try:
            found = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
            manifest_answer = session.send("Page.getAppManifest")
        finally:
            session.detach()
        assert found == [], found
        assert manifest_answer.get("errors", []) == [], manifest_answer["errors"]
        assert errors == [], errors
        page.goto("/sw.js")  # a document without a manifest: the same check does refuse it
        session = context.new_cdp_session(page)
        try:
            refused = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
        finally:
            session.detach()
        assert "no-manifest" in [error["errorId"] for error in refused]
    finally:
        context.close()


def test_offline_a_page_says_so_and_the_api_is_never_cached(new_context):
    """With the worker active and the network gone, a page shows the offline page in the
    reader's language (French here, on a phone), and an API call fails rather than being
    answered from a cache; no cache holds anything under /api/."""
    context = new_context(locale="fr-FR", viewport=PHONE_390)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto("/?lang=fr")
    controlled(page)
    expect(page.locator("[data-challenge]").first).to_be_visible()
    api_status = page.evaluate("fetch('/api/v1/rulesets').then(answer => answer.status)")
    assert api_status == 200

    context.set_offline(True)
    try:
        page.goto("/rules")
        expect(page.locator("[data-offline-page] h1")).to_have_text("Vous êtes hors ligne")
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        expect(page.locator(".site-header .brand")).to_be_visible()  # the shell's CSS applies
        screenshot(page, "offline-fr-390")
        api_offline = page.evaluate("""fetch('/api/v1/rulesets').then(
            answer => `answered ${answer.status}`, () => 'failed')""")
        assert api_offline == "failed"
    finally:
        context.set_offline(False)
    kept = cached_addresses(page)
    assert any(url.endswith("/css/site.css") for url in kept)
    assert not [url for url in kept if "/api/" in url]
    page.get_by_role("link", name="Réessayer").click()  # back online: the page asked for
    expect(page.locator("[data-offline-page]")).to_have_count(0)
    assert page.url.endswith("/rules")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert errors == [], errors


def test_offline_in_english_on_a_desktop(new_context):
    """The English offline page says what the day's game needs, at 1366×768."""
    context = new_context(viewport=DESKTOP_1366)
    page = context.new_page()
    page.goto("/rules?lang=en")
    controlled(page)
    context.set_offline(True)
    try:
        page.goto("/play/yahtzee")
        expect(page.locator("[data-offline-page] h1")).to_have_text("You are offline")
        expect(page.locator("[data-offline-page]")).to_contain_text(OFFLINE_SENTENCE)
        screenshot(page, "offline-en-1366")
    finally:
        context.set_offline(False)


def test_the_pages_work_with_service_workers_blocked(browser, web_server):
    """Without a service worker the home page loads its challenges and no script fails."""
    context = browser.new_context(base_url=web_server.url, service_workers="block",
                                  viewport=DESKTOP_1366, locale="en-GB", timezone_id="UTC")
    try:
        context.clock.set_fixed_time(server_time(web_server))
        context.set_default_timeout(WAIT_MS)
        page = context.new_page()
        errors = watch_errors(page)
        page.goto("/")
        expect(page.locator("[data-challenge] [data-status-chip]").first).not_to_have_text("")
        assert page.evaluate("navigator.serviceWorker?.controller ?? null") is None
        page.goto("/rules")
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        assert errors == [], errors
    finally:
        context.close()


def test_every_page_has_a_preview_with_absolute_addresses(page: Page, web_server):
    """Open Graph and Twitter card tags whose addresses a link-preview robot can follow."""
    page.goto("/rules")
    meta = json.loads(page.evaluate("""JSON.stringify(Object.fromEntries(
        [...document.querySelectorAll('meta[property], meta[name]')].map(
            tag => [tag.getAttribute('property') || tag.getAttribute('name'), tag.content])))"""))
    assert meta["og:site_name"] == "Yacht Daily"
    assert re.fullmatch(r".+ · Yacht Daily", meta["og:title"])
    assert meta["og:url"] == f"{web_server.url}/rules"
    assert meta["og:image"].startswith(f"{web_server.url}/static/")
    assert meta["twitter:card"] == "summary_large_image"
    image = page.request.get(meta["og:image"])
    assert image.ok and image.headers["content-type"] == "image/png"
