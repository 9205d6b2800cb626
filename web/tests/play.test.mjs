// SPDX-License-Identifier: AGPL-3.0-or-later
// Browser tests of the game page's hardening (issue 13): a move made while the server is down
// is taken back and the page shows the server's state after the reconnection; move navigation
// and replay (mouse, keys, accessible mode), flipping; the layout and focus defects of part 8.
// Run with the rest (`npm test`, or tests/browser.rs against the real server). Marks as in
// app.test.mjs; [server] needs the real server binary in ARBITER_SERVER (browser.sh sets it):
// the test starts, kills and restarts its own `arbiter serve` on one data directory.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BASE_URL, closeBrowser, withPages, shot, clickMove, typeMove, waitPlies, startFromHome,
  pieceOn, waitPiece, boxOf,
} from './helpers.mjs';

after(closeBrowser);

const noProblems = (page) => assert.deepEqual(page.problems.filter((p) => !/ERR_CONNECTION_REFUSED|WebSocket connection/.test(p)), [], `console errors: ${page.problems.join(' | ')}`);
const logText = (page) => page.locator('[role="log"]').textContent();
const waitLast = (page, re) => page.waitForFunction(([src]) => new RegExp(src).test(document.querySelector('[role="log"]')?.lastElementChild?.textContent ?? ''), [re.source]);
const waitLog = (page, re) => page.waitForFunction(([src]) => new RegExp(src).test(document.querySelector('[role="log"]')?.textContent ?? ''), [re.source]);

/** `arbiter serve` on `listen` with `dir` as its data directory; resolves once it serves. */
function startServer(bin, dir, listen) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['--listen', listen, '--data-dir', dir, '--create-per-minute', '0',
      '--max-connections-per-address', '0', '--max-spectators-per-address', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`the server did not start: ${log}`)); }, 30000);
    child.stderr.on('data', (d) => {
      log += d;
      // Only a complete address: stderr may arrive cut in the middle of the port.
      const m = /serving (http:\/\/[0-9.:]+)[^0-9.:]/.exec(log);
      if (m) { clearTimeout(timer); resolve({ child, url: m[1] }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`the server exited (${code}): ${log}`)); });
  });
}

function kill(server) {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) { resolve(); return; }
    server.child.removeAllListeners('exit');
    server.child.on('exit', () => resolve());
    server.child.kill('SIGKILL');
  });
}

const SERVER_BIN = process.env.ARBITER_SERVER;

