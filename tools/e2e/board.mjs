// The play-test board's layout in headless Chromium, on a phone (390x844, touch, the page's
// viewport meta honoured as a phone browser does) and on a desktop (1280x800): for Kalah,
// Giuthi (direction buttons), Oware, a six-pit relay-sowing Kalah, a 16-pit relay board and
// the Spanish Kalah (kalah-6x3, `lang = "es"`: its page, labels and legend in Spanish), after
// a few moves. Measured with getBoundingClientRect:
// * opposite pits' centres line up (within 1 px) and every pit, button or not, has one size;
// * the pits of a six-pit board are at least 44 CSS px on the phone, with no sideways scroll
//   of the page (a long board scrolls inside its own box);
// * sowing-order badges stay inside the board and off every pit and other badge;
// * Giuthi's direction buttons do not cover a seed count;
// * the legend is shown; no request fails (a favicon 404 was a console error);
// * every pit and store label lies inside its hole (1 px), a pit's label also inside the round
//   pit at its middle; a label is clipped (with an ellipsis, whole in its title) only at the
//   least font size, 8 px; no word of a store's label is split across lines. Also for the
//   longest labels the loader accepts, in a second server: tests/fixtures/long-names.toml
//   (players' names of ten letters as the default labels, "Northerner6", "store Southerner")
//   and tests/fixtures/long-labels.toml (12-character pit labels, 24-character store labels,
//   16 pits; its kit does not lay out, so the page says the rules' check failed).
// The Spanish page also: <html lang="es">, its status line, move report, buttons and legend in
// Spanish, with no string of the English page left.
// Screenshots go to $SHOTS (default /tmp/sowkit-e2e): board-<id>-<phone|desktop>.png.
// With $PAGE_FROM (e.g. src/serve), the page's HTML, script and style sheet are read from that
// folder instead of the server's embedded copies: work on the page without a rebuild (its
// words, `{{play.key}}`, are filled in from the words of the page the server sends).
//
// Usage: node board.mjs PATH/TO/sowkit
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const sowkit = path.resolve(process.argv[2] || '../../target/debug/sowkit');
const shots = process.env.SHOTS || '/tmp/sowkit-e2e';
const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
fs.mkdirSync(shots, { recursive: true });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sowkit-e2e-board-'));

// A six-pit relay-sowing Kalah: a last seed in an occupied pit lifts its seeds and sows on.
const kalah = fs.readFileSync(path.join(repo, 'rulesets/kalah-6x4.toml'), 'utf8');
const relay = kalah
  .replace(/^id = .*$/m, 'id = "relay-kalah"')
  .replace(/^name = .*$/m, 'name = "Relay Kalah"')
  .replace('relay = "none"', 'relay = "same"')
  .replace(/\n\[\[example\]\][\s\S]*$/, '\n');
fs.writeFileSync(path.join(work, 'relay-kalah.toml'), relay);
for (const f of ['long-board', 'long-names', 'long-labels']) {
  fs.copyFileSync(path.join(repo, 'tests/fixtures/' + f + '.toml'), path.join(work, f + '.toml'));
}

let failures = 0;
function ok(cond, msg) {
  if (cond) console.log('ok: ' + msg);
  else { console.error('FAIL: ' + msg); failures++; }
}

// A server of its own for the long labels: their kit does not lay out, and the kits of one
// server build all or none.
const servers = [];
function serve(args) {
  const server = spawn(sowkit, ['serve', ...args], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  servers.push(server);
  let stderr = '';
  server.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error('serve printed no address: ' + stderr)), 120000);
    server.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/serving (http:\/\/127\.0\.0\.1:\d+\/)/);
      if (m) { clearTimeout(t); resolve(m[1]); }
    });
    server.on('exit', (c) => reject(new Error('serve exited ' + c + ': ' + stderr)));
  });
}
const [base, longBase] = await Promise.all([
  serve(['relay-kalah.toml', 'long-board.toml', '--bundled', 'kalah-6x4', '--bundled', 'giuthi', '--bundled', 'oware-abapa', '--bundled', 'kalah-6x3']),
  serve(['long-names.toml', 'long-labels.toml']),
]);
console.log('servers at ' + base + ' and ' + longBase);

