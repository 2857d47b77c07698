// Registers the site's service worker (/sw.js: the pages' shell and an offline page, never the
// game's state) and tells it this page's language, which the offline page it keeps follows.
// It waits for the page to have loaded, so that the worker's first fetches never delay the
// page's own. Every page works the same without it: where service workers are unsupported,
// blocked or refused, this does nothing.

async function registerServiceWorker() {
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  const registration = await navigator.serviceWorker.ready;
  registration.active?.postMessage({ language: document.documentElement.lang });
}

function start() {
  registerServiceWorker().catch(() => undefined);
}

if ("serviceWorker" in navigator) {
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
}
