/* The archive's service worker: the pages a reader has opened stay readable offline.
 *
 * Network first, always: online, every request goes to the server (a page or a site file past the
 * browser's HTTP cache, so a new puzzle, an edited clue, `make watch`'s rebuilt page show at once even on a
 * host that lets files be cached a while), and each page that comes back is kept; offline, the kept copy
 * answers. Two stores, named for the site's address (two sites on one host keep theirs apart):
 *   - the pages (every HTML page read, the one that installed the worker and the index too), kept across
 *     versions, each under one address (see pageKey);
 *   - the site's styles, scripts and fonts, kept at install, one store per VERSION, the hash of those
 *     files (and this code) the build writes in: a new version fetches them afresh and drops the old store.
 *     A web font's second part (Greek, Cyrillic, ...) is not fetched at install: it is kept when a page
 *     whose text needs it first loads it, and carried into the next version's store (keepUsedParts).
 * The archive's thumbnails go among the pages (the index shows them); other downloads (PDF, PNG, exports)
 * are not kept: the pages are what a reader solves offline. Offline, a page never opened here gets a short
 * page saying so, with a way back to the archive, and a thumbnail never seen an empty square.
 */
'use strict';
var VERSION = '661afbc110b6c9a6';
var FILES = ["static/archive.js", "static/favicon.svg", "static/fonts.css", "static/fonts/OFL-SourceSansPro.txt", "static/fonts/OFL-SourceSerifPro.txt", "static/fonts/SourceSansPro-Regular-latin.woff2", "static/fonts/SourceSansPro-Semibold-latin.woff2", "static/fonts/SourceSerifPro-Bold-latin.woff2", "static/fonts/SourceSerifPro-It-latin.woff2", "static/fonts/SourceSerifPro-Regular-latin.woff2", "static/player.css", "static/player.js", "static/site.css"];
var LATER = ["static/fonts/SourceSansPro-Regular-more.woff2", "static/fonts/SourceSansPro-Semibold-more.woff2", "static/fonts/SourceSerifPro-Bold-more.woff2", "static/fonts/SourceSerifPro-It-more.woff2", "static/fonts/SourceSerifPro-Regular-more.woff2"];  // the web fonts' second parts (Greek, Cyrillic, ...): kept once a page has used one
var SCOPE = self.registration.scope;
var PAGES = 'crossword-press pages ' + SCOPE;
var STATIC = 'crossword-press static ' + SCOPE + ' ';

self.addEventListener('install', function (event) {
  event.waitUntil(Promise.all([
    caches.open(STATIC + VERSION).then(function (cache) {
      return cache.addAll(FILES.map(fresh)).then(function () { return keepUsedParts(cache); });
    }),
    // the archive's index, among the pages
    caches.open(PAGES).then(function (cache) {
      return fetch(SCOPE, { cache: 'no-cache' }).then(function (response) {
        if (response.status === 200 && !response.redirected) return cache.put(SCOPE, response);
      }).catch(function () {});
    })
  ]).then(function () { return self.skipWaiting(); }));
});

self.addEventListener('activate', function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf(STATIC) === 0 && name !== STATIC + VERSION;
    }).map(function (name) { return caches.delete(name); }));
  }).then(function () {
    return self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  }).then(function (windows) {
    // the page that installed the worker loaded before it: keep it too, and the thumbnails it showed (from
    // the browser's own cache: those it has not shown yet are kept when it does)
    return caches.open(PAGES).then(function (cache) {
      return Promise.all(windows.filter(function (w) { return w.url.indexOf(SCOPE) === 0; }).map(function (w) {
        return fetch(w.url, { cache: 'no-cache' }).then(function (response) {
          if (response.status !== 200) return;
          if (!/^text\/html/.test(response.headers.get('Content-Type') || '')) return cache.put(pageKey(w.url), response);
          return response.clone().text().then(function (html) {
            return Promise.all([cache.put(pageKey(w.url), response)].concat(thumbnails(html, w.url).map(function (url) {
              return keepFromBrowser(cache, url);
            })));
          });
        }).catch(function () {});
      }));
    });
  }).then(function () { return self.clients.claim(); }));
});

// A font's second part a page has used goes into the new store too, or a kept page in Polish or Greek
// would show other fonts' letters offline after every update of the site: the copy an older version kept
// is fetched afresh (the font may have changed), and the one the page that installs the worker loaded
// before there was a worker is taken from the browser's cache. Best effort: a part that cannot be had never
// fails the install.
function keepUsedParts(cache) {
  return Promise.all(LATER.map(function (path) {
    var url = new URL(path, SCOPE).href;
    return caches.match(url).then(function (kept) {
      return kept ? cache.add(fresh(url)) : keepFromBrowser(cache, url);
    }).catch(function () {});
  }));
}

// a file the browser's own cache holds (loaded before there was a worker) into `cache`; best effort
function keepFromBrowser(cache, url) {
  return fetch(url, { cache: 'only-if-cached', mode: 'same-origin' }).then(function (response) {
    if (response.status === 200) return cache.put(url, response);
  }).catch(function () {});
}