// Everything measured, in the page: pits by row and column, badges, direction buttons.
function measure() {
  const box = (e) => { const r = e.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height, cx: r.left + r.width / 2, cy: r.top + r.height / 2 }; };
  const overlap = (a, b) => a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5;
  const board = document.getElementById('board');
  const top = [...board.querySelectorAll('.hole.top')].map(box).sort((a, b) => a.x - b.x);
  const bottom = [...board.querySelectorAll('.hole.bottom')].map(box).sort((a, b) => a.x - b.x);
  const holes = [...board.querySelectorAll('.hole')].map(box);
  const pits = [...board.querySelectorAll('.hole.top, .hole.bottom')];
  const sizes = pits.map((p) => ({ w: p.getBoundingClientRect().width, h: p.getBoundingClientRect().height, button: p.tagName === 'BUTTON' }));
  const badges = [...board.querySelectorAll('.order')].map((b) => ({ ...box(b), text: b.textContent }));
  const counts = [...board.querySelectorAll('.hole .count')].map(box);
  const dirs = [...board.querySelectorAll('.dirs button')].map(box);
  const b = box(board);
  const inBoard = (r) => r.x >= b.x - 0.5 && r.x + r.w <= b.x + board.scrollWidth + 0.5 && r.y >= b.y - 0.5 && r.y + r.h <= b.y + b.h + 0.5;
  const badgeProblems = [];
  badges.forEach((g, i) => {
    if (!inBoard(g)) badgeProblems.push('badge ' + g.text + ' outside the board');
    holes.forEach((h) => { if (overlap(g, h)) badgeProblems.push('badge ' + g.text + ' over a pit'); });
    badges.forEach((o, j) => { if (j > i && overlap(g, o)) badgeProblems.push('badges ' + g.text + ' and ' + o.text + ' overlap'); });
    const style = getComputedStyle(board.querySelectorAll('.order')[i]);
    const el = board.querySelectorAll('.order')[i];
    if (el.scrollWidth > el.clientWidth + 1) badgeProblems.push('badge ' + g.text + ' text spills out (' + style.width + ')');
  });
  const dirProblems = [];
  dirs.forEach((d) => counts.forEach((c) => { if (overlap(d, c)) dirProblems.push('a direction button covers a seed count'); }));
  // A label outside its hole (a store's name on a phone, "Northerner6" in a 44 px pit), a
  // pit's label beyond the round pit at its middle, a label clipped above the least font size
  // or without its whole text in its title, a word of a store's label split across lines.
  const spills = [], splits = [], clipped = [], fonts = [];
  for (const l of board.querySelectorAll('.hole .label')) {
    const hole = l.parentElement, store = hole.classList.contains('store');
    const r = l.getBoundingClientRect(), h = hole.getBoundingClientRect();
    const text = l.textContent, size = parseFloat(getComputedStyle(l).fontSize);
    fonts.push(size);
    // The label and each box in it (a pit's head and number, a store's words).
    const parts = [l, ...l.querySelectorAll('*')];
    for (const p of parts) {
      const q = p.getBoundingClientRect();
      if (q.left < h.left - 1 || q.right > h.right + 1 || q.top < h.top - 1 || q.bottom > h.bottom + 1) {
        spills.push(text + ' (' + q.width.toFixed(1) + ' px at ' + (q.left - h.left).toFixed(1) + ' in ' + h.width.toFixed(1) + ')');
      }
    }
    if (!store) {
      const rad = hole.clientWidth / 2, cx = h.left + h.width / 2, cy = h.top + h.height / 2, y = r.top + r.height / 2 - cy;
      const far = Math.max(Math.hypot(r.left - cx, y), Math.hypot(r.right - cx, y));
      if (far > rad + 1) spills.push(text + ' (its end ' + far.toFixed(1) + ' px from the centre of a pit of radius ' + rad.toFixed(1) + ')');
    }
    // Clipped: a box whose text is wider than it, which must end in an ellipsis.
    const cut = parts.filter((b) => b.scrollWidth > b.clientWidth + 1);
    if (cut.length) {
      clipped.push(text);
      if (size > 8.01 || l.title !== text || cut.some((b) => getComputedStyle(b).textOverflow !== 'ellipsis' || getComputedStyle(b).overflowX !== 'hidden')) {
        spills.push(text + ' (clipped at ' + size + ' px, title ' + JSON.stringify(l.title) + ')');
      }
    }
    if (store) {
      // Each word's rectangles on one line: a word split across lines has two.
      const walker = document.createTreeWalker(l, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        for (const m of n.data.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(n, m.index);
          range.setEnd(n, m.index + m[0].length);
          const tops = new Set([...range.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top)));
          if (tops.size > 1) splits.push(m[0] + ' in ' + JSON.stringify(text) + ' on ' + tops.size + ' lines');
        }
      }
    }
  }
  const step = (row) => row.slice(1).map((r, i) => r.cx - row[i].cx);
  return {
    innerWidth: window.innerWidth,
    pageScroll: document.documentElement.scrollWidth,
    n: top.length,
    columns: top.map((t, i) => Math.abs(t.cx - bottom[i].cx)),
    rowSteps: step(top).concat(step(bottom)),
    sizes,
    badges: badges.length,
    badgeProblems,
    dirs: dirs.map((d) => ({ w: d.w, h: d.h })),
    dirProblems,
    spills,
    splits,
    clipped,
    labelSizes: [Math.min(...fonts), Math.max(...fonts)],
    legend: [...document.querySelectorAll('.legend li')].filter((li) => li.getBoundingClientRect().height > 0).length,
    legendDirections: document.getElementById('legend-either').getBoundingClientRect().width > 0,
    legalOnStale: board.classList.contains('stale') ? board.querySelectorAll('.legal, .legal-either').length : 0,
  };
}

