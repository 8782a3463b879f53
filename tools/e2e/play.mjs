// End-to-end test of `sowkit serve` in headless Chromium: plays a bundled game to its end by
// clicks and checks the score shown against the engine (`sowkit replay --format json` of the
// same moves); checks live refresh on save, the located diagnostic of a failing save, the
// direction buttons of an either-direction game, that "copy as worked example" gives a
// table `sowkit check` accepts, that a save switching the language keeps the game, that a
// save making the game illegal greys the board, and that on a phone (390x844) no text is cut
// short with an ellipsis. Screenshots go to $SHOTS (default /tmp/sowkit-e2e).
//
// Usage: node play.mjs PATH/TO/sowkit
import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';

const sowkit = path.resolve(process.argv[2] || '../../target/debug/sowkit');
const shots = process.env.SHOTS || '/tmp/sowkit-e2e';
const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
fs.mkdirSync(shots, { recursive: true });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sowkit-e2e-'));
const rulesetFile = path.join(work, 'kalah-6x4.toml');
const original = fs.readFileSync(path.join(repo, 'rulesets/kalah-6x4.toml'), 'utf8');
fs.writeFileSync(rulesetFile, original);

function fail(msg) { console.error('FAIL: ' + msg); process.exitCode = 1; throw new Error(msg); }
function ok(cond, msg) { if (!cond) fail(msg); console.log('ok: ' + msg); }

const server = spawn(sowkit, ['serve', rulesetFile, '--bundled', 'giuthi', '--bundled', 'kalah-6x3'], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
let stderr = '';
server.stderr.on('data', (d) => { stderr += d; });
const base = await new Promise((resolve, reject) => {
  let out = '';
  const t = setTimeout(() => reject(new Error('serve printed no address: ' + stderr)), 60000);
  server.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/serving (http:\/\/127\.0\.0\.1:\d+\/)/);
    if (m) { clearTimeout(t); resolve(m[1]); }
  });
  server.on('exit', (c) => reject(new Error('serve exited ' + c + ': ' + stderr)));
});
console.log('server at ' + base);

