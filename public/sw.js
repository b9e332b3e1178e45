/* The archive's service worker: the pages a reader has opened stay readable offline.
 *
 * Network first, always: online, every request goes to the server as if this were not here (a new
 * puzzle, an edited clue, `make watch`'s rebuilt page show at once), and each page that comes back is
 * kept; offline, the kept copy answers. Two stores, named for the site's address (two sites on one host
 * keep theirs apart):
 *   - the pages (every HTML page read, the one that installed the worker too), kept across versions;
 *   - the site's styles, scripts and fonts and the index, kept at install, one store per VERSION, the
 *     hash of those files the build writes in: a new version fetches them afresh and drops the old store.
 * Downloads (PDF, PNG, exports) are not kept: the pages are what a reader solves offline.
 */
'use strict';
var VERSION = 'cdba99d55d5ce348';
var FILES = ["index.html", "static/archive.js", "static/favicon.svg", "static/fonts.css", "static/fonts/OFL-SourceSansPro.txt", "static/fonts/OFL-SourceSerifPro.txt", "static/fonts/SourceSansPro-Regular.woff2", "static/fonts/SourceSansPro-Semibold.woff2", "static/fonts/SourceSerifPro-Bold.woff2", "static/fonts/SourceSerifPro-It.woff2", "static/fonts/SourceSerifPro-Regular.woff2", "static/player.css", "static/player.js", "static/site.css"];
var SCOPE = self.registration.scope;
var PAGES = 'crossword-press pages ' + SCOPE;
var STATIC = 'crossword-press static ' + SCOPE + ' ';

self.addEventListener('install', function (event) {
  event.waitUntil(caches.open(STATIC + VERSION).then(function (cache) {
    return cache.addAll(FILES);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener('activate', function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf(STATIC) === 0 && name !== STATIC + VERSION;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () {
    return self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  }).then(function (windows) {
    // the page that installed the worker loaded before it: keep it too
    return caches.open(PAGES).then(function (cache) {
      return Promise.all(windows.filter(function (w) { return w.url.indexOf(SCOPE) === 0; }).map(function (w) {
        return cache.add(w.url).catch(function () {});
      }));
    });
  }).then(function () { return self.clients.claim(); }));
});

// where a response of this site is kept: a page in PAGES, one of the site's files in this version's
// store, anything else (a download) nowhere
function storeFor(request, url) {
  if (url.href.indexOf(SCOPE + 'static/') === 0) return STATIC + VERSION;
  if (request.mode === 'navigate' || /(\/|\.html)$/.test(url.pathname)) return PAGES;
  return null;
}

self.addEventListener('fetch', function (event) {
  var request = event.request;
  var url = new URL(request.url);
  // only this site's plain reads; `make watch`'s reload channel (/__reload) goes straight through
  if (request.method !== 'GET' || url.href.indexOf(SCOPE) !== 0 || url.pathname.indexOf('/__') === 0) return;
  var store = storeFor(request, url);
  event.respondWith(fetch(request).then(function (response) {
    if (store && response.status === 200 && response.type === 'basic') {
      var copy = response.clone();
      event.waitUntil(caches.open(store).then(function (cache) { return cache.put(request, copy); }));
    }
    return response;
  }).catch(function () {
    return caches.match(request, { ignoreSearch: true }).then(function (kept) {
      if (kept) return kept;
      // a folder's address (slug/) and its index.html are one page: the feed links one, the archive the other
      var path = url.pathname;
      var other = path.endsWith('/') ? new URL('index.html', url) :
        path.endsWith('/index.html') ? new URL('./', url) : null;
      return other ? caches.match(other.href, { ignoreSearch: true }) : undefined;
    }).then(function (kept) { return kept || Response.error(); });
  }));
});
