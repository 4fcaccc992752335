// The tablet's service worker: keeps the app shell (pages, scripts, styles, icons) so that it
// loads with no connection. The API is never cached here: entries wait in the page's own
// outbox, and the ledger's answers are always fetched fresh.
// SHELL_VERSION and SHELL are written above this line by api/pages/tablet.py.

const CACHE = `lanterloo-shell-${SHELL_VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(
    keys.filter((k) => k.startsWith("lanterloo-shell-") && k !== CACHE)
      .map((k) => caches.delete(k)))).then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  const shell = url.origin === self.location.origin && event.request.method === "GET"
    && (url.pathname === "/table" || url.pathname.startsWith("/table/"));
  if (!shell) return;
  // The network first (a new version of the app is picked up at once); the cached shell when
  // there is no connection.
  event.respondWith(fetch(event.request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
    }
    return response;
  }).catch(() => caches.match(url.pathname).then((hit) => hit || Response.error())));
});