// A request past the browser's HTTP cache: where a host lets files be cached a while (GitHub Pages says ten
// minutes), a new version would be handed the files of the one before, and keep them until the next
function fresh(url) { return new Request(url, { cache: 'reload' }); }

// the addresses of the thumbnails a page shows (the archive's cards), from its HTML
function thumbnails(html, base) {
  var found = [];
  var pattern = /<img [^>]*src="([^"]+-thumb\.png)"/g;
  for (var match = pattern.exec(html); match; match = pattern.exec(html)) {
    var url = new URL(match[1].replace(/&amp;/g, '&'), base);
    if (url.href.indexOf(SCOPE) === 0) found.push(pageKey(url.href));
  }
  return found;
}

// A page is kept under one address: a folder's (slug/) and its index.html's are one page (the feed links
// one, the archive the other), and two copies could differ offline, an older grid wiping newer progress.
function pageKey(address) {
  var url = new URL(address);
  url.search = '';
  url.hash = '';
  if (url.pathname.endsWith('/index.html')) url.pathname = url.pathname.slice(0, -'index.html'.length);
  return url.href;
}

// an address with no file name's extension and no closing slash: a folder's typed without its slash (the
// server redirects it, and a redirect is not kept), or a page a host serves without its '.html'
function bare(url) { return !/\/$|\.[A-Za-z0-9]+$/.test(url.pathname); }

// where a response of this site is kept: a page in PAGES, one of the site's files in this version's
// store, anything else (a download) nowhere
function storeFor(request, url) {
  if (url.href.indexOf(SCOPE + 'static/') === 0) return STATIC + VERSION;
  // a page (a folder, an .html file, an address with no extension), or a thumbnail
  if (/(\/|\.html|-thumb\.png)$/.test(url.pathname) || bare(url)) return PAGES;
  return null;
}

// What goes to the server: a page or one of the site's files is asked for past the browser's HTTP cache
// (a revalidation, answered 304 when nothing changed), so a page is never older than the server's and the
// version's store never takes an older file; a thumbnail as the browser would ask for it.
function ask(request, store) {
  if (request.mode === 'navigate') {
    // a navigation's request cannot be copied with changes: a new one, whose redirect (a folder's address
    // without its slash) the browser follows as it would the original's (it asks for */*, not text/html,
    // and sends no Referer: nothing a static host reads)
    return new Request(request.url, { cache: 'no-cache', credentials: 'same-origin', redirect: 'manual' });
  }
  return store && store !== PAGES ? new Request(request, { cache: 'no-cache' }) : request;
}

function escapeHtml(text) {
  return text.replace(/[&<>"]/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]; });
}

// Offline, with no copy kept: for a page, a page that says so (in the site's own style, kept at install);
// for a thumbnail, an empty square where the browser would show a broken image.
function missing(request, url) {
  if (request.mode === 'navigate') {
    var home = escapeHtml(SCOPE);
    // a page never opened here, or a download (PDF, PNG, export), which is never kept
    var what = storeFor(request, url) === PAGES ? 'This page has not been opened on this device, so no copy of it is kept here.'
      : 'Downloads (PDFs, pictures, exports) are not kept offline: this one needs a connection.';
    var html = '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
      '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline</title>' +
      '<link rel="stylesheet" href="' + home + 'static/fonts.css">' +
      '<link rel="stylesheet" href="' + home + 'static/site.css"></head><body><main id="main">' +
      '<h1 class="archive-heading">You are offline</h1>' +
      '<p>' + what + ' The puzzles you have opened before still work offline.</p>' +
      '<p><a href="' + home + 'index.html">Back to the archive</a></p></main></body></html>';
    return new Response(html, { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  }
  if (/-thumb\.png$/.test(url.pathname)) {
    var svg = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120"><rect width="120" height="120" fill="#8881"/></svg>';
    return new Response(svg, { headers: { 'Content-Type': 'image/svg+xml' } });
  }
  return Response.error();
}

self.addEventListener('fetch', function (event) {
  var request = event.request;
  var url = new URL(request.url);
  // only this site's plain reads; `make watch`'s reload channel (/__reload) goes straight through
  if (request.method !== 'GET' || url.href.indexOf(SCOPE) !== 0 || url.pathname.indexOf('/__') === 0) return;
  var store = storeFor(request, url);
  var key = store === PAGES ? pageKey(request.url) : request;
  event.respondWith(fetch(ask(request, store)).then(function (response) {
    if (store && response.status === 200 && response.type === 'basic' && !response.redirected) {
      var copy = response.clone();
      event.waitUntil(caches.open(store).then(function (cache) { return cache.put(key, copy); }));
    }
    return response;
  }).catch(function () {
    return caches.match(key, { ignoreSearch: true }).then(function (kept) {
      if (kept || !(store === PAGES && request.mode === 'navigate' && bare(url))) return kept || missing(request, url);
      // not kept as typed: a folder's address without its slash is sent on to the kept page's own address,
      // where its relative links work
      var folder = pageKey(request.url) + '/';
      return caches.match(folder, { ignoreSearch: true }).then(function (page) {
        return page ? Response.redirect(folder, 301) : missing(request, url);
      });
    });
  }));
});
