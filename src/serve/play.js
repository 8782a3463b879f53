// The play-test page. It holds only the start and the list of moves; every position, legal
// move, capture and score comes from the engine on the server (POST /api/ID/play). No rules
// here.
(function () {
  'use strict';
  var id = document.body.dataset.kit;
  var game = { from: null, moves: [] };
  // A save that changes the page's language reloads it: the game goes on across the reload.
  var kept = 'sowkit-game:' + id;
  try {
    var k = JSON.parse(sessionStorage.getItem(kept) || 'null');
    sessionStorage.removeItem(kept);
    if (k && Array.isArray(k.moves)) game = { from: typeof k.from === 'string' ? k.from : null, moves: k.moves.map(String) };
  } catch (e) { /* no session storage: a new game */ }
  var last = null; // the last good answer
  // Whether the server has rules to play: not while a save cannot be played and no kit has
  // built yet (the page was opened on an earlier save).
  var playable = true;
  var $ = function (s) { return document.getElementById(s); };
  // The page's words, in its language: the catalogue's `play` messages, which the server puts
  // in the page. `{name}` placeholders only; sentences that need a plural come from the server.
  var words = JSON.parse($('words').textContent);
  function say(key, args) {
    return (words[key] || key).replace(/\{([a-z_]+)\}/g, function (m, k) {
      return args && args[k] !== undefined ? String(args[k]) : m;
    });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // refusalOk: the moves may no longer replay (after a save), an answer expected: the server
  // says so with 200 and an error, not a 422 the browser logs as a console error.
  function ask(moves, refusalOk) {
    return fetch('/api/' + encodeURIComponent(id) + '/play', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ from: game.from, moves: moves, refusal_ok: !!refusalOk })
    }).then(function (r) { return r.json().then(function (j) { return { ok: r.ok && !j.error, body: j }; }); });
  }

  function showError(msg) {
    var e = $('error');
    if (msg) { e.textContent = msg; e.hidden = false; } else { e.hidden = true; }
  }

  // The moves so far no longer replay (a save changed the rules): the board is the last
  // position that did, greyed, with no move to click and nothing to copy, until a move is
  // undone or a new game starts.
  // quiet: nothing to say under the notice (no rules to play: the notice says so).
  function stale(msg, quiet) {
    showError(quiet ? null : say('stale', { problem: msg || say('refused') }));
    last = null;
    var board = $('board');
    board.classList.add('stale');
    Array.prototype.forEach.call(board.querySelectorAll('button'), function (b) { b.disabled = true; });
    // Nothing is legal on it: no green outlines (the direction buttons are hidden in place).
    Array.prototype.forEach.call(board.querySelectorAll('.legal, .legal-either'), function (h) {
      h.classList.remove('legal', 'legal-either');
      h.removeAttribute('title');
    });
    $('copy').disabled = true;
    $('example-box').hidden = true;
    $('undo').disabled = game.moves.length === 0;
    $('status').textContent = '';
    $('status').dataset.next = '';
    $('result').hidden = true;
  }

  function refresh() {
    if (!playable) { stale(null, true); return Promise.resolve(); }
    return ask(game.moves, true).then(function (a) {
      if (!a.ok) { stale(a.body.error); return; }
      showError(null);
      last = a.body;
      render(a.body);
    });
  }

  function play(mv) {
    return ask(game.moves.concat([mv])).then(function (a) {
      if (!a.ok) { showError(a.body.error); return; }
      showError(null);
      game.moves.push(mv);
      last = a.body;
      render(a.body);
    });
  }

  // A hole's label. A pit's is a head and a tail (its number, e.g. "Northerner" and "6"):
  // clipped, the head ends in an ellipsis and the tail stays, so pits still differ
  // ("North…6"). A store's may have spaces: each word is a box of its own, so a line breaks
  // only between words and a word too long even at the least size is clipped whole.
  function labelOf(text, isStore) {
    var l = el('span', 'label');
    if (!isStore) {
      var digits = /\d{1,4}$/.exec(text);
      var k = digits && digits.index > 0 ? digits[0].length : (text.length > 6 ? 3 : 0);
      l.appendChild(el('span', 'head', text.slice(0, text.length - k)));
      if (k) l.appendChild(el('span', 'tail', text.slice(text.length - k)));
      return l;
    }
    text.split(' ').forEach(function (w, i) {
      if (i) l.appendChild(document.createTextNode(' '));
      l.appendChild(el('span', 'w', w));
    });
    return l;
  }

  // Every label inside its hole: the font shrinks (from the style sheet's size down to
  // LABEL_MIN px) until the label's widest line (a pit's label, a store's longest word) fits
  // the hole's width at the label's height (a round pit is narrower above its centre);
  // what is still too wide at LABEL_MIN is clipped with an ellipsis, the label whole in its
  // title. Measured, so it holds for any label, font and pit size; again on a resize.
  var LABEL_MIN = 8;
  function fitLabels() {
    var labels = Array.prototype.slice.call($('board').querySelectorAll('.hole .label'));
    labels.forEach(function (l) { l.style.fontSize = ''; l.style.maxWidth = ''; l.removeAttribute('title'); });
    var fit = labels.map(function () { return { room: 0, need: 0, size: 0 }; });
    // Three rounds: a smaller label sits lower in its pit, where the pit is wider.
    for (var round = 0; round < 3; round++) {
      labels.forEach(function (l, i) { // read
        var f = fit[i];
        f.size = parseFloat(getComputedStyle(l).fontSize);
        f.room = roomFor(l, f.size);
        f.need = 0;
        var parts = l.parentElement.classList.contains('store') ? l.querySelectorAll('.w') : [l];
        Array.prototype.forEach.call(parts, function (p) { f.need = Math.max(f.need, textWidth(p)); });
      });
      var changed = false;
      labels.forEach(function (l, i) { // write
        var f = fit[i];
        if (f.need <= f.room + 0.01 || f.size <= LABEL_MIN) return;
        var size = Math.max(LABEL_MIN, Math.floor(f.size * f.room / f.need * 4) / 4);
        if (size < f.size) { l.style.fontSize = size + 'px'; changed = true; }
      });
      if (!changed) break;
    }
    labels.forEach(function (l, i) {
      var f = fit[i];
      l.style.maxWidth = Math.floor(f.room) + 'px';
      if (f.need > f.room + 0.01) l.title = l.textContent;
    });
  }

  // The width of an element's text as laid out in one line (not clipped).
  function textWidth(e) {
    var r = document.createRange();
    r.selectNodeContents(e);
    return r.getBoundingClientRect().width;
  }

  // The width inside a hole (its border excluded, 2 px of air each side) at the middle of the
  // label's first and last lines: a pit is a circle, a store two half circles joined by
  // straight sides.
  function roomFor(l, size) { // size: the label's font size, px
    var h = l.parentElement, hr = h.getBoundingClientRect(), lr = l.getBoundingClientRect();
    var w = h.clientWidth, ht = h.clientHeight, r = Math.min(w, ht) / 2;
    var top = hr.top + h.clientTop, c1 = top + r, c2 = top + ht - r;
    var line = parseFloat(getComputedStyle(l).lineHeight) || size;
    var dy = function (y) { return y < c1 ? c1 - y : (y > c2 ? y - c2 : 0); };
    var d = Math.max(dy(lr.top + line / 2), dy(lr.bottom - line / 2));
    var half = Math.sqrt(Math.max(0, r * r - d * d)) + (w / 2 - r);
    return Math.max(w * 0.5, 2 * half - 4);
  }
  var fitting = 0;
  window.addEventListener('resize', function () {
    if (!fitting) fitting = requestAnimationFrame(function () { fitting = 0; fitLabels(); });
  });

  function render(ans) {
    var r = ans.replay;
    $('title').textContent = say('title_of', { name: r.ruleset.name });
    document.title = say('title_of', { name: r.ruleset.name });
    var st = r.final;
    var ply = r.plies.length ? r.plies[r.plies.length - 1] : null;
    var order = {}, captured = {};
    if (ply) {
      ply.sown.forEach(function (h, i) { (order[h] = order[h] || []).push(i + 1); });
      ply.captures.forEach(function (c) { captured[c.hole] = c.seeds; });
    }
    var legal = {};
    st.legal.forEach(function (m) {
      var pit = m.replace(/[<>]$/, '');
      (legal[pit] = legal[pit] || []).push(m);
    });
    function hole(label, count, isStore) {
      var moves = legal[label];
      var single = moves && moves.length === 1 && !r.direction_choice;
      var h = el(single ? 'button' : 'div', 'hole' + (isStore ? ' store' : ''));
      h.dataset.label = label;
      h.dataset.count = count;
      h.appendChild(labelOf(label, isStore));
      h.appendChild(el('span', 'count', String(count)));
      if (order[label]) {
        // The sowing order: a badge of its own in the row outside the pit (placed below); a
        // hole sown on many laps shows its first six, an ellipsis and its last.
        h.classList.add('sown');
        var o = order[label];
        var shown = o.length > 8 ? o.slice(0, 6).concat(['\u2026', o[o.length - 1]]) : o;
        h.badge = el('span', 'order', shown.join(',\u200b'));
        h.badge.dataset.label = label;
        h.badge.title = o.length > 1 ? say('sown_times', { hole: label, n: o.length, seeds: o.join(', ') }) : say('sown_once', { hole: label, seed: o[0] });
      }
      if (ply && ply.last === label) h.classList.add('last');
      if (ply && ply.laps.some(function (l) { return l.from === label; })) h.classList.add('from');
      if (captured[label] !== undefined) { h.classList.add('captured'); h.title = say('captured', { n: captured[label] }); }
      if (single) {
        h.classList.add('legal');
        h.dataset.move = moves[0];
        h.title = say('play_move', { move: moves[0] });
        h.onclick = function () { play(moves[0]); };
      } else if (moves) {
        // The mover chooses the direction: two buttons of their own, in a row of the grid
        // outside the board (placed below), so they are finger-sized and cover no count.
        h.classList.add('legal-either');
        var d = el('span', 'dirs');
        d.dataset.label = label;
        moves.forEach(function (m) {
          var cw = /<$/.test(m);
          var b = el('button', 'dir', cw ? '\u21bb' : '\u21ba');
          b.dataset.move = m;
          b.title = say(cw ? 'play_cw' : 'play_ccw', { move: m });
          b.setAttribute('aria-label', b.title);
          b.onclick = function () { play(m); };
          d.appendChild(b);
        });
        h.dirs = d;
      }
      return h;
    }
    // The board is a grid of equal columns: North's store, the pits, South's store; a pit
    // sits in the same column as its opposite, whether or not it can be played. Outside each
    // row of pits, a row for the sowing-order badges and, where the mover chooses the
    // direction, a row for the direction buttons.
    var board = $('board');
    board.textContent = '';
    board.classList.remove('stale');
    var n = st.pits[0].length;
    board.style.setProperty('--n', n);
    var dc = !!r.direction_choice;
    // The legend speaks of direction buttons only for rules that have them.
    $('legend-either').hidden = !dc;
    var rowTop = dc ? 3 : 2, rowBottom = rowTop + 1;
    board.style.gridTemplateRows = (dc ? 'auto ' : '') + 'minmax(var(--badge), auto) auto auto minmax(var(--badge), auto)' + (dc ? ' auto' : '');
    function place(e, col, row, rows) {
      e.style.gridColumn = String(col);
      e.style.gridRow = rows ? row + ' / span ' + rows : String(row);
      board.appendChild(e);
      return e;
    }
    // A hole, its badge (one row out: -1 above the top row, +1 below the bottom row) and its
    // direction buttons (two rows out).
    function put(h, col, row, rows, side, out) {
      place(h, col, row, rows).classList.add(side);
      if (h.badge) place(h.badge, col, out < 0 ? rowTop - 1 : rowBottom + 1).classList.add(out < 0 ? 'top' : 'bottom');
      if (h.dirs) place(h.dirs, col, out < 0 ? rowTop - 2 : rowBottom + 2).classList.add(side);
    }
    put(hole(r.store_labels[1], st.stores[1], true), 1, rowTop, 2, 'north', -1);
    for (var i = n - 1; i >= 0; i--) put(hole(r.pit_labels[1][i], st.pits[1][i], false), 2 + (n - 1 - i), rowTop, 0, 'top', -1);
    for (var j = 0; j < n; j++) put(hole(r.pit_labels[0][j], st.pits[0][j], false), 2 + j, rowBottom, 0, 'bottom', 1);
    put(hole(r.store_labels[0], st.stores[0], true), n + 2, rowTop, 2, 'south', 1);
    fitLabels();

    // What the last move did, a sentence a line, told by the server in the page's language
    // as the rule sheets tell a worked example (each line's class says what it tells).
    var hap = $('happened');
    hap.textContent = '';
    (ans.report || []).forEach(function (s) { hap.appendChild(el('li', s.kind, s.text)); });
    var res = $('result');
    if (st.game_over) {
      res.textContent = ans.result || '';
      res.dataset.scores = st.end.scores.join(',');
      res.hidden = false;
      $('status').textContent = say('over');
    } else {
      res.hidden = true;
      delete res.dataset.scores;
      $('status').textContent = say('to_move', { player: st.next });
    }
    $('status').dataset.next = st.next || '';
    $('moves').textContent = game.moves.join(' ') || say('moves_none');
    $('undo').disabled = game.moves.length === 0;
    $('copy').disabled = !ans.example;
    $('example-box').hidden = true;
  }

  function loadInfo() {
    return fetch('/api/' + encodeURIComponent(id) + '/info').then(function (r) { return r.ok ? r.json() : null; }).then(function (info) {
      if (!info) return;
      playable = info.playable !== false;
      // A save changed the ruleset's language: the page's own words are the server's, so
      // it is loaded again in the new one.
      if (info.lang && info.lang !== document.documentElement.lang) {
        try { sessionStorage.setItem(kept, JSON.stringify(game)); } catch (e) { /* a new game */ }
        location.reload();
        return;
      }
      // Which rules are played: the last save's, even while check refuses it for a worked
      // example (the kit then lags behind), or the last good kit's.
      var notice = $('notice');
      notice.textContent = '';
      if (!playable) {
        notice.appendChild(el('span', null, say('no_rules')));
      } else if (!info.saved) {
        notice.appendChild(el('span', null, say('last_good')));
      } else if (info.refused && !info.rebuilt) {
        // The first build: nothing was saved or rebuilt yet.
        notice.appendChild(el('span', null, say('file_refused')));
      } else if (info.refused) {
        notice.appendChild(el('span', null, say('save_refused')));
      }
      if (info.problem && (!info.saved || info.refused)) notice.appendChild(el('pre', null, info.problem));
      notice.hidden = info.saved && !info.refused;
      var sel = $('start');
      while (sel.options.length > 1) sel.remove(1);
      (info.option_starts || []).forEach(function (o, i) {
        var opt = el('option', null, info.option_titles[i]);
        opt.value = o[1];
        sel.appendChild(opt);
      });
      info.examples.forEach(function (ex) {
        if (!ex.start) return;
        var o = el('option', null, say('start_example', { title: ex.title }));
        o.value = ex.start;
        sel.appendChild(o);
      });
      // The start of the game played (kept across a reload), when it is still offered.
      Array.prototype.forEach.call(sel.options, function (o) { if (o.value === (game.from || '')) o.selected = true; });
    });
  }

  // Choosing a start begins a new game from it (it waited for "New game").
  $('start').onchange = function () { $('restart').onclick(); };
  $('restart').onclick = function () {
    game.from = $('start').value || null;
    game.moves = [];
    refresh();
  };
  $('undo').onclick = function () { game.moves.pop(); refresh(); };
  $('copy').onclick = function () {
    if (!last || !last.example) return;
    $('example').value = last.example;
    $('example-box').hidden = false;
    $('example').select();
    if (navigator.clipboard) navigator.clipboard.writeText(last.example).catch(function () {});
  };
  // A saved ruleset was rebuilt: replay the same moves under the new rules.
  // The rules' state first: a save that cannot be played, with no kit to fall back on, has
  // nothing to replay the moves under.
  window.sowkitRebuilt = function () { loadInfo().then(refresh, refresh); };
  loadInfo();
  refresh();
})();
