/* Yacht Daily's service worker (served at /sw.js by app/web/pwa.py, its scope the whole site).
 *
 * - It keeps the offline page and its shell (SHELL: the static files that page loads, under their
 *   digest addresses, immutable: an address never names other bytes) and answers those from its
 *   cache; other static files come from the network and the browser's cache. A deploy changes
 *   the digest, hence this script's bytes: the browser installs the new worker, which takes over
 *   at once and drops every older cache.
 * - /api/ is never answered nor kept here: the game's state always comes from the server.
 * - A page is always fetched from the network; only when that fails does the offline page answer,
 *   saying so plainly. The pages themselves are never cached (they hold the day's state).
 * - Every page posts its language here (sw-register.js): the offline page is kept in it.
 */
const VERSION = {{ version|tojson }};
const CACHE_PREFIX = "yacht-daily-";
const CACHE = CACHE_PREFIX + VERSION;
const STATIC_PREFIX = {{ static_prefix|tojson }};
const OFFLINE = {{ offline|tojson }};
const SHELL = {{ shell|tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll([...SHELL, new Request(OFFLINE, { cache: "reload" })]);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE)
      .map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

async function offlinePage() {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(OFFLINE, { ignoreVary: true });
  return kept || new Response("You are offline.", {
    status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

async function fromShell(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreVary: true });
  return kept || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/")) return;  // network only, never cached
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => offlinePage()));
  } else if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(fromShell(request));
  }
});

async function keepOfflinePageIn(language) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(OFFLINE, { ignoreVary: true });
  if (kept && kept.headers.get("Content-Language") === language) return;
  const answer = await fetch(OFFLINE, { cache: "no-store" });
  if (answer.ok && answer.headers.get("Content-Language") === language) {
    await cache.put(OFFLINE, answer);
  }
}

self.addEventListener("message", (event) => {
  const language = event.data && event.data.language;
  if (typeof language === "string" && /^[a-z]{2}$/.test(language)) {
    event.waitUntil(keepOfflinePageIn(language).catch(() => undefined));
  }
});