function rawGet(host) {
  const u = new URL(base);
  return new Promise((resolve) => {
    http.get({ host: '127.0.0.1', port: u.port, path: '/', headers: { Host: host } }, (r) => { r.resume(); resolve(r.statusCode); });
  });
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  ok(await rawGet('attacker.example:' + new URL(base).port) === 421, 'a foreign Host header is refused (DNS rebinding)');

  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  await page.goto(base);
  await page.screenshot({ path: path.join(shots, '01-index.png'), fullPage: true });
  await page.goto(base + 'kit/kalah-6x4/');
  // Every sheet at true size: its SVG's width in mm, at 96 CSS px per inch (the 1 px border
  // on each side aside).
  const sizes = await page.$$eval('img.sheet', (imgs) => Promise.all(imgs.map(async (img) => {
    const svg = await (await fetch(img.src)).text();
    const mm = parseFloat(svg.match(/<svg[^>]*\swidth="([0-9.]+)mm"/)[1]);
    return { name: img.alt, mm, px: img.getBoundingClientRect().width - 2 };
  })));
  ok(sizes.length > 3, sizes.length + ' sheets shown');
  for (const s of sizes) {
    if (Math.abs(s.px - s.mm / 25.4 * 96) > 0.5) fail(s.name + ' is ' + s.px + ' CSS px wide for ' + s.mm + ' mm');
  }
  ok(true, 'every sheet is shown at true size (e.g. ' + sizes[0].name + ': ' + sizes[0].mm + ' mm = ' + sizes[0].px.toFixed(1) + ' CSS px)');
  await page.screenshot({ path: path.join(shots, '02-sheets.png') });

  // Play kalah-6x4 to its end: always the first legal pit.
  await page.goto(base + 'play/kalah-6x4');
  await page.waitForSelector('button.hole.legal');
  let plies = 0;
  for (; plies < 400; plies++) {
    if (await page.isVisible('#result')) break;
    const before = await page.textContent('#moves');
    await page.click('button.hole.legal >> nth=0');
    await page.waitForFunction((b) => document.getElementById('moves').textContent !== b, before);
    if (plies === 6) await page.screenshot({ path: path.join(shots, '03-play-midgame.png') });
  }
  ok(await page.isVisible('#result'), 'the game ended after ' + plies + ' clicks');
  const moves = (await page.textContent('#moves')).trim();
  const shown = (await page.getAttribute('#result', 'data-scores')).split(',').map(Number);
  const resultText = await page.textContent('#result');
  await page.screenshot({ path: path.join(shots, '04-play-end.png'), fullPage: true });
  const engine = JSON.parse(execFileSync(sowkit, ['replay', '--bundled', 'kalah-6x4', '--format', 'json', '--moves', moves], { encoding: 'utf8' }));
  ok(engine.final.game_over === true, 'the engine agrees the game is over after ' + moves.split(' ').length + ' moves');
  ok(JSON.stringify(engine.final.scores) === JSON.stringify(shown), 'score shown ' + shown + ' = engine ' + engine.final.scores + ' (' + resultText + ')');
  ok(resultText.includes(String(engine.final.scores[0])) && resultText.includes(String(engine.final.scores[1])), 'the result sentence names both scores');

  // Undo goes back one move.
  await page.click('#undo');
  await page.waitForFunction(() => document.getElementById('result').hidden);
  ok((await page.textContent('#moves')).trim() === moves.split(' ').slice(0, -1).join(' '), 'undo removes the last move');
  await page.click('button.hole.legal >> nth=0');
  await page.waitForSelector('#result:not([hidden])');

  // Copy as worked example; the table passes `check` appended to the ruleset.
  await page.click('#copy');
  const example = await page.inputValue('#example');
  ok(example.trimStart().startsWith('[[example]]') && example.includes('game_over = true') && example.includes('scores = ['), 'copy as worked example gives a filled-in [[example]]');
  await page.screenshot({ path: path.join(shots, '05-play-example.png'), fullPage: true });
  const checked = path.join(work, 'with-example.toml');
  fs.writeFileSync(checked, original + '\n' + example);
  execFileSync(sowkit, ['check', checked], { stdio: 'inherit' });
  ok(true, 'sowkit check accepts the copied example');

  // Live refresh: rename the game on disk; the open play page follows within a moment.
  await page.click('#restart');
  await page.waitForSelector('button.hole.legal');
  fs.writeFileSync(rulesetFile, original.replace(/^name = .*$/m, 'name = "Renamed Kalah"'));
  const t0 = Date.now();
  await page.waitForFunction(() => document.getElementById('title').textContent.includes('Renamed Kalah'), null, { timeout: 10000 });
  ok(true, 'the open play page followed the save in ' + (Date.now() - t0) + ' ms');

  // A save that changes the ruleset's language reloads the page in it, and the game goes on:
  // S3 (an extra turn) then S1 are still the moves after `lang = "es"` (check refuses that
  // save: its [text.es] is now its own language, but the rules play) and after it is undone.
  await page.click('button.hole.legal[data-move="S3"]');
  await page.waitForFunction(() => document.getElementById('moves').textContent.trim() === 'S3');
  await page.click('button.hole.legal[data-move="S1"]');
  await page.waitForFunction(() => document.getElementById('moves').textContent.trim() === 'S3 S1');
  fs.writeFileSync(rulesetFile, original.replace(/^lang = "en"/m, 'lang = "es"'));
  await page.waitForFunction(() => document.documentElement.lang === 'es' && document.getElementById('moves').textContent.trim() !== '', null, { timeout: 10000 });
  ok((await page.textContent('#moves')).trim() === 'S3 S1', 'a save switching to Spanish reloads the page in Spanish with the game kept: ' + (await page.textContent('#moves')).trim());
  fs.writeFileSync(rulesetFile, original);
  await page.waitForFunction(() => document.documentElement.lang === 'en' && document.getElementById('moves').textContent.trim() !== '', null, { timeout: 10000 });
  ok((await page.textContent('#moves')).trim() === 'S3 S1', 'and back in English, the game still kept');
  await page.click('#restart');
  await page.waitForFunction(() => document.getElementById('undo').disabled);

  // A failing save: the index page shows the located diagnostic and keeps the last good kit.
  const index = await browser.newPage({ viewport: { width: 1100, height: 700 } });
  await index.goto(base);
  const broken = original.replace(/^pits_per_side = .*$/m, 'pits_per_side = "six"');
  fs.writeFileSync(rulesetFile, broken);
  await index.waitForSelector('#diagnostic', { timeout: 10000 });
  const diag = await index.textContent('#diagnostic');
  const line = broken.split('\n').findIndex((l) => l.startsWith('pits_per_side')) + 1;
  ok(diag.includes('kalah-6x4.toml:' + line), 'the diagnostic names the file and line ' + line);
  ok(await index.isVisible('a[href="/play/kalah-6x4"]'), 'the last good kit stays listed');
  await index.screenshot({ path: path.join(shots, '06-failing-save.png'), fullPage: true });
  fs.writeFileSync(rulesetFile, original);
  await index.waitForFunction(() => !document.getElementById('diagnostic'), null, { timeout: 10000 });
  ok(true, 'fixing the file clears the diagnostic');

  // A save that makes the moves so far illegal: S3 ends in South's store (an extra turn), so
  // S1 follows; with no extra turns, S1 is North's move to make. The board goes grey with
  // nothing to click or copy; the page says it plays the saved rules although check refuses
  // the save (its worked examples expect the extra turn); undo brings back a live board.
  await page.goto(base + 'play/kalah-6x4');
  await page.click('button.hole.legal[data-move="S3"]');
  await page.waitForFunction(() => document.getElementById('moves').textContent.trim() === 'S3');
  await page.click('button.hole.legal[data-move="S1"]');
  await page.waitForFunction(() => document.getElementById('moves').textContent.trim() === 'S3 S1');
  fs.writeFileSync(rulesetFile, original.replace('on = ["last-in-own-store"]', 'on = []'));
  await page.waitForSelector('#board.stale', { timeout: 10000 });
  ok(await page.isDisabled('#copy'), 'after a save that makes the game illegal, nothing can be copied');
  ok((await page.$$('#board button:not([disabled])')).length === 0, 'and no pit of the stale board can be clicked');
  const outlined = await page.$$eval('#board .hole', (hs) => hs.filter((h) => h.matches('.legal, .legal-either') || getComputedStyle(h).boxShadow !== 'none').length);
  ok(outlined === 0, 'and no pit of the stale board is outlined as legal');
  ok((await page.textContent('#error')).includes('no longer replay'), 'the page says the moves no longer replay');
  ok(consoleErrors.length === 0, 'the moves refused after the save leave no console error (the page expects the refusal)' + (consoleErrors.length ? ': ' + consoleErrors.join('; ') : ''));
  await page.waitForSelector('#notice:not([hidden])');
  ok((await page.textContent('#notice')).includes('failed its check'), 'the page says it plays the saved rules, whose rebuild failed its check: ' + (await page.textContent('#notice')).slice(0, 90));
  await page.screenshot({ path: path.join(shots, '07-stale-board.png'), fullPage: true });
  // On a phone the notice's diagnostic stays inside the page: a worked example's position line
  // and the ^^^ under it scroll in their own box (they ran past the screen's edge). The same
  // save with example 1's expected position wrong too (South 4 4 0 → South 4 4 9).
  const longer = original.replace('on = ["last-in-own-store"]', 'on = []')
    .replace('position = "South 4 4 0 5 5 5 (1)', 'position = "South 4 4 9 5 5 5 (1)');
  fs.writeFileSync(rulesetFile, longer);
  await page.waitForFunction(() => document.getElementById('notice').textContent.includes('South 4 4 9 5 5 5'), null, { timeout: 10000 });
  const wide = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const spill = await page.evaluate(() => document.documentElement.scrollWidth);
  ok(spill <= 390, 'on a phone the diagnostic stays inside the page: page ' + spill + ' px wide at 390');
  await page.screenshot({ path: path.join(shots, '07-stale-board-phone.png'), fullPage: true });
  await page.setViewportSize(wide);
  await page.click('#undo');
  await page.waitForFunction(() => !document.getElementById('board').classList.contains('stale'));
  const next = await page.getAttribute('#status', 'data-next');
  ok(next === 'North', 'after undo the saved rules play on: ' + next + ' to move after S3 (no extra turn)');
  fs.writeFileSync(rulesetFile, original);
  await page.waitForSelector('#notice[hidden]', { state: 'attached', timeout: 10000 });
  ok(true, 'fixing the file clears the notice');

  // Either direction (Giuthi): each legal pit offers both directions.
  await page.goto(base + 'play/giuthi');
  await page.waitForSelector('.dirs button');
  const dirs = await page.$$eval('.dirs button', (bs) => bs.map((b) => b.dataset.move));
  ok(dirs.some((m) => m.endsWith('<')) && dirs.some((m) => m.endsWith('>')), 'giuthi offers both directions: ' + dirs.slice(0, 4).join(' ') + ' …');
  await page.click('.dirs button >> nth=1');
  await page.waitForSelector('.hole.sown');
  await page.screenshot({ path: path.join(shots, '08-giuthi.png'), fullPage: true });

  // On a phone (390x844) nothing on the play page is cut short with an ellipsis or clipped
  // (a pit's or store's label, the status, the report): the last hole's ring was a wider
  // border, which took the store label's room, and after a move ending in a store the
  // Spanish Kalah's "almacén Sur" showed "alma…" above an empty gap. S4's 3 seeds go to S5,
  // S6 and South's store (an extra turn).
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await phone.goto(base + 'play/kalah-6x3');
  await phone.click('button.hole.legal[data-move="S4"]');
  await phone.waitForSelector('.hole.store.last');
  const clipped = await phone.evaluate(() => Array.from(document.querySelectorAll('body *')).filter((e) => {
    const cs = getComputedStyle(e);
    const cuts = cs.textOverflow === 'ellipsis' || cs.overflowX === 'hidden' || cs.overflowX === 'clip';
    return e.getClientRects().length > 0 && cuts && e.scrollWidth > e.clientWidth;
  }).map((e) => e.className + ' "' + e.textContent + '" ' + e.scrollWidth + ' px in ' + e.clientWidth));
  const store = await phone.$eval('.hole.store.last .label', (l) => l.textContent);
  ok(clipped.length === 0, 'on a phone no text is cut short after a move into a store ("' + store + '" whole)' + (clipped.length ? ': ' + clipped.join('; ') : ''));
  const phoneWidth = await phone.evaluate(() => document.documentElement.scrollWidth);
  ok(phoneWidth <= 390, 'the Spanish play page fits the phone: ' + phoneWidth + ' px wide at 390');
  await phone.screenshot({ path: path.join(shots, '09-phone-es.png'), fullPage: true });
  console.log('screenshots in ' + shots);
} finally {
  await browser.close();
  server.kill();
  fs.rmSync(work, { recursive: true, force: true });
}
