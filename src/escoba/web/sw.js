// @ts-check
// The service worker, served as /sw.js so that it looks after every page of the site: it keeps
// the pages' files, so that they open while the server cannot be reached (the pages then say
// so: offline.js).
//
// The server writes the first line, self.ESCOBA_OFFLINE = {version, files, pages}:
//   version  a digest of the pages' files and texts; a new one installs a new worker, which
//            drops the copies the old one kept
//   files    what to keep: every static file, and the pages' texts in every language
//   pages    each page's address (a prefix when it ends with "/": "/room/") -> its file
//
// Every answer comes from the network first, so that a new version of the server is picked up
// at once; a kept copy only when the network fails. API answers are neither kept nor ever
// answered from the cache (a stale answer must not pass for a fresh one), except the pages'
// texts and the tutorial's lessons, which are the same for everyone and change only with the
// server: a lesson opened once can be read again while the server cannot be reached.

const { version, files, pages } = self.ESCOBA_OFFLINE;
const KEPT = `escoba-${version}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(KEPT);
      await cache.addAll(files);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("escoba-") && name !== KEPT) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// The file a page's address is kept as: "/room/abc" -> "/static/room.html"; null if none.
/** @param {string} path */
function pageFile(path) {
  if (Object.hasOwn(pages, path)) return pages[path];
  for (const [page, file] of Object.entries(pages)) {
    if (page.length > 1 && page.endsWith("/") && path.startsWith(page)) return file;
  }
  return null;
}

/**
 * @param {Request} request
 * @param {string} key what the answer is kept as
 */
async function networkFirst(request, key) {
  const cache = await caches.open(KEPT);
  try {
    const response = await fetch(request);
    // Keep the newest copy of what answered well (a refusal or an error is never kept).
    if (response.ok && response.type === "basic") await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === "/api/texts" || url.pathname === "/api/tutorial") {
    event.respondWith(networkFirst(request, url.pathname + url.search));
    return;
  }
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/")) return; // the network's only
  const page = request.mode === "navigate" ? pageFile(url.pathname) : null;
  if (page) event.respondWith(networkFirst(request, page));
  else if (url.pathname.startsWith("/static/") || files.includes(url.pathname)) {
    event.respondWith(networkFirst(request, url.pathname));
  }
});