async function fromDisk(context) {
  const dir = process.env.PAGE_FROM;
  if (!dir) return;
  const types = { html: 'text/html; charset=utf-8', js: 'text/javascript', css: 'text/css' };
  await context.route(/\/(assets\/[a-z]+\.(js|css)|play\/[^/?]+)$/, async (route) => {
    const u = new URL(route.request().url());
    const play = u.pathname.match(/^\/play\/(.+)$/);
    const file = play ? 'play.html' : path.basename(u.pathname);
    let body = fs.readFileSync(path.join(dir, file), 'utf8');
    if (play) {
      // The words and language of the page as the server sends it.
      const served = await (await route.fetch()).text();
      const json = served.match(/<script id="words" type="application\/json">([\s\S]*?)<\/script>/)[1];
      const words = JSON.parse(json);
      const lang = served.match(/<html lang="([^"]*)">/)[1];
      const esc = (t) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
      body = body.replace(/\{\{([A-Za-z_.]+)\}\}/g, (m, k) => {
        if (k === 'ID') return play[1];
        if (k === 'LANG') return lang;
        if (k === 'WORDS') return json;
        return esc(words[k.replace(/^play\./, '')] ?? m).replace('{check}', '<code>sowkit check</code>');
      });
    }
    route.fulfill({ status: 200, contentType: types[file.split('.').pop()], body });
  });
}