test('[server] a move made while the server is down is taken back; after the restart the page shows the server state', { skip: !SERVER_BIN && 'needs ARBITER_SERVER (the real server binary)' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-playui-reconnect-'));
  let server = await startServer(SERVER_BIN, dir, '127.0.0.1:0');
  const listen = server.url.replace('http://', '');
  try {
    await withPages('reconnect-mid-move', async (open) => {
      const page = await open();
      await startFromHome(page, { mode: 'local', tc: '300+0', base: server.url });
      await clickMove(page, 'e2', 'e4');
      await waitPlies(page, 1);
      const clockBefore = await boxOf(page, '.player-bottom .clock');
      await kill(server);
      await page.waitForSelector('.conn-notice:not([hidden])');
      assert.match(await page.locator('.conn-notice').textContent(), /Reconnecting/);
      // The notice lies over the page: the lower clock does not move (defect 8).
      assert.deepEqual(await boxOf(page, '.player-bottom .clock'), clockBefore);
      // Black's e7-e5 on the board while the server is down: taken back at once.
      await clickMove(page, 'e7', 'e5');
      // chessground reports a move to the page a timer tick after the click: wait for the page's
      // answer before looking at the board, or the board may not have moved yet.
      await page.waitForFunction(() => /Not sent/.test(document.querySelector('.notice')?.textContent ?? ''));
      assert.equal(await waitPiece(page, 'e7', 'black pawn'), 'black pawn', 'the pawn is back on e7');
      assert.equal(await waitPiece(page, 'e5', null), null, 'e5 is empty');
      assert.match(await page.locator('.notice').textContent(), /Not sent/);
      await shot(page, 'reconnect-down');

      server = await startServer(SERVER_BIN, dir, listen);
      await page.waitForSelector('.conn-notice[hidden]', { state: 'attached', timeout: 20000 });
      // No stale "Reconnecting" or "Not sent" notice after the reconnection.
      await page.waitForFunction(() => !/Reconnecting|Not sent/.test(document.querySelector('.notice')?.textContent ?? ''));
      assert.equal(await page.locator('.move-list .mv').count(), 1);
      assert.match(await page.locator('.status-line').textContent(), /Black to move/);
      assert.equal(await waitPiece(page, 'e7', 'black pawn'), 'black pawn');
      assert.equal(await waitPiece(page, 'e4', 'white pawn'), 'white pawn');
      // The move can be made again, and it arrives once.
      await clickMove(page, 'e7', 'e5');
      await waitPlies(page, 2);
      assert.equal(await waitPiece(page, 'e5', 'black pawn'), 'black pawn');
      const id = page.url().split('/').pop();
      // The server's record (asked again while it may still be resuming the game).
      let body = '';
      for (let i = 0; i < 20; i++) {
        const res = await page.request.get(`${server.url}/api/games/${id}`);
        body = await res.text();
        if (res.ok()) break;
        await page.waitForTimeout(250);
      }
      assert.deepEqual(JSON.parse(body).moves.map((m) => m.san), ['e4', 'e5'], body);
      assert.deepEqual((await page.locator('.move-list .mv').allTextContents()).map((x) => x.trim()), ['e4', 'e5']);
      noProblems(page);
    });
  } finally {
    await kill(server);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('move navigation: click a move, arrow keys, Home/End; the live game goes on; flip; Russian', async () => {
  await withPages('replay-live', async (open) => {
    const anna = await open();
    await anna.goto(BASE_URL + '/');
    await anna.locator('input[name="mode"][value="invite"] + label').click();
    await anna.locator('input[name="color"][value="white"] + label').click();
    await anna.locator('input[name="tc"][value="600+0"] + label').click();
    await Promise.all([anna.waitForURL(/\/game\//), anna.click('#play')]);
    const link = await anna.inputValue('#invite-link');
    const boris = await open({ locale: 'ru-RU' });
    await boris.goto(link);
    await Promise.all([boris.waitForURL(/\/game\//), boris.click('#join')]);
    await boris.waitForSelector('.cg-wrap.orientation-black');
    const plies = [[anna, 'e2', 'e4'], [boris, 'e7', 'e5'], [anna, 'g1', 'f3']];
    for (const [i, [who, from, to]] of plies.entries()) {
      await who.waitForSelector('.status-line.your-turn');
      await clickMove(who, from, to);
      await waitPlies(anna, i + 1);
      await waitPlies(boris, i + 1);
    }
    // Boris clicks White's first move: the position after 1.e4, a clear "viewing" state.
    await boris.click('.move-list .mv[data-ply="1"]');
    await boris.waitForSelector('.viewing-banner:not([hidden])');
    assert.match(await boris.locator('.viewing-banner').textContent(), /Просмотр: ход 1\. e4/);
    assert.match(await boris.locator('#back-live').textContent(), /К партии/);
    assert.equal(await waitPiece(boris, 'e5', null), null, 'after 1.e4 e5 is empty');
    assert.equal(await waitPiece(boris, 'e7', 'black pawn'), 'black pawn');
    assert.equal(await waitPiece(boris, 'e4', 'white pawn'), 'white pawn');
    // Arrow left: the start position (Home too); arrow right twice: after 1...e5.
    await boris.locator('.board-wrap').focus();
    await boris.keyboard.press('ArrowLeft');
    assert.equal(await waitPiece(boris, 'e2', 'white pawn'), 'white pawn');
    assert.match(await boris.locator('.viewing-banner').textContent(), /начальная позиция/);
    await boris.keyboard.press('Home');
    assert.equal(await waitPiece(boris, 'e2', 'white pawn'), 'white pawn');
    await boris.keyboard.press('ArrowRight');
    await boris.keyboard.press('ArrowRight');
    assert.equal(await waitPiece(boris, 'e5', 'black pawn'), 'black pawn', 'after 1...e5');
    assert.equal(await waitPiece(boris, 'f3', null), null, 'before 2.Nf3');
    // End: back to the live position, and Boris (to move) plays.
    await boris.keyboard.press('End');
    await boris.waitForSelector('.viewing-banner[hidden]', { state: 'attached' });
    assert.equal(await waitPiece(boris, 'f3', 'white knight'), 'white knight');
    // Anna looks back at 1.e4 while Boris plays 2...Nc6: her view stays put, the list grows.
    await anna.click('.move-list .mv[data-ply="1"]');
    await anna.waitForSelector('.viewing-banner:not([hidden])');
    assert.match(await anna.locator('.viewing-banner').textContent(), /Viewing move 1\. e4/);
    await clickMove(boris, 'b8', 'c6');
    await waitPlies(anna, 4);
    assert.ok(await anna.locator('.viewing-banner').isVisible(), 'still viewing');
    assert.equal(await waitPiece(anna, 'e5', null), null, 'still the position after 1.e4');
    assert.equal(await waitPiece(anna, 'c6', null), null);
    assert.equal(await waitPiece(anna, 'b8', 'black knight'), 'black knight');
    // While viewing nothing moves on the board.
    await clickMove(anna, 'f1', 'c4');
    await anna.waitForTimeout(300);
    assert.equal(await anna.locator('.move-list .mv').count(), 4);
    await anna.keyboard.press('End');
    await anna.waitForSelector('.viewing-banner[hidden]', { state: 'attached' });
    assert.equal(await waitPiece(anna, 'c6', 'black knight'), 'black knight');
    await clickMove(anna, 'f1', 'c4');
    await waitPlies(boris, 5);
    // Flip the board.
    await anna.click('#flip');
    await anna.waitForSelector('.cg-wrap.orientation-black');
    assert.equal(await waitPiece(anna, 'c4', 'white bishop'), 'white bishop');
    assert.equal(await anna.locator('.player-bottom').getAttribute('data-color'), 'black');
    await shot(anna, 'replay-flipped');
    for (const p of [anna, boris]) noProblems(p);
  });
});

test('a finished game replays; the result stays; no move entry after the end; the h1', async () => {
  await withPages('replay-finished', async (open) => {
    const page = await open();
    await startFromHome(page, { mode: 'local', tc: '-' });
    assert.equal(await page.locator('h1').count(), 1, 'one h1 on the game page');
    assert.match(await page.locator('h1').textContent(), /–/);
    // After Play the keyboard is on the board, not on <body>.
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('board-wrap')), true);
    for (const [i, mv] of ['f3', 'e5', 'g4', 'Qh4#'].entries()) {
      await typeMove(page, mv);
      await waitPlies(page, i + 1);
    }
    await page.waitForSelector('.result-banner:not([hidden])');
    assert.equal(await page.locator('#move-input').count(), 0, 'no move entry once the game is over');
    await page.click('#nav-first');
    await page.waitForSelector('.viewing-banner:not([hidden])');
    assert.equal(await waitPiece(page, 'f2', 'white pawn'), 'white pawn');
    assert.match(await page.locator('#back-live').textContent(), /final position/);
    for (const [sq, piece] of [['f3', 'white pawn'], ['e5', 'black pawn'], ['g4', 'white pawn'], ['h4', 'black queen']]) {
      await page.click('#nav-next');
      assert.equal(await waitPiece(page, sq, piece), piece, `${sq} after the next move`);
    }
    await page.waitForSelector('.viewing-banner[hidden]', { state: 'attached' });
    await page.click('#nav-prev');
    assert.equal(await waitPiece(page, 'd8', 'black queen'), 'black queen');
    assert.match(await page.locator('.result-banner').textContent(), /Checkmate/);
    noProblems(page);
  });
});

test('accessible mode: replay by keyboard, read out; the engine\'s first move as White is announced', async () => {
  await withPages('a11y-replay', async (open) => {
    const page = await open();
    await page.goto(BASE_URL + '/');
    await page.click('#set-a11y');
    await startFromHome(page, { mode: 'local', tc: '-' });
    // Focus on the command field after Play.
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'a11y-command');
    const say = async (text, re) => {
      await page.keyboard.type(text);
      await page.keyboard.press('Enter');
      await waitLog(page, re);
    };
    await say('e4', /White: Pawn e4/);
    await say('e5', /Black: Pawn e5/);
    await page.keyboard.press('ArrowLeft');
    await waitLast(page, /^Move 1, White: Pawn e4\.$/);
    await say('board', /Rank 5: empty\./);
    assert.match(await logText(page), /Rank 4: e4 white pawn\./);
    await page.keyboard.press('ArrowLeft');
    await waitLast(page, /Viewing the start position/);
    await say('scan e', /File e: e1 white king, e2 white pawn, e3 empty, e4 empty/);
    await page.keyboard.type('next');
    await page.keyboard.press('Enter');
    await waitLast(page, /^Move 1, White: Pawn e4\.$/);
    await say('now', /Back to the live position\./);
    await say('board', /Rank 5: e5 black pawn\./);

    // The engine plays first when the player takes Black: it is read out.
    await startFromHome(page, { mode: 'engine', color: 'black', tc: '300+3', level: '1' });
    await waitLog(page, /White: (Pawn|Knight) [a-h][34]/);
    noProblems(page);
  });
});

test('layout: the own clock on screen at 900×700 and still when notices come; a declined offer is shown', async () => {
  await withPages('layout', async (open) => {
    for (const viewport of [{ width: 900, height: 700 }, { width: 1280, height: 860 }, { width: 1024, height: 640 }]) {
      const page = await open({ viewport });
      await startFromHome(page, { mode: 'local', tc: '300+0' });
      await typeMove(page, 'e4');
      await waitPlies(page, 1);
      const clock = await boxOf(page, '.player-bottom .clock');
      assert.ok(clock.top >= 0 && clock.bottom <= viewport.height, `the lower clock ${JSON.stringify(clock)} is inside ${viewport.width}×${viewport.height}`);
      assert.ok(clock.right <= viewport.width, `the lower clock is not cut at the right (${clock.right})`);
      // A notice (an unreadable move) does not move the lower clock.
      await typeMove(page, 'Zz9');
      await page.waitForFunction(() => /Cannot read/.test(document.querySelector('.notice')?.textContent ?? ''));
      assert.deepEqual(await boxOf(page, '.player-bottom .clock'), clock, `at ${viewport.width}×${viewport.height}`);
      // A declined draw offer is shown on the page, not only to screen readers.
      await page.click('#offer-draw');
      await page.click('#decline-draw');
      await page.waitForFunction(() => /declined the draw offer/.test(document.querySelector('.notice')?.textContent ?? ''));
      assert.ok(await page.locator('.notice').isVisible());
      assert.deepEqual(await boxOf(page, '.player-bottom .clock'), clock, `after the decline at ${viewport.width}×${viewport.height}`);
      await shot(page, `layout-${viewport.width}x${viewport.height}`);
      noProblems(page);
    }
  });
});

test('Russian at 390 px: "Компьютер" and "Случайно" fit their buttons; spectators get no move entry', async () => {
  await withPages('ru-phone', async (open) => {
    const page = await open({ locale: 'ru-RU', viewport: { width: 390, height: 844 } });
    await page.goto(BASE_URL + '/');
    await page.waitForSelector('#new-game-title');
    await page.locator('input[name="mode"][value="engine"] + label').click();
    const overflow = await page.evaluate(() => [...document.querySelectorAll('.radios.modes label, .radios.colors label')].map((l) => {
      const text = l.querySelector('.opt-main');
      const lr = l.getBoundingClientRect();
      const tr = text.getBoundingClientRect();
      return { text: text.textContent, over: Math.max(l.scrollWidth - l.clientWidth, tr.right - lr.right, lr.left - tr.left) };
    }).filter((x) => x.over > 0.5));
    assert.deepEqual(overflow, [], 'no label text overflows its button');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    await shot(page, 'home-ru-390');
    // A spectator of a game: no move-entry field.
    await Promise.all([page.waitForURL(/\/game\//), page.click('#play')]);
    const url = page.url();
    const eve = await open({ locale: 'ru-RU', viewport: { width: 390, height: 844 } });
    await eve.goto(url);
    await eve.waitForSelector('.cg-wrap cg-board piece');
    assert.equal(await eve.locator('#move-input').count(), 0, 'no move entry for a spectator');
    assert.equal(await eve.locator('h1').count(), 1);
    noProblems(page);
    noProblems(eve);
  });
});
