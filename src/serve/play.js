// The play-test page. It holds only the start and the list of moves; every position, legal
// move, capture and score comes from the engine on the server (POST /api/ID/play). No rules
// here.
(function () {
  'use strict';
  var id = document.body.dataset.kit;
  var game = { from: null, moves: [] };
  var last = null; // the last good answer
  var $ = function (s) { return document.getElementById(s); };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function ask(moves) {
    return fetch('/api/' + encodeURIComponent(id) + '/play', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ from: game.from, moves: moves })
    }).then(function (r) { return r.json().then(function (j) { return { ok: r.ok, body: j }; }); });
  }

  function showError(msg) {
    var e = $('error');
    if (msg) { e.textContent = msg; e.hidden = false; } else { e.hidden = true; }
  }

  // The moves so far no longer replay (a save changed the rules): the board is the last
  // position that did, greyed, with no move to click and nothing to copy, until a move is
  // undone or a new game starts.
  function stale(msg) {
    showError((msg || 'the server refused the moves') +
      ' \u2014 the moves so far no longer replay under the saved rules. The board below is from before the save: undo moves or start a new game.');
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
    return ask(game.moves).then(function (a) {
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

  function render(ans) {
    var r = ans.replay;
    $('title').textContent = 'Play-test: ' + r.ruleset.name;
    document.title = 'Play-test: ' + r.ruleset.name;
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
      h.appendChild(el('span', 'label', label));
      h.appendChild(el('span', 'count', String(count)));
      if (order[label]) {
        // The sowing order: a badge of its own in the row outside the pit (placed below); a
        // hole sown on many laps shows its first six, an ellipsis and its last.
        h.classList.add('sown');
        var o = order[label];
        var shown = o.length > 8 ? o.slice(0, 6).concat(['\u2026', o[o.length - 1]]) : o;
        h.badge = el('span', 'order', shown.join(',\u200b'));
        h.badge.dataset.label = label;
        h.badge.title = label + ' sown ' + (o.length > 1 ? o.length + ' times: seeds ' : 'with seed ') + o.join(', ');
      }
      if (ply && ply.last === label) h.classList.add('last');
      if (ply && ply.laps.some(function (l) { return l.from === label; })) h.classList.add('from');
      if (captured[label] !== undefined) { h.classList.add('captured'); h.title = 'captured ' + captured[label]; }
      if (single) {
        h.classList.add('legal');
        h.dataset.move = moves[0];
        h.title = 'play ' + moves[0];
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
          b.title = 'play ' + m + (cw ? ' (clockwise)' : ' (counter-clockwise)');
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

    var hap = $('happened');
    hap.textContent = '';
    function say(t, cls) { var li = el('li', cls, t); hap.appendChild(li); }
    if (ply) {
      say(ply.player + ' played ' + ply.move + ': sowed ' + ply.sown.join(', ') + '; last seed in ' + ply.last + '.', 'sowed');
      if (ply.laps.length > 1) say('Relay sowing: ' + ply.laps.length + ' handfuls.', 'relay');
      if (ply.captured) say(ply.player + ' captured ' + ply.captured + ' (' + ply.captures.map(function (c) { return c.seeds + ' from ' + c.hole; }).join(', ') + ').', 'capture');
      if (ply.grand_slam) say('Grand slam.', 'grand-slam');
      if (ply.extra_turn && !st.game_over) say(ply.player + ' moves again (extra turn).', 'extra-turn');
      ply.passed.forEach(function (p) { say(p + ' cannot move and passes.', 'pass'); });
    }
    var res = $('result');
    if (st.game_over) {
      var e = st.end, p = r.players;
      if (e.swept[0] || e.swept[1]) say('Sweep: ' + e.swept[0] + ' to ' + p[0] + ', ' + e.swept[1] + ' to ' + p[1] + '.', 'sweep');
      var verdict = e.scores[0] === e.scores[1] ? 'a draw' : (e.scores[0] > e.scores[1] ? p[0] : p[1]) + ' wins';
      res.textContent = 'Game over (' + e.reason.replace(/-/g, ' ') + '): ' + p[0] + ' ' + e.scores[0] + ', ' + p[1] + ' ' + e.scores[1] + ': ' + verdict + '.';
      res.dataset.scores = e.scores.join(',');
      res.hidden = false;
      $('status').textContent = 'The game is over.';
    } else {
      res.hidden = true;
      delete res.dataset.scores;
      $('status').textContent = st.next + ' to move.';
    }
    $('status').dataset.next = st.next || '';
    $('moves').textContent = game.moves.join(' ') || '(none yet)';
    $('undo').disabled = game.moves.length === 0;
    $('copy').disabled = !ans.example;
    $('example-box').hidden = true;
  }

  function loadInfo() {
    return fetch('/api/' + encodeURIComponent(id) + '/info').then(function (r) { return r.json(); }).then(function (info) {
      // Which rules are played: the last save's, even while check refuses it for a worked
      // example (the kit then lags behind), or the last good kit's.
      var notice = $('notice');
      notice.textContent = '';
      if (!info.saved) {
        notice.appendChild(el('span', null, 'The last save cannot be played: playing the rules of the last good kit.'));
      } else if (info.refused) {
        notice.appendChild(el('span', null, 'Playing the rules as last saved; the last rebuild failed its check (below), so the kit was not rebuilt.'));
      }
      if (info.problem && (!info.saved || info.refused)) notice.appendChild(el('pre', null, info.problem));
      notice.hidden = info.saved && !info.refused;
      var sel = $('start');
      while (sel.options.length > 1) sel.remove(1);
      (info.option_starts || []).forEach(function (o) {
        var opt = el('option', null, 'the start with ' + o[0] + ' seeds a pit (no worked example from it)');
        opt.value = o[1];
        sel.appendChild(opt);
      });
      info.examples.forEach(function (ex) {
        if (!ex.start) return;
        var o = el('option', null, 'worked example: ' + ex.title);
        o.value = ex.start;
        sel.appendChild(o);
      });
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
  window.sowkitRebuilt = function () { loadInfo(); refresh(); };
  loadInfo();
  refresh();
})();