// A few moves: the first legal pit (or direction button) each time.
async function play(page, n) {
  for (let i = 0; i < n; i++) {
    if (await page.isVisible('#result')) break;
    const before = await page.textContent('#moves');
    const target = (await page.$('button.hole.legal')) || (await page.$('.dirs button'));
    if (!target) break;
    await target.click();
    await page.waitForFunction((b) => document.getElementById('moves').textContent !== b, before);
  }
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const devices = {
  // isMobile: the page's <meta name="viewport"> is honoured as on a phone (without it the
  // page is laid out 980 px wide and shrunk).
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  desktop: { viewport: { width: 1280, height: 800 } },
};
// id, moves to play before measuring.
const games = [['kalah-6x4', 5], ['giuthi', 3], ['oware-abapa', 6], ['relay-kalah', 4], ['long-board', 3],
  ['long-names', 4, longBase], ['long-labels', 3, longBase], ['kalah-6x3', 3]];
// Strings of the English page (buttons, legend, status, report, result) none of which a
// Spanish page may show.
const englishStrings = ['Play-test', 'New game', 'Undo', 'Copy as worked example', 'Start from', 'can be played',
  'sown by the last move', 'last seed', 'a handful was lifted', 'captured', 'to move', 'played', 'sows', 'lands in',
  'moves again', 'Moves:', 'none yet', 'all kits', 'sheets', 'game over', 'wins'];
try {
  for (const [device, opts] of Object.entries(devices)) {
    const context = await browser.newContext(opts);
    await fromDisk(context);
    const page = await context.newPage();
    const failed = [];
    page.on('response', (r) => { if (r.status() >= 400) failed.push(r.status() + ' ' + r.url()); });
    page.on('console', (m) => { if (m.type() === 'error') failed.push('console: ' + m.text()); });
    for (const [id, moves, at] of games) {
      await page.goto((at || base) + 'play/' + id);
      await page.waitForSelector('#board .hole');
      await play(page, moves);
      const m = await page.evaluate(measure);
      const what = id + ' (' + device + ', ' + m.n + ' pits a side)';
      ok(m.innerWidth === opts.viewport.width, what + ': laid out at the device width, ' + m.innerWidth + ' CSS px');
      ok(m.columns.length > 0 && Math.max(...m.columns) <= 1, what + ': opposite pits line up (worst ' + Math.max(...m.columns).toFixed(2) + ' px)');
      ok(Math.max(...m.rowSteps) - Math.min(...m.rowSteps) <= 1, what + ': pits evenly spaced (steps ' + Math.min(...m.rowSteps).toFixed(1) + '–' + Math.max(...m.rowSteps).toFixed(1) + ' px)');
      const ws = m.sizes.map((s) => s.w), hs = m.sizes.map((s) => s.h);
      ok(Math.max(...ws) - Math.min(...ws) <= 0.5 && Math.max(...hs) - Math.min(...hs) <= 0.5,
        what + ': every pit is ' + ws[0].toFixed(1) + 'x' + hs[0].toFixed(1) + ' px, button (' + m.sizes.filter((s) => s.button).length + ') or not');
      ok(Math.min(...ws) >= 44 && Math.min(...hs) >= 44, what + ': pits at least 44 px (' + Math.min(...ws).toFixed(1) + ')');
      if (m.n <= 6) ok(m.pageScroll <= m.innerWidth, what + ': the page does not scroll sideways (' + m.pageScroll + ' px)');
      ok(m.badgeProblems.length === 0, what + ': ' + m.badges + ' sowing-order badges inside the board, off the pits and each other' + (m.badgeProblems.length ? ': ' + m.badgeProblems.slice(0, 3).join('; ') : ''));
      ok(m.spills.length === 0, what + ': every pit and store label fits its hole (fonts ' + m.labelSizes.map((x) => x.toFixed(2)).join('–') + ' px; ' +
        (m.clipped.length ? m.clipped.length + ' clipped at 8 px: ' + m.clipped.slice(0, 2).join(', ') + (m.clipped.length > 2 ? ', …' : '') : 'none clipped') + ')' +
        (m.spills.length ? ': ' + m.spills.slice(0, 4).join(', ') : ''));
      ok(m.splits.length === 0, what + ': no word of a store label is split across lines' + (m.splits.length ? ': ' + m.splits.join(', ') : ''));
      ok(m.dirProblems.length === 0, what + ': no direction button covers a seed count');
      if (m.dirs.length) ok(Math.min(...m.dirs.map((d) => d.h)) >= 40, what + ': direction buttons at least 40 px tall (' + m.dirs.map((d) => d.w.toFixed(0) + 'x' + d.h.toFixed(0)).slice(0, 2).join(', ') + ')');
      // Its kit does not lay out: on first load nothing was saved or rebuilt yet.
      if (id === 'long-labels') ok((await page.textContent('#notice')).startsWith('Playing the rules in the file; the check failed'), what + ': the first load says the file\'s check failed: ' + (await page.textContent('#notice')).slice(0, 60));
      ok(m.legend >= 5, what + ': the legend explains ' + m.legend + ' markers');
      if (id === 'kalah-6x3') {
        // The Spanish page, after its moves: what a reader sees is Spanish.
        const seen = await page.evaluate(() => ({
          lang: document.documentElement.lang,
          text: document.body.innerText,
          status: document.getElementById('status').textContent,
          report: [...document.querySelectorAll('#happened li')].map((li) => li.textContent),
          buttons: [...document.querySelectorAll('.controls button')].map((b) => b.textContent),
          titles: [...document.querySelectorAll('#board [title]')].map((e) => e.title),
        }));
        ok(seen.lang === 'es', what + ': <html lang="es">');
        ok(/^Le toca a (Sur|Norte)\.$/.test(seen.status), what + ': the status line is Spanish: ' + seen.status);
        ok(seen.report.length >= 2 && /^(Sur|Norte) (vacía|toma) /.test(seen.report[0]) &&
          seen.report.some((l) => l.startsWith('La última semilla cae en')), what + ': the move report is Spanish: ' + seen.report.join(' '));
        ok(JSON.stringify(seen.buttons) === JSON.stringify(['Nueva partida', 'Deshacer', 'Copiar como ejemplo resuelto']), what + ': the buttons are Spanish: ' + seen.buttons.join(', '));
        const left = englishStrings.filter((e) => (seen.text + ' ' + seen.titles.join(' ')).toLowerCase().includes(e.toLowerCase()));
        ok(left.length === 0, what + ': no English string of the page is shown' + (left.length ? ': ' + left.join(', ') : ''));
      }
      // Direction buttons are explained only where the mover chooses the direction (Giuthi).
      ok(m.legendDirections === (m.dirs.length > 0 || id === 'giuthi'), what + ': the legend speaks of direction buttons only where there are some (' + m.legendDirections + ')');
      await page.screenshot({ path: path.join(shots, 'board-' + id + '-' + device + '.png'), fullPage: true });
    }
    ok(failed.length === 0, device + ': no failed request or console error' + (failed.length ? ': ' + failed.join('; ') : ''));
    await context.close();
  }
  // The page head: viewport meta and an inline favicon (no /favicon.ico request).
  const context = await browser.newContext();
  await fromDisk(context);
  const page = await context.newPage();
  await page.goto(base + 'play/kalah-6x4');
  ok(await page.$('meta[name="viewport"][content*="width=device-width"]') !== null, 'the play page has a viewport meta');
  ok(await page.$('link[rel="icon"]') !== null, 'the play page has an inline favicon');
  console.log('screenshots in ' + shots);
} finally {
  await browser.close();
  servers.forEach((s) => s.kill());
  fs.rmSync(work, { recursive: true, force: true });
}
if (failures) {
  console.error(failures + ' check(s) failed');
  process.exit(1);
}
