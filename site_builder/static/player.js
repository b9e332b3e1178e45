/*
 * Crossword press: the puzzle player.
 *
 * Enhances the grid and clue lists already in the page (which work without
 * JavaScript) into a solver: selection, typing, keyboard navigation, check
 * and reveal, a pausable timer and progress kept in localStorage. Reads the
 * puzzle from <script type="application/json" id="puzzle-data">, so it works
 * offline and from file://. No dependencies, no build step.
 */
(function () {
  'use strict';

  // Offline: a site served over http(s) keeps the pages a reader opened (public/sw.js, written by the
  // build beside the index); from file:// there is nothing to keep, and no worker
  if ('serviceWorker' in navigator && /^https?:$/.test(location.protocol) && document.currentScript) {
    navigator.serviceWorker.register(new URL('../sw.js', document.currentScript.src).href).catch(function () {});
  }

  var dataEl = document.getElementById('puzzle-data');
  var player = document.getElementById('player');
  if (!dataEl || !player) return;
  var data = JSON.parse(dataEl.textContent);

  // ------------------------------------------------------------ answers

  // Same keystream as site_builder/render/html.py:keystream.
  function keystream(slug, n) {
    var bytes = new TextEncoder().encode('crossword-press/' + slug);
    var h = 0x811c9dc5;
    for (var i = 0; i < bytes.length; i++) {
      h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
    }
    var state = h || 0x9e3779b9;
    var out = new Uint8Array(n);
    for (var j = 0; j < n; j++) {
      state = (state ^ (state << 13)) >>> 0;
      state = (state ^ (state >>> 17)) >>> 0;
      state = (state ^ (state << 5)) >>> 0;
      out[j] = state & 0xff;
    }
    return out;
  }

  function decodeSolution(slug, encoded) {
    var raw = atob(encoded);
    var key = keystream(slug, raw.length);
    var letters = [];
    for (var i = 0; i < raw.length; i++) {
      letters.push(String.fromCharCode(raw.charCodeAt(i) ^ key[i]));
    }
    return letters;
  }

  var solution = decodeSolution(data.slug, data.solution);

  // ------------------------------------------------------------ model

  var grid = document.getElementById('grid');
  var wrap = grid.closest('.grid-wrap');
  var input = document.getElementById('grid-input');
  var toolbar = player.querySelector('.toolbar');
  var clueBar = player.querySelector('.clue-bar');
  var clueBarNum = player.querySelector('.clue-bar-num');
  var clueBarClue = player.querySelector('.clue-bar-clue');
  var timerEl = player.querySelector('.timer');
  var pauseBtn = player.querySelector('[data-action="pause"]');
  var pauseCover = player.querySelector('.pause-cover');
  var hiddenWhilePaused = [grid.closest('.grid-scroll'), player.querySelector('.clue-lists'), player.querySelector('.clue-bar')]
    .filter(Boolean);
  var solvedEl = player.querySelector('.solved');
  var statusEl = player.querySelector('.status');
  var noticesEl = player.querySelector('.notices');
  var announceEl = document.getElementById('announce');

  var cells = [];          // in data.cells order (row by row)
  var cellAt = {};         // "r,c" -> cell
  data.cells.forEach(function (rc, i) {
    var el = document.getElementById('cell-' + rc[0] + '-' + rc[1]);
    var cell = {
      index: i, r: rc[0], c: rc[1], el: el,
      letterEl: el.querySelector('.letter'),
      label: el.getAttribute('aria-label') || '',
      answer: solution[i], letter: '', revealed: false, wrong: false,
      across: null, down: null
    };
    cells.push(cell);
    cellAt[rc[0] + ',' + rc[1]] = cell;
  });

  var entries = data.entries.map(function (e) {
    var entry = {
      id: e.id, number: e.number, dir: e.dir, clue: e.clue, length: e.length,
      li: document.getElementById(e.id), cells: []
    };
    for (var k = 0; k < e.length; k++) {
      var cell = e.dir === 'across' ? cellAt[e.row + ',' + (e.col + k)] : cellAt[(e.row + k) + ',' + e.col];
      cell[e.dir] = entry;
      entry.cells.push(cell);
    }
    return entry;
  });

  var cur = null;          // the selected cell
  var dir = 'across';      // the selected direction
  var solved = false;
  var gaveUp = false;      // the whole puzzle was revealed: not solved by the solver
  var fullNoticeShown = false;

  function dirName(d) { return d === 'across' ? 'Across' : 'Down'; }
  function entryOf(cell, d) { return cell ? cell[d || dir] || cell[other(d || dir)] : null; }
  function other(d) { return d === 'across' ? 'down' : 'across'; }
  function currentEntry() { return cur ? cur[dir] : null; }
  function isComplete(entry) { return entry.cells.every(function (c) { return c.letter; }); }
  function firstEmpty(entry) {
    for (var i = 0; i < entry.cells.length; i++) if (!entry.cells[i].letter) return entry.cells[i];
    return null;
  }

  // ------------------------------------------------------------ timer

  var MAX_ELAPSED = 100 * 3600 * 1000;  // a saved clock past 100 hours is not a real one
  var elapsed = 0;         // ms counted before runningSince
  var runningSince = null;
  var userPaused = false;
  var ticker = null;

  function timeNow() { return elapsed + (runningSince === null ? 0 : Date.now() - runningSince); }

  function formatTime(ms) {
    var s = Math.floor(ms / 1000);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    var mm = h ? String(m).padStart(2, '0') : String(m);
    return (h ? h + ':' : '') + mm + ':' + String(sec).padStart(2, '0');
  }

  function renderTimer() { timerEl.textContent = formatTime(timeNow()); }

  function startTimer() {
    if (solved || userPaused || runningSince !== null || document.hidden) return;
    runningSince = Date.now();
    ticker = setInterval(renderTimer, 500);
  }

  function stopTimer() {
    if (runningSince !== null) {
      elapsed += Date.now() - runningSince;
      runningSince = null;
      dirty = true;
    }
    if (ticker) { clearInterval(ticker); ticker = null; }
    renderTimer();
  }

  function setPaused(paused) {
    if (solved && paused) return;
    userPaused = paused;
    player.classList.toggle('paused', paused);
    pauseCover.hidden = !paused;
    // out of reach while paused: the letters and clues are hidden from sight, and from screen readers
    hiddenWhilePaused.forEach(function (el) { el.inert = paused; if (paused) el.setAttribute('aria-hidden', 'true'); else el.removeAttribute('aria-hidden'); });
    // the tools' menus wait too (Check, Reveal and Clear would act on a grid out of sight): they do not open
    menus.forEach(function (m) {
      if (paused) m.open = false;
      var button = m.querySelector('summary');
      if (paused) button.setAttribute('aria-disabled', 'true'); else button.removeAttribute('aria-disabled');
    });
    pauseBtn.textContent = paused ? 'Resume' : 'Pause';  // its name says what it does: not also a pressed toggle
    if (paused) {
      stopTimer();
      pauseCover.querySelector('button').focus({ preventScroll: true });  // the page stays where it is
    } else {
      startTimer();
      focusGrid();
    }
    save();
  }

  // Going away saves only what this tab changed since it last saved (another
  // tab on the same puzzle may have saved newer progress meanwhile); coming
  // back takes up anything saved that this tab has not seen (a storage event
  // can be missed while a tab is frozen or in the back-forward cache).
  // The clock runs again on coming back only if it ran on going away: a page
  // reloaded with saved progress waits for the solver, tab switches or not.
  var resumeOnShow = false;
  document.addEventListener('visibilitychange', function () {
    if (document.hidden) { resumeOnShow = runningSince !== null; stopTimer(); saveIfDirty(); return; }
    adopt(readSaved());
    if (resumeOnShow) startTimer();
  });
  // A reload (the watcher's live reload after a save, or F5) while solving
  // keeps the solver's place: the grid gets the keyboard back, and the clock runs.
  // (per page, not per version: an answer changed in watch mode gives the page a new storage key)
  var FOCUS_KEY = 'crossword-press:had-focus:' + pagePath(location.pathname);
  function session() {
    try { return window.sessionStorage; } catch (err) { return null; }
  }
  window.addEventListener('pagehide', function () {
    var s = session();
    try { if (s) { if (document.activeElement === input) s.setItem(FOCUS_KEY, '1'); else s.removeItem(FOCUS_KEY); } } catch (err) { /* private mode */ }
    stopTimer(); saveIfDirty();
  });
  window.addEventListener('pageshow', function (e) { if (e.persisted) adopt(readSaved()); });

  // ------------------------------------------------------------ storage

  function storage() {
    try { return window.localStorage; } catch (err) { return null; }
  }

  var dirty = false;       // changed here since this tab last saved or took up another tab's save
  var lastSeen = null;     // the saved state as this tab last wrote or read it

  // Every change the solver makes here is saved straight away (so other tabs
  // hear of it); only the running clock changes between saves.
  function save() {
    var store = storage();
    dirty = false;
    var state = {
      v: 1,
      letters: cells.map(function (c) { return c.letter || '.'; }).join(''),
      revealed: cells.map(function (c) { return c.revealed ? '1' : '0'; }).join(''),
      wrong: cells.map(function (c) { return c.wrong ? '1' : '0'; }).join(''),
      elapsed: timeNow(),
      solved: solved,
      gaveUp: solved && gaveUp,
      cursor: cur ? [cur.r, cur.c, dir] : null,
      page: pagePath(location.pathname)  // whose save: another site's puzzle of the same name shares file://'s storage
    };
    if (!store) {
      unkept(state);
      return;
    }
    var text = JSON.stringify(state);
    try {
      store.setItem(data.storageKey, text);
      lastSeen = text;
      if (othersKept && /[A-Z]/.test(state.letters)) {
        othersKept = false;
        forgetOtherVersions(true);
      }
    } catch (err) {
      // full or disabled: play on. lastSeen stays the last state that was really stored, so coming
      // back to the tab takes up only a save some other tab made, never the older one this tab could
      // not overwrite
      dirty = true;
      unkept(state);
    }
  }

  // A browser that keeps nothing (storage turned off, or full) would lose the solver's letters without a
  // word when they leave: said once a page, as the page opens when a probe write fails (for a puzzle with no
  // save yet), or else at the first letter that could not be kept.
  var UNKEPT = 'This browser is not keeping your progress (its storage is full or turned off): ' +
    'it will be lost when you leave the page.';
  var unkeptSaid = false;
  function unkept(state) {
    if (unkeptSaid || !/[A-Z]/.test(state.letters)) return;
    unkeptSaid = true;
    say(UNKEPT);
  }
  function keepsNothing() {
    var store = storage(), probe = 'crossword-press:probe';
    try {
      store.setItem(probe, '1');
      store.removeItem(probe);
      return false;
    } catch (err) {
      return true;  // no storage (null), or one that refuses even a byte
    }
  }

  function saveIfDirty() { if (dirty) save(); }

  function parseState(raw) {
    if (!raw) return null;
    try {
      var state = JSON.parse(raw);
      if (!state || state.v !== 1 || typeof state.letters !== 'string' || state.letters.length !== cells.length) return null;
      if (!/^[A-Z.]*$/.test(state.letters)) return null;  // a hand-edited or foreign state: not ours to show
      return state;
    } catch (err) {
      return null;
    }
  }

  function readSaved() {
    var store = storage();
    try { return (store && store.getItem(data.storageKey)) || null; } catch (err) { return null; }
  }

  // A puzzle rebuilt with an answer changed or moved gets a new key (render/html.py puzzle_data), and what
  // was saved under the old one does not fit its grid. The saves of this page's other versions (a key of
  // this slug, saved by this very page: every site opened from file:// shares one storage, and another site
  // may have a puzzle of this name) are removed once the solver types in this version: an answer changed
  // and changed back (a typo saved in watch mode) finds its progress still there. Says whether any held
  // letters; `remove`, to remove them.
  // one page, two addresses: the archive links to slug/index.html, the feed to slug/
  function pagePath(path) { return path.replace(/\/index\.html$/, '/'); }

  function noticeSaid() {
    var s = session(), key = 'crossword-press:changed-said:' + data.storageKey;
    try {
      if (!s || s.getItem(key)) return !!s;
      s.setItem(key, '1');
    } catch (err) { /* private mode: said each time */ }
    return false;
  }

  var othersKept = false;  // no letter of this version saved yet: other versions' saves wait for its first
  function forgetOtherVersions(remove) {
    var store = storage();
    var prefix = data.storageKey.slice(0, data.storageKey.lastIndexOf(':') + 1);
    var lost = false;
    try {
      var keys = [];
      for (var i = 0; store && i < store.length; i++) keys.push(store.key(i));
      keys.forEach(function (key) {
        if (key === data.storageKey || key.indexOf(prefix) !== 0 || !/^[0-9a-f]+$/.test(key.slice(prefix.length))) return;
        var old = null;
        try { old = JSON.parse(store.getItem(key)); } catch (err) { /* not a save */ }
        if (!old || typeof old.page !== 'string' || pagePath(old.page) !== pagePath(location.pathname)) return;
        lost = lost || /[A-Z]/.test(old.letters);
        if (remove) store.removeItem(key);
      });
    } catch (err) { /* storage refused: nothing to tidy */ }
    return lost;
  }

  // Letters, marks, clock and solved state from a saved state (this tab's
  // cursor and pause stay as they are).
  function applyState(state) {
    cells.forEach(function (c, i) {
      var ch = state.letters[i];
      c.letter = ch === '.' ? '' : ch;
      c.revealed = !!state.revealed && state.revealed[i] === '1';
      c.wrong = !!state.wrong && state.wrong[i] === '1';
      drawCell(c);
    });
    var clock = Number(state.elapsed);
    elapsed = clock >= 0 && clock <= MAX_ELAPSED ? clock : 0;  // NaN, negative or absurd: not a real clock
    if (runningSince !== null) runningSince = Date.now();
    renderTimer();
    var right = cells.every(function (c) { return c.letter === c.answer; });
    if (state.solved && right) {
      gaveUp = !!state.gaveUp;
      if (!solved) finish(false);
    } else if (solved) {
      unfinish();
    }
    fullNoticeShown = false;
  }

  // Take up progress another tab saved, so that neither tab later writes an
  // older grid back over it.
  function adopt(raw) {
    if (raw === lastSeen) return;
    var state = parseState(raw);
    if (!state) return;
    lastSeen = raw;
    applyState(state);
    dirty = false;
    if (cur) drawSelection();
  }

  window.addEventListener('storage', function (e) {
    if (e.key === data.storageKey) adopt(e.newValue);
  });

  // ------------------------------------------------------------ drawing

  function drawCell(cell) {
    cell.letterEl.textContent = cell.letter;
    cell.el.classList.toggle('wrong', cell.wrong);
    cell.el.classList.toggle('revealed', cell.revealed);
    cell.el.classList.toggle('filled', !!cell.letter);
    cell.el.setAttribute('aria-label', cell.label + '. ' + (cell.letter || 'Blank') +
      (cell.wrong ? ', marked wrong' : '') + (cell.revealed ? ', revealed' : '') + '.');
  }

  var marked = [];         // elements carrying highlight classes
  var currentButton = null; // the selected clue's button, aria-current for screen readers (colour alone says nothing)
  var barEntry = null;      // the clue in the bar, which a tap unfolds when it is clipped
  function clearMarks() {
    marked.forEach(function (el) { el.classList.remove('current', 'in-word', 'cross', 'active', 'crossing', 'cross-current'); });
    marked = [];
    if (currentButton) currentButton.removeAttribute('aria-current');
    currentButton = null;
  }
  function mark(el, cls) { if (el) { el.classList.add(cls); marked.push(el); } }

  var selectedEl = null;
  function drawSelection() {
    clearMarks();
    var entry = currentEntry();
    if (!cur || !entry) return;
    entry.cells.forEach(function (c) {
      mark(c.el, 'in-word');
      var crossing = c[other(dir)];
      if (crossing) mark(crossing.li, 'crossing');
    });
    var cross = cur[other(dir)];
    if (cross) {
      cross.cells.forEach(function (c) { if (c !== cur) mark(c.el, 'cross'); });
      mark(cross.li, 'cross-current');
    }
    mark(cur.el, 'current');
    if (selectedEl !== cur.el) {  // the square the cursor is on, for a screen reader's table reading too
      if (selectedEl) selectedEl.removeAttribute('aria-selected');
      selectedEl = cur.el;
      selectedEl.setAttribute('aria-selected', 'true');
    }
    mark(entry.li, 'active');
    currentButton = entry.li.querySelector('.clue-button');
    if (currentButton) currentButton.setAttribute('aria-current', 'true');

    if (entry !== barEntry) clueBar.classList.remove('open');  // a new clue starts folded
    barEntry = entry;
    clueBarNum.textContent = entry.number + ' ' + dirName(dir);
    // the list's clue, as it is there: its text in a <bdi>, so a right-to-left clue keeps '(5)' at its end
    var listed = entry.li.querySelector('.clue-text');
    if (listed) clueBarClue.replaceChildren.apply(clueBarClue, [].map.call(listed.childNodes, function (n) { return n.cloneNode(true); }));
    else clueBarClue.textContent = entry.clue;

    // the field's name says where the cursor is when the keyboard comes to it; while the keyboard is on it the
    // announcer says each move instead (a screen reader may speak a focused field's new name too: twice)
    if (document.activeElement !== input) input.setAttribute('aria-label', fieldLabel());
    input.style.left = cur.el.offsetLeft + 'px';
    input.style.top = cur.el.offsetTop + 'px';
    input.style.width = cur.el.offsetWidth + 'px';
    input.style.height = cur.el.offsetHeight + 'px';
  }

  // Scroll a clue into view inside its own list (never the page): into the
  // part of the list that is on screen, where the list runs past the window.
  function scrollClueIntoView(li) {
    if (!li) return;
    var list = li.parentElement;
    if (list.scrollHeight <= list.clientHeight + 1) return;
    var box = list.getBoundingClientRect();
    var top = box.top + list.clientTop, bottom = top + list.clientHeight;
    var shownTop = Math.max(top, 0), shownBottom = Math.min(bottom, window.innerHeight);
    if (shownBottom - shownTop < li.offsetHeight * 2) { shownTop = top; shownBottom = bottom; }
    var r = li.getBoundingClientRect();
    var margin = Math.min(8, Math.max(0, (shownBottom - shownTop - r.height) / 2));
    if (r.top < shownTop + margin) list.scrollTop -= shownTop + margin - r.top;
    else if (r.bottom > shownBottom - margin) list.scrollTop += r.bottom - (shownBottom - margin);
  }

  // On a wide screen the clue lists sit beside the grid, together no taller than the window (player.css)
  // once the page is scrolled and they stick to its top. Before that, the page's header pushes them
  // down and the foot of the lower list would be below the window, the selected clue with it: so
  // they are fitted to what is left of the window under them.
  var clueLists = player.querySelector('.clue-lists');
  var fitQueued = false;
  function fitClues() {
    fitQueued = false;
    var list = clueLists.querySelector('ol');
    var was = clueLists.style.maxHeight;
    if (!list || getComputedStyle(list).overflowY !== 'auto') clueLists.style.maxHeight = '';
    else {
      var top = Math.max(clueLists.getBoundingClientRect().top, 16);
      clueLists.style.maxHeight = Math.round(Math.max(window.innerHeight - top - 16, window.innerHeight / 2)) + 'px';
    }
    return clueLists.style.maxHeight !== was;
  }
  // Whether the whole of a clue shows in its list's box (not whether the window shows it).
  function inListView(li) {
    if (!li) return false;
    var box = li.parentElement.getBoundingClientRect(), r = li.getBoundingClientRect();
    return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
  }
  // On scroll, once a frame. A list that gets shorter brings back into its view a selected clue that
  // was in view; a list the solver has scrolled away from the selection (to browse) stays where it is.
  function queueFitClues() {
    if (fitQueued) return;
    fitQueued = true;
    window.requestAnimationFrame(function () {
      var entry = cur && currentEntry(), cross = cur && cur[other(dir)];
      var keep = [entry && entry.li, cross && cross.li].filter(inListView);
      if (fitClues()) keep.forEach(scrollClueIntoView);
    });
  }

  // Cells under 20px are hard to hit with a finger: below that the grid keeps
  // 24px cells and scrolls sideways (see .grid-scrolls in player.css).
  function fitGrid() {
    player.classList.toggle('grid-scrolls', wrap.clientWidth / data.cols < 20);
    markEdges();
  }

  // A grid that scrolls sideways shades the edge it goes on past, so a solver sees there is more of it
  // (a cut square at the edge alone was easy to miss).
  var scroller = grid.closest('.grid-scroll');
  function markEdges() {
    var left = scroller.scrollLeft, room = scroller.scrollWidth - scroller.clientWidth;
    wrap.classList.toggle('more-left', left > 1);
    wrap.classList.toggle('more-right', room - left > 1);
  }
  scroller.addEventListener('scroll', markEdges, { passive: true });

  // A phone's keyboard that lies over the page (iOS Safari; Chrome for Android since 108) shrinks only
  // the visual viewport. scrollIntoView measures against the layout viewport, which goes on under the
  // keyboard: typing down an answer walked the cursor out of sight. The part of the page that shows,
  // in the layout viewport's coordinates (as getBoundingClientRect's); null without visualViewport, or
  // pinch-zoomed, when the solver is steering the view.
  function shownPart() {
    var vv = window.visualViewport;
    if (!vv || Math.abs(vv.scale - 1) > 0.01) return null;
    return { top: vv.offsetTop, bottom: vv.offsetTop + vv.height };
  }
  // The cell (already brought into the layout viewport) into the part that shows, below the clue bar.
  function keepInSight(el) {
    var shown = shownPart();
    // nothing covered (the layout viewport's height less any scrollbar, as visualViewport's is)
    if (!shown || (shown.top <= 0 && shown.bottom >= document.documentElement.clientHeight)) return;
    var sticky = barSticky();
    var top = shown.top + (sticky ? clueBar.offsetHeight : 0) + 4, bottom = shown.bottom - 8;
    var r = el.getBoundingClientRect();
    if (r.bottom > bottom) window.scrollBy(0, Math.min(r.bottom - bottom, r.top - top));
    else if (r.top < top) window.scrollBy(0, r.top - top);
  }
  // whether the clue bar sticks to the top of the screen (on a phone; beside the clue lists it does not)
  function barSticky() { return getComputedStyle(clueBar).position === 'sticky'; }
  // The phone's clue bar, stuck to the top of the screen, grows with its clue (three lines; all of it,
  // unfolded): a square it has grown over comes back into sight below it.
  function clearOfBar(el) {
    if (!barSticky()) return;
    var under = clueBar.getBoundingClientRect().bottom + 4 - el.getBoundingClientRect().top;
    if (under > 0) window.scrollBy(0, -under);
  }
  // The phone's clue bar sticks to the top of the layout viewport; where the keyboard has pushed the
  // part that shows down from there (iOS does), it sticks to the top of that part instead.
  function stickBar() {
    var shown = shownPart();
    player.style.setProperty('--shown-top', (shown ? Math.max(0, Math.round(shown.top)) : 0) + 'px');
  }

  // Bring the current cell on screen (when the grid has the keyboard), then
  // its clues within their lists.
  // A square picked by the pointer is where the solver is looking: moving the page or the grid
  // under the pointer would put another square there, so a second click on the same spot would
  // select it instead of turning the direction.
  var pointing = false;
  function showSelection(scrollToCell) {
    if (!cur) return;
    var entry = currentEntry(), cross = cur[other(dir)];
    if (scrollToCell && !pointing) {
      // the cells' top scroll margin clears the clue bar, which sticks to the top on phones and
      // grows with a long clue: measure it now, as it is
      var sticky = barSticky();
      player.style.setProperty('--bar-room', sticky ? (clueBar.offsetHeight + 8) + 'px' : '0px');
      // as much of the answer as fits, from the cursor on: its end first, then the cursor. Across in a grid
      // that scrolls sideways (a clue picked near the right edge showed its first two squares), and any
      // answer picked as a clue (a Down one from the list showed its first square at the window's foot)
      if (wholeWord || (dir === 'across' && player.classList.contains('grid-scrolls'))) {
        entry.cells[entry.cells.length - 1].el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      }
      cur.el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      keepInSight(cur.el);
    }
    if (cross) scrollClueIntoView(cross.li);
    if (entry) scrollClueIntoView(entry.li);
  }

  // What a tool or a full grid has to say. It waits at the window's foot (see player.css) until the solver's
  // next keystroke or tap clears it, and the page moves so that it never covers the square being filled.
  function say(text) {
    statusEl.textContent = text;
    pinNotices();
    keepClear();
  }
  // the notices' box sticks to the window's foot while it holds something: a message, or "Solved!" just now
  function pinNotices() {
    noticesEl.classList.toggle('stuck', !!statusEl.textContent || solvedEl.classList.contains('pinned'));
  }
  // the answer being filled (as much of it as fits below the clue bar, the cursor's square always) above it
  function keepClear() {
    if (!cur || !statusEl.textContent) return;
    var entry = currentEntry();
    uncover(noticesEl, entry ? entry.cells[entry.cells.length - 1].el : cur.el);
  }

  // A message stuck to the window's foot (`note`) sits over what runs below it: the page moves up until `el`
  // (the grid, or the square being filled) clears it, as far as it can without the current square going out
  // of sight at the top (under the clue bar, which sticks there).
  function uncover(note, el) {
    if (!cur || getComputedStyle(note).position !== 'sticky') return;
    var under = el.getBoundingClientRect().bottom + 8 - note.getBoundingClientRect().top;
    if (under <= 0) return;
    // the clue bar's foot once the page has moved: where it sticks (on a phone), else where it is now
    var bar = clueBar.getBoundingClientRect(), top = 0;
    if (!clueBar.hidden && bar.height) {
      top = barSticky()
        ? Math.max(bar.bottom, (parseFloat(player.style.getPropertyValue('--shown-top')) || 0) + clueBar.offsetHeight)
        : Math.max(0, bar.bottom);
    }
    var room = cur.el.getBoundingClientRect().top - top - 8;
    if (room > 0) window.scrollBy(0, Math.min(under, room));
  }

  var lastAnnounced = null; // the answer the solver last heard named, by the announcer or the field's name
  var announceDue = false;
  var newsHeld = false; // 'Solved!' was just said: the rest of that keystroke or paste says nothing over it
  function select(cell, wantDir) {
    if (!cell) return;
    var d = wantDir || dir;
    if (!cell[d]) d = other(d);
    cur = cell;
    dir = d;
    if (document.activeElement === input) announceMove();
    else lastAnnounced = currentEntry();
    drawSelection();
    showSelection(document.activeElement === input);
  }

  // With the keyboard on the grid, the announcer says where each move put the cursor ('Letter 2 of 7, blank'),
  // after the clue when the answer is new. Said once the keystroke or click has done all it does (typed a
  // letter and moved on, pasted a word), so once a move, and of the letters as they are then.
  function announceMove() {
    if (announceDue || newsHeld) return;
    announceDue = true;
    queueMicrotask(function () {
      if (!announceDue) return;  // solving had the last word
      announceDue = false;
      var entry = currentEntry();
      announceEl.textContent = (entry === lastAnnounced ? '' : clueName(entry) + '. ') + position();
      lastAnnounced = entry;
    });
  }

  // a clue picked from the list, by Tab or by the clue bar's arrows shows as much of its answer as fits (see
  // showSelection), down ones too
  var wholeWord = false;
  function selectEntry(entry, focus) {
    wholeWord = true;
    try {
      select(firstEmpty(entry) || entry.cells[0], entry.dir);
      if (focus) focusGrid();
    } finally {
      wholeWord = false;
    }
    save();
  }

  function focusGrid() {
    if (!cur) select(entries[0].cells[0], entries[0].dir);
    if (document.activeElement !== input) input.focus({ preventScroll: true });
    showSelection(true);
  }

  // ------------------------------------------------------------ editing

  function setLetter(cell, letter) {
    if (cell.letter === letter) return;
    cell.letter = letter;
    cell.wrong = false;
    drawCell(cell);
  }

  function locked(cell) { return solved || cell.revealed; }

  // A keystroke clears the status line; in a finished grid, which takes no letters until it is
  // cleared, it says why (as Clear, Word does there).
  function keyStatus() { say(solved ? finishedNotice() : ''); }
  function finishedNotice() {
    return 'The puzzle is ' + (givenUp() ? 'revealed' : 'solved') + ': Clear, then Puzzle, starts it again.';
  }

  function typeLetter(letter) {
    if (!cur || userPaused) return;
    keyStatus();
    if (solved) return;  // a finished grid takes no letter (keyStatus says why), and the cursor stays put
    startTimer(); // typing is solving: the clock runs (after another tab cleared a solved puzzle, say)
    if (!locked(cur)) setLetter(cur, letter);
    advance();
    afterChange();
  }

  function advance() {
    var entry = currentEntry();
    var i = entry.cells.indexOf(cur);
    if (i < entry.cells.length - 1) { select(entry.cells[i + 1], dir); return; }
    var empty = firstEmpty(entry);
    if (empty) { select(empty, dir); return; }
    var start = entries.indexOf(entry);
    for (var k = 1; k < entries.length; k++) {
      var next = entries[(start + k) % entries.length];
      if (!isComplete(next)) { select(firstEmpty(next), next.dir); return; }
    }
    drawSelection();
  }

  // Backspace clears the current cell, or (when it is empty) steps back and
  // clears that one: from the first cell of an answer, to the last cell of
  // the answer before it in clue order (as Shift-Tab goes).
  function backspace() {
    if (!cur || userPaused) return;
    keyStatus();
    if (solved) return;  // as typing: a finished grid erases nothing (keyStatus says why), and the cursor stays put
    var entry = currentEntry();
    if (cur.letter && !locked(cur)) {
      setLetter(cur, '');
      erased();
    } else {
      var i = entry.cells.indexOf(cur);
      if (i > 0) {
        select(entry.cells[i - 1], dir);
      } else {
        // back into the previous answer, as Shift-Tab goes; the first answer has none before it
        // (wrapping round would erase a letter of the last answer, out of sight)
        var k = entries.indexOf(entry);
        if (k === 0) {
          drawSelection();
          return;
        }
        var prev = entries[k - 1];
        select(prev.cells[prev.cells.length - 1], prev.dir);
      }
      if (!locked(cur)) setLetter(cur, '');
    }
    drawSelection();
    afterChange();
  }

  function deleteLetter() {
    if (!cur || userPaused) return;
    keyStatus();
    if (cur.letter && !locked(cur)) {
      setLetter(cur, '');
      erased();
    }
    drawSelection();
    afterChange();
  }

  // A letter erased where the cursor stays: no move says so, so the announcer does ('Letter 2 of 4, blank').
  function erased() {
    if (document.activeElement === input) announceMove();
  }

  var batching = false;  // a paste of many letters: one save at its end, not one a letter
  function afterChange() {
    checkSolved();
    if (batching) { dirty = true; return; }
    save();
  }

  function checkSolved() {
    if (solved) return;
    var full = cells.every(function (c) { return c.letter; });
    if (!full) { fullNoticeShown = false; return; }
    var right = cells.every(function (c) { return c.letter === c.answer; });
    if (right) {
      finish(true);
    } else if (!fullNoticeShown || !statusEl.textContent) {
      // shown again after a keystroke cleared it: the grid is still full, and still not right
      fullNoticeShown = true;
      say('Every square is filled, but something is not right yet. Check can show where.');
    }
  }

  // announce: solved just now, in this tab (rather than found solved on load
  // or in another tab's save).
  function finish(announce) {
    solved = true;
    stopTimer();
    player.classList.add('is-solved');
    pauseBtn.disabled = true;
    var revealed = cells.filter(function (c) { return c.revealed; }).length;
    var headline, detail;
    if (givenUp()) {
      headline = 'Puzzle revealed.';
      detail = '';
    } else {
      headline = 'Solved!';
      detail = 'Your time: ' + formatTime(elapsed) +
        (revealed ? ' (' + revealed + (revealed === 1 ? ' letter' : ' letters') + ' revealed)' : '') + '.';
    }
    solvedEl.textContent = '';
    var strong = document.createElement('strong');
    strong.textContent = headline;
    solvedEl.appendChild(strong);
    if (detail) solvedEl.appendChild(document.createTextNode(' ' + detail));
    solvedEl.hidden = false;
    if (announce) {
      // the .solved box was hidden until now, and a live region that appears is not read out: the
      // screen-reader-only announcer (always there) says it
      say('');
      announceDue = false;
      newsHeld = true;
      announceEl.textContent = headline + (detail ? ' ' + detail : '');
      // keep the news in sight below a grid taller than the window
      solvedEl.classList.add('pinned');
      pinNotices();
      uncover(noticesEl, wrap);
      save();
    }
  }

  // Finished by Reveal, Puzzle (or every letter revealed), not by the solver.
  function givenUp() { return gaveUp || cells.every(function (c) { return c.revealed; }); }

  function unfinish() {
    solved = false;
    gaveUp = false;
    player.classList.remove('is-solved');
    pauseBtn.disabled = false;
    solvedEl.hidden = true;
    solvedEl.classList.remove('pinned');
    solvedEl.textContent = '';
    pinNotices();
  }

  // ------------------------------------------------------------ navigation

  function arrow(dr, dc) {
    if (!cur) return;
    var want = dr === 0 ? 'across' : 'down';
    if (dir !== want && cur[want]) { select(cur, want); save(); return; }
    var r = cur.r + dr, c = cur.c + dc;
    while (r >= 0 && r < data.rows && c >= 0 && c < data.cols) {
      var cell = cellAt[r + ',' + c];
      if (cell) {
        select(cell, want);
        save();
        return;
      }
      r += dr; c += dc;
    }
  }

  function clueName(entry) { return entry.number + ' ' + dirName(entry.dir) + ': ' + entry.clue; }
  function fieldLabel() { return clueName(currentEntry()) + '. ' + position() + '.'; }

  // 'Letter 2 of 7, blank': the cursor's place in its answer, for the field's name and the announcer
  function position() {
    var entry = currentEntry();
    return 'Letter ' + (entry.cells.indexOf(cur) + 1) + ' of ' + entry.length +
      (cur.letter ? ', ' + cur.letter : ', blank') + (cur.wrong ? ', marked wrong' : '') + (cur.revealed ? ', revealed' : '');
  }

  function toggleDir() {
    if (cur && cur[other(dir)]) { select(cur, other(dir)); save(); }
  }

  // Move to the next (step 1) or previous (step -1) clue. Returns false at
  // either end when wrap is off, so Tab can leave the grid there.
  function moveClue(step, wrap) {
    var entry = currentEntry();
    var i = entry ? entries.indexOf(entry) + step : 0;
    if (i < 0 || i >= entries.length) {
      if (!wrap) return false;
      i = (i + entries.length) % entries.length;
    }
    selectEntry(entries[i], false);
    return true;
  }

  // Escape: out of the grid in one key (Tab goes from clue to clue), to the current clue in the list,
  // where Enter comes back. An open menu is only closed (a menu with the keyboard closes itself).
  function leaveGrid() {
    var open = menus.filter(function (m) { return m.open; });
    if (open.length) { open.forEach(function (m) { m.open = false; }); return; }
    var button = currentEntry() && currentEntry().li.querySelector('.clue-button');
    if (button) { leftAt = cur; button.focus(); }
  }
  var leftAt = null; // the square Escape left the grid from: its clue's button brings the keyboard back there

  function wordEnd(last) {
    var entry = currentEntry();
    if (entry) { select(entry.cells[last ? entry.cells.length - 1 : 0], dir); save(); }
  }

  var MOVES = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', ' ', 'Enter', 'Home', 'End', 'Tab', 'Escape'];
  input.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (userPaused || composing || e.isComposing || e.keyCode === 229) return;
    var key = e.key;
    if (MOVES.indexOf(key) >= 0) say('');  // a move is the solver's next keystroke: the message has been seen
    if (key.length === 1 && /[a-z]/i.test(key)) {
      e.preventDefault();
      typeLetter(key.toUpperCase());
      return;
    }
    switch (key) {
      case 'Backspace': e.preventDefault(); backspace(); break;
      case 'Delete': e.preventDefault(); deleteLetter(); break;
      case 'ArrowLeft': e.preventDefault(); arrow(0, -1); break;
      case 'ArrowRight': e.preventDefault(); arrow(0, 1); break;
      case 'ArrowUp': e.preventDefault(); arrow(-1, 0); break;
      case 'ArrowDown': e.preventDefault(); arrow(1, 0); break;
      case ' ': case 'Enter': e.preventDefault(); toggleDir(); break;
      case 'Home': e.preventDefault(); wordEnd(false); break;
      case 'End': e.preventDefault(); wordEnd(true); break;
      case 'Tab':
        if (moveClue(e.shiftKey ? -1 : 1, false)) e.preventDefault();
        break;
      case 'Escape': e.preventDefault(); leaveGrid(); break;
      default:
        break;
    }
  });

  // Phone keyboards often send letters as text input rather than key events,
  // and many compose a word in the field ("p", "pa", "par"), correcting it as
  // they go. The field is left alone while they compose: only what changed
  // since the last input event counts, and a letter the keyboard takes back
  // is undone in the grid. Outside a composition the field is emptied after
  // each input.
  var composing = false;
  var fieldText = '';      // the field's letters as last seen
  var composed = [];       // what each letter of fieldText changed: {cell, dir, letter, wrong}

  // Typed or pasted text as the grid spells it, folded a character at a time as the build folds an
  // answer (site_builder/source.py, fold_letter): accents dropped (é: E), and the letters with a
  // spelling of their own in A to Z (ß: SS, Ø: O, Æ: AE) taken from FOLDS, the build's _SPECIAL_FOLDS
  // (escaped; a test holds the two equal). Anything else (a digit, a space, another script) is dropped.
  var FOLDS = {
    '\u00df': 'SS', '\u1e9e': 'SS', '\u00c6': 'AE', '\u0152': 'OE', '\u00d8': 'O', '\u00d0': 'D',
    '\u00de': 'TH', '\u0141': 'L', '\u0110': 'D', '\u0131': 'I', '\u0126': 'H', '\u0166': 'T', '\u014a': 'NG',
    '\u018f': 'E', '\u0190': 'E', '\u0138': 'K', '\u0191': 'F', '\u0197': 'I', '\u0244': 'U', '\u01b5': 'Z',
    '\u013f': 'L', '\u0189': 'D', '\u0186': 'O'
  };
  function lettersOf(text) {
    var out = '';
    for (var ch of text) {
      var up = ch.toUpperCase();
      out += Object.prototype.hasOwnProperty.call(FOLDS, up) ? FOLDS[up] : up.normalize('NFKD').replace(/[^A-Z]/g, '');
    }
    return out;
  }

  function takeField() {
    var now = lettersOf(input.value);
    if (userPaused) { fieldText = now; return; }
    var k = 0;
    while (k < fieldText.length && k < now.length && fieldText[k] === now[k]) k++;
    batching = true;
    try {
      for (var i = fieldText.length; i > k; i--) untype();
      // Letters that come in one go (a paste, a keyboard's suggestion of two words) fill the answer they
      // start in and stop at its end: 'basil leaves' in a five-letter answer wrote LEAVES over the next
      // one. The rest is dropped, but still has its place in `composed`, so that a keyboard taking those
      // letters back undoes nothing. Letters that only re-type what the keyboard took back (a correction
      // of a word typed on into the next answer) go where those went: the stop is for new letters.
      var grow = Math.max(k, fieldText.length), end = null, full = false;
      for (var j = k; j < now.length; j++) {
        if (!cur) break;
        if (full) { composed.push(null); continue; }
        if (j === grow && now.length - grow > 1) end = currentEntry().cells[currentEntry().cells.length - 1];
        full = end !== null && cur === end;
        composed.push({ cell: cur, dir: dir, letter: cur.letter, wrong: cur.wrong });
        typeLetter(now[j]);
      }
    } finally {
      batching = false;
    }
    fieldText = now;
    saveIfDirty();
  }

  function untype() {
    if (!composed.length) { backspace(); return; }
    var was = composed.pop();
    if (!was) return;  // a letter dropped at the end of an answer: nothing went in to take back
    keyStatus();
    select(was.cell, was.dir);
    if (!locked(was.cell)) {
      setLetter(was.cell, was.letter);
      was.cell.wrong = was.wrong;
      drawCell(was.cell);
    }
    drawSelection();
    afterChange();
  }

  function emptyField() {
    input.value = '';
    fieldText = '';
    composed = [];
  }

  // The keyboard's word ends where the solver leaves it: a tap on a clue or on the bar's arrows, which keep
  // the keyboard up, as on another square (the grid's click ends it so too). Otherwise its next delete took
  // back a letter it typed in the answer left behind, and brought the cursor back there.
  function endWord() {
    if (document.activeElement !== input || !(composing || composed.length)) return;
    var wasUp = keysUp;
    input.blur();  // which takes what the keyboard has typed and empties the field
    input.focus({ preventScroll: true });
    if (wasUp) keysUp = true;
  }

  input.addEventListener('compositionstart', function () { composing = true; });
  input.addEventListener('compositionend', function () {
    composing = false;
    takeField();
    emptyField();
  });
  // Backspace with nothing in the field: many phone keyboards send no key
  // event for it, only this.
  input.addEventListener('beforeinput', function (e) {
    if (composing || e.isComposing || input.value) return;
    if (e.inputType === 'deleteContentBackward' || e.inputType === 'deleteContentForward') {
      e.preventDefault();
      if (userPaused) return;
      if (e.inputType === 'deleteContentBackward') backspace(); else deleteLetter();
    }
  });
  input.addEventListener('input', function (e) {
    takeField();
    if (!composing && !e.isComposing) emptyField();
  });

  input.addEventListener('focus', function () {
    if (!cur) select(entries[0].cells[0], entries[0].dir);
    leftAt = null;  // back in the grid, however: the square Escape left is no longer where the clue returns to
    wrap.classList.add('focused');
    startTimer();
  });
  input.addEventListener('blur', function () {
    wrap.classList.remove('focused');
    if (cur) input.setAttribute('aria-label', fieldLabel());
    if (composing) { composing = false; takeField(); }
    emptyField();
    keysUp = keysHidden = false;  // a phone's keyboard goes down with the focus
  });

  grid.addEventListener('click', function (e) {
    var el = e.target.closest('.cell');
    if (!el || userPaused) return;
    say('');
    var cell = cellAt[el.dataset.r + ',' + el.dataset.c];
    var top = el.getBoundingClientRect().top;
    var had = document.activeElement === input, touch = tapType === 'touch';
    tapType = '';
    // A finger's tap brings a phone's keyboard back. Android's Back hides it and leaves the field
    // focused, where focus() asks for nothing: so the field is blurred and focused again, unless the
    // keyboard is known to be up (it would go down and up). Mid-composition too: the keyboard's word
    // ends where it was typed, and its next delete is not taken to the letters it typed there.
    var refocus = touch && had && (!keysUp || composing);
    // a tap that brings the keyboard back is not the second tap on the square, which turns the direction
    var turn = cell === cur && had && !(touch && keysHidden);
    pointing = true;
    var wasUp = keysUp;
    try {
      if (refocus) input.blur();  // which forgets the keyboard: one up before it stays up
      if (turn) toggleDir();
      else select(cell, dir);
      focusGrid();
      if (refocus && wasUp) keysUp = true;
    } finally {
      pointing = false;
    }
    // a clue of three lines in the bar above the grid moves it: scroll it back under the pointer
    var moved = el.getBoundingClientRect().top - top;
    if (moved) window.scrollBy(0, moved);
    // unless the bar, stuck to the top of a phone's screen, has grown over the square: then in sight first
    clearOfBar(el);
    save();
  });
  // Keep focus in the input when a cell is pressed (no flicker of the focus ring).
  grid.addEventListener('mousedown', function (e) { if (e.target.closest('.cell')) e.preventDefault(); });
  var tapType = '';        // the pointer that pressed a square: 'touch' for a finger
  grid.addEventListener('pointerdown', function (e) { tapType = e.pointerType; });

  // Each clue becomes a button (the plain list stays as it is without JavaScript).
  entries.forEach(function (entry) {
    var li = entry.li;
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'clue-button';
    button.setAttribute('aria-controls', 'grid');
    while (li.firstChild) button.appendChild(li.firstChild);
    li.appendChild(button);
    // solving on the grid, a clue pressed keeps the keyboard there (on a phone, the on-screen keyboard
    // stays up rather than dropping and coming back); the click selects the clue as ever
    button.addEventListener('mousedown', function (e) { if (document.activeElement === input) e.preventDefault(); });
    // Escape again, from the clue Escape left the grid for: on to the tools above the grid, the selection
    // kept, so Check, Word checks the answer the solver was in (Shift-Tab from the grid selects each clue
    // on the way); any tool brings the keyboard back to the grid
    button.addEventListener('keydown', function (e) {
      if (e.key !== 'Escape' || userPaused || e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      var first = toolbar.querySelector('summary');
      if (first) first.focus();
    });
    li.addEventListener('click', function () {
      if (userPaused) return;
      say('');
      endWord();
      var back = leftAt && entry === currentEntry() && entry.cells.indexOf(leftAt) >= 0 ? leftAt : null;
      leftAt = null;
      if (back) { select(back, entry.dir); focusGrid(); } else selectEntry(entry, true);
    });
  });

  // the solver's next keystroke, tap or input is news again (listening first, before the grid acts on it)
  ['keydown', 'pointerdown', 'beforeinput'].forEach(function (type) {
    player.addEventListener(type, function () { newsHeld = false; }, true);
  });

  var skip = document.querySelector('.skip-link');
  if (skip) skip.addEventListener('click', function (e) { e.preventDefault(); focusGrid(); });

  // ------------------------------------------------------------ check, reveal, clear

  function scopeCells(scope) {
    if (scope === 'puzzle') return cells;
    if (!cur) select(entries[0].cells[0], entries[0].dir);
    if (scope === 'word') return currentEntry().cells;
    return [cur];
  }

  function check(scope) {
    var wrongCount = 0, filled = 0;
    scopeCells(scope).forEach(function (c) {
      if (!c.letter) return;
      filled++;
      if (c.letter !== c.answer) { c.wrong = true; wrongCount++; drawCell(c); }
    });
    if (scope === 'letter') {
      if (!filled) say('Nothing to check in this square yet.');
      else if (wrongCount) say('That letter is wrong, and marked.');
      else say('That letter is right.');
    } else {
      var where = scope === 'puzzle' ? 'the puzzle' : 'this word';
      if (!filled) say('Nothing to check in ' + where + ' yet.');
      else if (wrongCount) say(wrongCount + (wrongCount === 1 ? ' wrong letter' : ' wrong letters') + ' marked in ' + where + '.');
      else say('No mistakes in ' + where + ' so far.');
    }
    drawSelection();
    save();
  }

  function reveal(scope) {
    if (scope === 'puzzle' && !window.confirm('Reveal the whole puzzle?')) return;
    if (scope === 'puzzle' && !solved) gaveUp = true;
    var count = 0;
    scopeCells(scope).forEach(function (c) {
      if (c.letter !== c.answer) {
        c.letter = c.answer;
        c.revealed = true;
        count++;
      }
      c.wrong = false;
      drawCell(c);
    });
    if (scope === 'letter') say(count ? 'Letter revealed.' : 'That letter was already right.');
    else say(count ? count + (count === 1 ? ' letter' : ' letters') + ' revealed.' : 'Those letters were already right.');
    drawSelection();
    afterChange();
  }

  function clear(scope) {
    if (scope === 'puzzle') {
      if (!window.confirm('Clear the whole puzzle and reset the timer?')) return;
      cells.forEach(function (c) { c.letter = ''; c.wrong = false; c.revealed = false; drawCell(c); });
      unfinish();
      stopTimer();
      elapsed = 0;
      renderTimer();
      say('Puzzle cleared.');
    } else {
      if (solved) {
        say(finishedNotice());
        return;
      }
      var cleared = 0, kept = 0;
      scopeCells(scope).forEach(function (c) {
        if (c.revealed) { kept++; return; }
        if (c.letter) cleared++;
        c.letter = ''; c.wrong = false; drawCell(c);
      });
      if (cleared) say('Word cleared' + (kept ? '; revealed letters stay.' : '.'));
      else say(kept ? 'Revealed letters stay.' : 'Nothing to clear in this word.');
    }
    drawSelection();
    save();
  }

  var actions = {
    'pause': function () { say(''); setPaused(!userPaused); },
    'resume': function () { say(''); setPaused(false); },
    'check-letter': function () { check('letter'); },
    'check-word': function () { check('word'); },
    'check-puzzle': function () { check('puzzle'); },
    'reveal-letter': function () { reveal('letter'); },
    'reveal-word': function () { reveal('word'); },
    'reveal-puzzle': function () { reveal('puzzle'); },
    'clear-word': function () { clear('word'); },
    'clear-puzzle': function () { clear('puzzle'); },
    'prev-clue': function () { say(''); endWord(); moveClue(-1, true); },  // a move, as Tab is: the message has been seen
    'next-clue': function () { say(''); endWord(); moveClue(1, true); }
  };

  player.addEventListener('click', function (e) {
    var button = e.target.closest('button[data-action]');
    if (!button || button.disabled) return;
    var menu = button.closest('details');
    if (menu) menu.open = false;
    var action = button.dataset.action;
    if (userPaused && action !== 'pause' && action !== 'resume') return;
    actions[action]();
    // back to the grid after any tool, done or cancelled, so typing goes on
    // (pausing leaves the keyboard on Resume)
    if (!userPaused) {
      focusGrid();
      keepClear();  // after the grid's own scroll to the cursor, which may put it at the window's foot
    }
  });

  // A menu opens under its button, leftwards from its right edge; on a narrow screen at 200% text a
  // button near the left edge had its menu run off the screen that way: then it is moved back onto it.
  function fitMenu(menu) {
    var items = menu.querySelector('.menu-items');
    items.style.right = '';
    var r = items.getBoundingClientRect(), edge = 8;
    var shift = r.left < edge ? edge - r.left : r.right > window.innerWidth - edge ? window.innerWidth - edge - r.right : 0;
    if (shift) items.style.right = -shift + 'px';
  }

  // Menus: one open at a time; Escape or a click elsewhere closes them.
  var menus = Array.prototype.slice.call(player.querySelectorAll('details.menu'));
  menus.forEach(function (menu) {
    menu.querySelector('summary').addEventListener('click', function (e) { if (userPaused) e.preventDefault(); });
    menu.addEventListener('toggle', function () {
      if (menu.open) menus.forEach(function (m) { if (m !== menu) m.open = false; });
      if (menu.open) fitMenu(menu);
    });
    menu.addEventListener('keydown', function (e) {
      if (e.key === 'Escape' && menu.open) {
        menu.open = false;
        menu.querySelector('summary').focus();
        return;
      }
      // up and down move between the menu's items, as in any menu
      if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && menu.open) {
        var items = Array.prototype.slice.call(menu.querySelectorAll('.menu-items button:not([disabled])'));
        if (!items.length) return;
        e.preventDefault();
        var at = items.indexOf(document.activeElement);
        var next = at < 0 ? (e.key === 'ArrowDown' ? 0 : items.length - 1)
          : (at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
        items[next].focus();
      }
    });
    // Tab out of an open menu closes it (left open, it covered the buttons focus went on to)
    menu.addEventListener('focusout', function (e) {
      if (menu.open && e.relatedTarget && !menu.contains(e.relatedTarget)) menu.open = false;
    });
  });
  document.addEventListener('click', function (e) {
    menus.forEach(function (m) { if (m.open && !m.contains(e.target)) m.open = false; });
  });

  // ------------------------------------------------------------ start

  lastSeen = readSaved();
  var saved = parseState(lastSeen);
  othersKept = !(saved && /[A-Z]/.test(saved.letters));  // a save of this version with no letter (a move) is no start
  // said once a tab: a reload (watch mode's, after every save) before the solver types says nothing again
  var changed = !lastSeen && forgetOtherVersions(false) && !noticeSaid();
  if (saved) applyState(saved);
  else cells.forEach(drawCell);

  toolbar.hidden = false;
  clueBar.hidden = false;
  input.hidden = false;
  player.querySelector('.hint').hidden = false;
  player.classList.add('enhanced');
  fitGrid();
  fitClues();
  renderTimer();
  window.addEventListener('scroll', queueFitClues, { passive: true });
  // a long clue in the phone's sticky bar shows three lines; a tap shows it whole, another folds it
  var barText = clueBar.querySelector('.clue-bar-text');
  // as on the grid, pressing it must not take the keyboard from the grid (a phone's would close)
  var barHadKeys = false;
  barText.addEventListener('pointerdown', function () { barHadKeys = document.activeElement === input; });
  barText.addEventListener('mousedown', function (e) { e.preventDefault(); });
  barText.addEventListener('click', function () {
    say('');  // a tap, as on the grid: the message has been seen
    // unfolded, the bar grows down over the page: the square being filled, in sight under it before, stays so
    var r = cur && cur.el.getBoundingClientRect(), bottom = clueBar.getBoundingClientRect().bottom;
    var inSight = r && r.top >= bottom && r.bottom <= window.innerHeight;
    clueBar.classList.toggle('open');
    if (inSight && clueBar.classList.contains('open')) clearOfBar(cur.el);
    if (barHadKeys && document.activeElement !== input) input.focus({ preventScroll: true });
    barHadKeys = false;
  });
  // nor must the bar's arrows: a phone's keyboard went down and up again on every step from clue to clue
  // (the click gives the grid the keyboard anyway; Tab and Enter still reach them)
  Array.prototype.forEach.call(clueBar.querySelectorAll('.clue-step'), function (step) {
    step.addEventListener('mousedown', function (e) { e.preventDefault(); });
  });

  var start = saved && saved.cursor && cellAt[saved.cursor[0] + ',' + saved.cursor[1]];
  if (start) select(start, saved.cursor[2] === 'down' ? 'down' : 'across');
  else select(entries[0].cells[0], entries[0].dir);
  // said as the page opens: where it is, without moving the page (`say` would, to uncover the cursor)
  if (changed) {
    statusEl.textContent = 'This puzzle was changed since you last played it, so it starts afresh.';
    pinNotices();
  } else if (!lastSeen && keepsNothing()) {  // with a save, a full storage may still take this puzzle's next
    unkeptSaid = true;
    statusEl.textContent = UNKEPT;
    pinNotices();
  }

  // A phone turned sideways (a new width): the grid's sideways scroll must find the cursor again. A new
  // height alone is a phone's address bar coming and going as the solver scrolls down to the clues:
  // the page stays where they scrolled it.
  var lastWidth = window.innerWidth;
  window.addEventListener('resize', function () {
    var turned = window.innerWidth !== lastWidth;
    lastWidth = window.innerWidth;
    fitGrid();
    fitClues();
    drawSelection();
    showSelection(turned && document.activeElement === input);
    viewportChanged();
  });

  // The keyboard coming up and going down. A keyboard over the page says so only by visualViewport's
  // resize; one that resizes the page (Chrome with interactive-widget=resizes-content) by the window's.
  // A change in height of more than a phone's address bar at the same width is taken for the keyboard.
  var KEYBOARD = 120;
  var shownHeight = visibleHeight(), shownWidth = window.innerWidth;
  var keysUp = false;      // the keyboard came up while the grid had the focus
  var keysHidden = false;  // and went down again while it still had it (Android's Back)
  function visibleHeight() {
    var vv = window.visualViewport;
    return vv ? Math.min(window.innerHeight, vv.height * vv.scale) : window.innerHeight;
  }
  function viewportChanged() {
    stickBar();
    var h = visibleHeight(), change = h - shownHeight, sameWidth = window.innerWidth === shownWidth;
    shownHeight = h;
    shownWidth = window.innerWidth;
    if (!sameWidth) keysUp = keysHidden = false;  // turned sideways: whether the keyboard is up is not known
    if (!sameWidth || Math.abs(change) < KEYBOARD || document.activeElement !== input || !cur) return;
    keysUp = change < 0;
    keysHidden = !keysUp;
    // up: the browser brings the field into sight, but not always below the clue bar
    if (keysUp) keepInSight(cur.el);
  }
  if (window.visualViewport) {
    window.visualViewport.addEventListener('resize', viewportChanged);
    window.visualViewport.addEventListener('scroll', stickBar);
  }

  var nav = window.performance && performance.getEntriesByType ? performance.getEntriesByType('navigation')[0] : null;
  var store = session();
  var hadFocus = null;
  try { hadFocus = store && store.getItem(FOCUS_KEY); if (store) store.removeItem(FOCUS_KEY); } catch (err) { hadFocus = null; }
  if (hadFocus && nav && nav.type === 'reload' && !solved) focusGrid();
})();
