/* The archive's service worker: the pages and files a reader has opened stay readable offline.
 *
 * Network first, always: online, every request goes to the server as if this were not here (a new
 * puzzle, an edited clue, `make watch`'s rebuilt page show at once), and each answer is kept; offline,
 * the kept copy answers. The site's styles, scripts and fonts are kept at install, so a page opened
 * once works offline whole. The build writes VERSION, a hash of those files: a new one replaces the
 * old worker and its copies at once.
 */
'use strict';
var VERSION = '__VERSION__';
var CACHE = 'crossword-press-' + VERSION;
var PRECACHE = __PRECACHE__;

self.addEventListener('install', function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.addAll(PRECACHE);
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener('activate', function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf('crossword-press-') === 0 && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener('fetch', function (event) {
  var request = event.request;
  var url = new URL(request.url);
  // only this site's plain reads; `make watch`'s reload channel (/__reload) goes straight through
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.indexOf('/__') === 0) return;
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok && response.type === 'basic') {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
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
