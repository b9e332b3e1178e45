/* The archive's index and tag pages: each card shows the solver's progress
 * (kept by player.js in localStorage under the card's data-key), and the
 * finder narrows the cards by words of their title, author, description,
 * tags or date, and by progress. Without script the page is a plain list:
 * the finder stays hidden and no card says anything about progress.
 */
(function () {
  'use strict';

  // Offline: a site served over http(s) keeps the pages a reader opened (public/sw.js, written by the
  // build beside the index); from file:// there is nothing to keep, and no worker
  if ('serviceWorker' in navigator && /^https?:$/.test(location.protocol) && document.currentScript) {
    navigator.serviceWorker.register(new URL('../sw.js', document.currentScript.src).href).catch(function () {});
  }

  var cards = Array.prototype.slice.call(document.querySelectorAll('.card[data-key]'));
  if (!cards.length) return;

  function storage() {
    try { return window.localStorage; } catch (err) { return null; }  // blocked storage throws on access
  }

  function formatTime(ms) {  // as the player shows its clock
    var s = Math.floor(ms / 1000);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    var mm = h ? String(m).padStart(2, '0') : String(m);
    return (h ? h + ':' : '') + mm + ':' + String(sec).padStart(2, '0');
  }

  // 'new', 'started' or 'done', and what the card says: read the way the player reads a save, so a
  // save it would not take (another version of the grid, a hand-edited one) shows nothing here either
  function progress(card) {
    var store = storage();
    var raw = null;
    try { raw = store && store.getItem(card.getAttribute('data-key')); } catch (err) { raw = null; }
    var cells = Number(card.getAttribute('data-cells'));
    var state = null;
    try { state = raw ? JSON.parse(raw) : null; } catch (err) { state = null; }
    if (!state || state.v !== 1 || typeof state.letters !== 'string' || state.letters.length !== cells ||
        !/^[A-Z.]*$/.test(state.letters)) {
      return { state: 'new', text: '' };
    }
    var filled = state.letters.replace(/\./g, '').length;
    if (state.solved === true && filled === cells) {
      // revealed as the player says it: the whole puzzle at once, or every letter one way or another
      if (state.gaveUp || (typeof state.revealed === 'string' && /^1+$/.test(state.revealed))) {
        return { state: 'revealed', text: 'Revealed' };
      }
      var clock = Number(state.elapsed);
      var time = clock > 0 && clock <= 100 * 3600 * 1000 ? ' in ' + formatTime(clock) : '';
      // the letters Reveal gave, as the player's "Solved!" counts them
      var given = typeof state.revealed === 'string' ? state.revealed.replace(/[^1]/g, '').length : 0;
      var help = given ? ' (' + given + (given === 1 ? ' letter' : ' letters') + ' revealed)' : '';
      return { state: 'done', text: 'Solved' + time + help };
    }
    if (!filled) return { state: 'new', text: '' };
    if (filled === cells) return { state: 'started', text: 'All filled in, not solved yet' };  // a wrong letter or more
    return { state: 'started', text: 'In progress, ' + Math.max(1, Math.floor(100 * filled / cells)) + '% filled' };
  }

  function showProgress() {
    cards.forEach(function (card) {
      var p = progress(card);
      card.setAttribute('data-progress', p.state);
      var badge = card.querySelector('.progress');
      if (!p.text) {
        if (badge) badge.parentNode.removeChild(badge);
        return;
      }
      if (!badge) {
        badge = document.createElement('p');
        badge.className = 'progress';
        var title = card.querySelector('.card-title');
        title.parentNode.insertBefore(badge, title.nextSibling);
      }
      badge.setAttribute('data-state', p.state);
      if (badge.textContent !== p.text) badge.textContent = p.text;
    });
  }

  // ------------------------------------------------------------ the finder

  var form = document.querySelector('.finder');
  var input = form && form.querySelector('#find');
  var show = form && form.querySelector('#show');
  var status = form && form.querySelector('.find-count');

  // lower case, accents off, so 'creme' finds 'Crème' (and Hebrew's points and Arabic's vowel marks and
  // hamza, often left out in typing, so 'اسماء' finds 'أسماء'); the letters no accent comes off spelt as the
  // answers spell them (ß is ss); apostrophes, straight or curly, left out, so 'obrien' finds O'Brien.
  // Only those marks: a Devanagari vowel sign or a Japanese voicing mark makes another word.
  var LETTERS = { 'ß': 'ss', 'æ': 'ae', 'œ': 'oe', 'ø': 'o', 'ł': 'l', 'đ': 'd', 'ð': 'd', 'þ': 'th', 'ħ': 'h', 'ı': 'i' };
  var MARKS = /[\u0300-\u036f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed]/g;
  function fold(text) {
    var s = String(text).toLowerCase().replace(/[ßæœøłđðþħı]/g, function (ch) { return LETTERS[ch]; });
    s = s.normalize ? s.normalize('NFD').replace(MARKS, '') : s;
    return s.replace(/['\u2018\u2019\u02bc`]/g, '');
  }

  // A word is found where a word of the card begins ('art' finds Art Deco, not Martin; 'herb' finds
  // herbs): the card's text and the query word both go to their letters, marks and digits, one space
  // between runs, so '2025-03-17' is found as the date is written. Scripts written without spaces between
  // words (Han, kana, Thai, Lao, Khmer, Myanmar) are found anywhere, and so is a symbol (an emoji).
  // A browser without Unicode property escapes (before Safari 11.1 and Firefox 78) splits at what is
  // not a Latin letter or digit, rather than lose the whole script to a syntax error.
  function pattern(source, flags, fallback) {
    try { return new RegExp(source, flags); } catch (e) { return fallback; }
  }
  var NOT_WORD = pattern('[^\\p{L}\\p{M}\\p{N}]+', 'gu', /[^0-9a-z\u00c0-\uffff]+/g);
  var SYMBOL = pattern('\\p{S}', 'u', /[^\s0-9a-z\u00c0-\u2000]/);
  var UNSPACED = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]/;
  function words(text) { return ' ' + text.replace(NOT_WORD, ' ').trim(); }
  var texts = cards.map(function (card) { return fold(card.getAttribute('data-find') || ''); });
  var haystacks = texts.map(words);
  var tagLists = cards.map(function (card) { return (card.getAttribute('data-tags') || '').split(' '); });
  var allTags = {};
  tagLists.forEach(function (tags) { tags.forEach(function (t) { if (t) allTags[t] = true; }); });

  // a plural finds its singular too ('herbs' finds The Herb Garden, 'cities' a city); the text's own
  // plural is found anyway ('herb' is in 'herbs')
  function forms(word) {
    if (word.length < 4 || !/s$/.test(word) || /ss$/.test(word)) return [word];
    var f = [word, word.slice(0, -1)];
    if (/ies$/.test(word)) f.push(word.slice(0, -3) + 'y');
    else if (/(x|z|ch|sh|ss)es$/.test(word)) f.push(word.slice(0, -2));
    return f;
  }

  // '#food', as the cards show a tag, is that tag (or, while it is being typed, the tags it begins)
  function matches(i, word) {
    if (word.charAt(0) !== '#') {
      return forms(word).some(function (w) {
        var found = words(w);
        // no letter or digit: an emoji is looked for as it is, and punctuation alone ('-') narrows nothing
        if (found === ' ') return SYMBOL.test(w) ? texts[i].indexOf(w) >= 0 : true;
        return haystacks[i].indexOf(UNSPACED.test(w) ? found.slice(1) : found) >= 0;
      });
    }
    var tag = word.replace(/^#+/, '');
    if (!tag) return true;
    return tagLists[i].some(function (t) { return allTags[tag] ? t === tag : t.indexOf(tag) === 0; });
  }
  var years = Array.prototype.slice.call(document.querySelectorAll('section.year'));
  years.forEach(function (section) {  // the heading's count as built, for when no filter is on
    var n = section.querySelector('.year-heading .n');
    if (n) n.setAttribute('data-all', n.textContent);
  });

  function say(el, text) { if (el.textContent !== text) el.textContent = text; }  // a live region: only news

  function applyFilter() {
    if (!form) return;
    var terms = fold(input.value).split(/\s+/).filter(Boolean);
    var filtering = terms.length > 0 || !!show.value;
    var wanted = show.value;
    var shown = 0;
    cards.forEach(function (card, i) {
      var match = terms.every(function (w) { return matches(i, w); }) &&
        (!wanted || card.getAttribute('data-progress') === wanted);
      card.hidden = !match;
      if (match) shown++;
    });
    // a year with no card left to show goes too, heading, count and link in the years bar; one with some
    // says how many of its puzzles show
    years.forEach(function (section) {
      var all = section.querySelectorAll('.card').length;
      var left = section.querySelectorAll('.card:not([hidden])').length;
      section.hidden = !left;
      var n = section.querySelector('.year-heading .n');
      if (n) say(n, filtering && left && left < all ? left + ' of ' + n.getAttribute('data-all') : n.getAttribute('data-all'));
      var heading = section.querySelector('.year-heading');
      var link = heading && heading.id && document.querySelector('.years a[href="#' + heading.id + '"]');
      if (link) link.hidden = !left;
    });
    var bar = document.querySelector('.years');
    if (bar) bar.hidden = !bar.querySelector('a:not([hidden])');  // no "Years:" over nothing
    markYear();  // the year in view may have gone, or come back
    // the live region speaks once typing pauses, not at every letter
    var news = !filtering ? (wasFiltering ? 'Showing all ' + cards.length + ' puzzles.' : '') :
      !shown ? 'No puzzle matches.' : 'Showing ' + shown + ' of ' + cards.length + ' puzzles.';
    wasFiltering = filtering;
    clearTimeout(sayLater);
    sayLater = setTimeout(function () { say(status, news); }, news && status.textContent ? 400 : 0);
    remember();
  }
  var wasFiltering = false, sayLater = null;

  // the search in the page's address (?q=...&show=...), so a reload or a bookmark keeps it
  function remember() {
    if (!window.history || !history.replaceState || !window.URLSearchParams) return;
    var params = new URLSearchParams(location.search);
    if (input.value.trim()) params.set('q', input.value.trim()); else params.delete('q');
    if (show.value) params.set('show', show.value); else params.delete('show');
    var query = params.toString();
    var url = location.pathname + (query ? '?' + query : '') + location.hash;
    if (url !== location.pathname + location.search + location.hash) {
      try { history.replaceState(history.state, '', url); } catch (err) { /* a file:// page may refuse */ }
    }
  }
  function recall() {
    if (!window.URLSearchParams) return;
    var params = new URLSearchParams(location.search);
    if (params.has('q') && !input.value) input.value = params.get('q');
    var wanted = params.get('show');
    if (wanted && !show.value && show.querySelector('option[value="' + wanted.replace(/[^a-z]/g, '') + '"]')) show.value = wanted;
  }

  if (form) {
    form.hidden = false;
    recall();
    if (!storage()) { show.hidden = true; show.value = ''; }  // no saved progress to go by: only the words
    form.addEventListener('submit', function (e) { e.preventDefault(); });  // Enter filters; nothing to send
    input.addEventListener('input', applyFilter);
    show.addEventListener('change', applyFilter);
    input.addEventListener('keydown', function (e) {
      if (e.key === 'Escape' && input.value) { input.value = ''; applyFilter(); }
      // Enter (a phone keyboard's Search) on a touch screen: the keyboard goes down, off the results
      if (e.key === 'Enter' && window.matchMedia && matchMedia('(pointer: coarse)').matches) input.blur();
    });
  }

  function refresh() { showProgress(); applyFilter(); }

  // ------------------------------------------------------------ offline

  // Offline, a card whose page this browser never kept says so, rather than leave the reader to find out
  // by opening it: the worker keeps the pages a reader opened, each under one address (a folder's, for
  // slug/index.html: sw.js's pageKey), and the browser's caches are asked for it (no store is opened, so
  // none is made where there was none)
  function pageKey(href) {
    var url = new URL(href, location.href);
    url.search = '';
    url.hash = '';
    if (/\/index\.html$/.test(url.pathname)) url.pathname = url.pathname.slice(0, -'index.html'.length);
    return url.href;
  }
  var marking = 0;  // an answer to an earlier offline or online event is dropped
  function markKept(unreached) {
    var round = ++marking;
    var offline = navigator.onLine === false || unreached === true;
    var ask = offline && 'caches' in window && navigator.serviceWorker && navigator.serviceWorker.controller;
    cards.forEach(function (card) {
      var link = card.querySelector('.card-title a');
      var kept = ask && link ? caches.match(pageKey(link.href)).catch(function () { return true; }) : Promise.resolve(true);
      kept.then(function (hit) {
        if (round !== marking) return;
        var note = card.querySelector('.offline-note');
        card.classList.toggle('unkept', !hit);
        if (hit && note) note.parentNode.removeChild(note);
        if (!hit && !note) {
          note = document.createElement('p');
          note.className = 'offline-note';
          note.textContent = 'Not kept offline: open it online first';
          var title = card.querySelector('.card-title');
          title.parentNode.insertBefore(note, title.nextSibling);
        }
      });
    });
  }
  // navigator.onLine says only that there is a network, not that the site is in reach (its server down, a
  // hotel's sign-in page, a phone's signal gone but for the bars): the worker then gave this index from its
  // copy. A HEAD request, which the worker lets through to the network, says whether the site answers.
  function probe() {
    markKept();
    if (navigator.onLine === false || !(navigator.serviceWorker && navigator.serviceWorker.controller)) return;
    var round = marking;
    fetch(location.href, { method: 'HEAD', cache: 'no-store' }).catch(function () {
      if (round === marking) markKept(true);
    });
  }
  window.addEventListener('online', probe);
  window.addEventListener('offline', markKept);
  probe();

  // A link in a row that scrolls sideways (a phone's tags or years), out of the row's view, is brought to
  // its middle: by the row's own scroll, never the page's.
  function intoRowView(link) {
    var row = link.parentNode;
    var chip = link.getBoundingClientRect(), box = row.getBoundingClientRect();
    if (chip.left < box.left || chip.right > box.right) row.scrollLeft += chip.left - box.left - (box.width - chip.width) / 2;
  }
  // a tag page on a phone: its tag's chip
  var here = document.querySelector('.tags a[aria-current]');
  if (here) intoRowView(here);

  // The years bar marks the year being read (aria-current="location"), as the page scrolls: the last
  // year shown whose heading is in the top quarter of the window under the bar (where a link in the
  // bar brings it), the last year once the page is scrolled to its end. A year the reader asked for (its
  // link in the bar, or the address's #y2024) is marked while its heading is in the window: on a page too
  // short to bring it up to the bar, the end of the page had marked the last year instead. On a phone the
  // bar scrolls sideways: its mark is kept in the bar's view.
  var yearBar = document.querySelector('nav.years');
  var asked = null;  // the heading's id
  function askedFor() {
    var heading = asked && document.getElementById(asked);
    var section = heading && heading.closest('section.year');
    if (!section || section.hidden) return null;
    var top = heading.getBoundingClientRect().top;
    return top >= Math.max(0, yearBar.getBoundingClientRect().bottom) - 2 && top < window.innerHeight ? section : null;
  }
  function markYear() {
    if (!yearBar) return;
    var shown = years.filter(function (section) { return !section.hidden; });
    var line = Math.max(0, yearBar.getBoundingClientRect().bottom) + window.innerHeight / 4;
    var current = shown[0] || null;
    shown.forEach(function (section) { if (section.getBoundingClientRect().top <= line) current = section; });
    var end = document.documentElement.scrollHeight - window.innerHeight;
    if (shown.length && end > 0 && window.scrollY >= end - 2) current = shown[shown.length - 1];
    current = askedFor() || current;
    if (asked && current && current.getAttribute('aria-labelledby') !== asked) asked = null;  // read on past it
    var id = current && current.getAttribute('aria-labelledby');
    Array.prototype.forEach.call(yearBar.querySelectorAll('a'), function (link) {
      var on = link.getAttribute('href') === '#' + id;
      if (on === link.hasAttribute('aria-current')) return;
      if (!on) { link.removeAttribute('aria-current'); return; }
      link.setAttribute('aria-current', 'location');
      intoRowView(link);
    });
  }
  if (yearBar) {
    var yearFrame = 0;
    window.addEventListener('scroll', function () {
      if (!yearFrame) yearFrame = requestAnimationFrame(function () { yearFrame = 0; markYear(); });
    }, { passive: true });
    window.addEventListener('resize', markYear);
    // the year the address names, if it is one in the bar (compared as text: '#%' or '#a"b' is no selector)
    var fromAddress = function () {
      var hash = location.hash;
      var link = [].filter.call(yearBar.querySelectorAll('a'), function (a) { return a.getAttribute('href') === hash; })[0];
      if (link) { asked = hash.slice(1); markYear(); }
    };
    yearBar.addEventListener('click', function (e) {
      var link = e.target.closest && e.target.closest('a[href^="#"]');
      if (link) asked = link.getAttribute('href').slice(1);  // marked by the scroll it brings (or now, if none)
      requestAnimationFrame(markYear);
    });
    // the reader scrolls on: the page's own rule marks the year again
    var readOn = function () { asked = null; };
    window.addEventListener('wheel', readOn, { passive: true });
    window.addEventListener('touchmove', readOn, { passive: true });
    window.addEventListener('keydown', function (e) {
      if (/^(PageUp|PageDown|Home|End|ArrowUp|ArrowDown| )$/.test(e.key) && !(e.target.closest && e.target.closest('input, select, textarea'))) readOn();
    });
    window.addEventListener('hashchange', fromAddress);
    fromAddress();
    markYear();
  }

  // a puzzle solved in another tab shows here at once; coming back to this page (the back button keeps
  // the page, and the fields, as they were) shows what was done meanwhile
  window.addEventListener('storage', function (e) {
    if (e.key === null || /^crossword-press:/.test(e.key)) refresh();
  });
  window.addEventListener('pageshow', refresh);
  refresh();
})();
