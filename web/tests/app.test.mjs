// SPDX-License-Identifier: AGPL-3.0-or-later
// Browser tests of the web app. They drive Debian's Chromium through playwright-core against
// BASE_URL: the mock server by default (`npm test`), or a real `arbiter serve`:
//
//   BASE_URL=http://127.0.0.1:8080 node --test tests/app.test.mjs
//
// Every test here only uses docs/protocol.md, so it runs unchanged against the real server,
// except where marked:
//   [engine]    needs an engine that answers moves (the real server's engine, or the mock's);
//   [mock-only] uses a mock extra (POST /__mock/drop) and is skipped against a real server.
// Screenshots of failing tests land in web/test-results/.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE_URL, MOCK, closeBrowser, withPages, shot, clickMove, clickSquare, typeMove, waitPlies,
  lastMoveText, tabTo, arrowTo, startFromHome,
} from './helpers.mjs';

after(closeBrowser);

const noProblems = (page) => assert.deepEqual(page.problems, [], `console errors or CSP violations: ${page.problems.join(' | ')}`);

test('home page: a new user sees the new-game form and the games list, under a strict CSP', async () => {
  await withPages('home', async (open) => {
    const page = await open();
    const res = await page.goto(BASE_URL + '/');
    const csp = res.headers()['content-security-policy'] ?? '';
    assert.match(csp, /default-src 'self'/);
    await page.waitForSelector('#new-game-title');
    assert.equal(await page.locator('#new-game-title').textContent(), 'New game');
    for (const mode of ['engine', 'invite', 'local']) assert.equal(await page.locator(`input[name="mode"][value="${mode}"]`).count(), 1);
    assert.equal(await page.locator('input[name="level"]').count(), 7);
    for (const tc of ['60+0', '120+1', '180+0', '180+2', '300+0', '300+3', '600+0', '600+5', '900+10', '1800+0', '1800+20', '5400+30', '40/5400+30:1800+30', 'custom']) {
      assert.equal(await page.locator(`input[name="tc"][value="${tc}"]`).count(), 1, tc);
    }
    // Custom time control with two periods and a delay; Chess960 with a chosen number.
    await page.locator('input[name="tc"][value="custom"] + label').click();
    await page.waitForSelector('.custom-tc');
    await page.locator('input[name="delay"][value="bronstein"] + label').click();
    await page.waitForSelector('.tc-preview');
    await page.waitForSelector('#games-title');
    await shot(page, 'home-light');
    noProblems(page);
  });
});

test('[engine] game against the engine: click moves, offer a draw, resign with the Article', async () => {
  await withPages('engine', async (open) => {
    const page = await open();
    await startFromHome(page, { mode: 'engine', color: 'white', tc: '600+5', level: '2' });
    assert.match(await page.locator('.game-info').textContent(), /10\+5/);
    await page.waitForSelector('.status-line.your-turn');
    await clickMove(page, 'e2', 'e4');
    // Premove while the engine thinks: d2-d4 is legal after any Black reply to 1.e4.
    await clickMove(page, 'd2', 'd4');
    await waitPlies(page, 3); // the engine answered and the premove was played
    const moves = await page.locator('.move-list .mv').allTextContents();
    assert.equal(moves[0].trim(), 'e4');
    assert.equal(moves[2].trim(), 'd4');
    await waitPlies(page, 4);
    // Clock: White had 10:05 (increment before the first move), then +5 s after each of two moves.
    const whiteClock = await page.locator('.player[data-color="white"] .time').textContent();
    assert.match(whiteClock, /^10:(0\d|1[0-5])$/);

    await page.click('#offer-draw');
    await page.waitForFunction(() => /draw/i.test(document.querySelector('[role="log"]')?.textContent ?? ''));
    await shot(page, 'engine-game');

    await page.click('#resign');
    await page.click('#resign-yes');
    await page.waitForSelector('.result-banner:not([hidden])');
    const banner = await page.locator('.result-banner').textContent();
    assert.match(banner, /Black wins/);
    assert.match(banner, /White resigned/);
    assert.match(banner, /Article 5\.1 b/);
    await shot(page, 'engine-resigned');
    noProblems(page);
  });
});

test('promotion dialog, keyboard entry and Russian notation in a two-players-one-screen game', async () => {
  await withPages('promotion', async (open) => {
    const page = await open();
    await startFromHome(page, { mode: 'local', tc: '-' });
    // 1.e4 d5 2.exd5 c6 3.dxc6 Nf6 4.cxb7 Nbd7 5.bxa8=Q
    await clickMove(page, 'e2', 'e4');
    await waitPlies(page, 1);
    await typeMove(page, 'd7d5');
    await waitPlies(page, 2);
    await typeMove(page, 'exd5');
    await waitPlies(page, 3);
    await typeMove(page, 'с6'); // Cyrillic "с": a look-alike of c
    await waitPlies(page, 4);
    await clickMove(page, 'd5', 'c6');
    await waitPlies(page, 5);
    await typeMove(page, 'Кf6'); // Russian knight letter
    await waitPlies(page, 6);
    await typeMove(page, 'cb7');
    await waitPlies(page, 7);
    await typeMove(page, 'Nbd7');
    await waitPlies(page, 8);
    await clickMove(page, 'b7', 'a8');
    await page.waitForSelector('.promotion[role="dialog"] .promo-choice');
    await shot(page, 'promotion-dialog');
    await page.click('.promo-choice[data-role="q"]');
    await waitPlies(page, 9);
    assert.equal((await lastMoveText(page)).trim(), 'bxa8=Q');
    // The piece on a8 is a white queen.
    assert.equal(await page.locator('.cg-wrap piece.white.queen').count(), 2);
    // Russian notation, then figurine.
    await page.selectOption('#notation-select', 'ru');
    assert.equal((await lastMoveText(page)).trim(), 'bxa8Ф');
    assert.ok((await page.locator('.move-list').textContent()).includes('Кf6'));
    await page.selectOption('#notation-select', 'fig');
    assert.equal((await lastMoveText(page)).trim(), 'bxa8=♕');
    await page.selectOption('#notation-select', 'en');
    // Material by 1-3-3-5-9: White has an extra queen and rook for two pawns and a knight... just the sign here.
    assert.match(await page.locator('.player[data-color="white"] .material .adv').textContent(), /^\+\d+$/);
    // Black offers a draw, White accepts: agreement (2014: Art. 5.2 c).
    await page.click('#offer-draw');
    await page.click('#accept-draw');
    await page.waitForSelector('.result-banner:not([hidden])');
    assert.match(await page.locator('.result-banner').textContent(), /Draw by agreement.*Article 5\.2 c/);
    noProblems(page);
  });
});

test('two browsers play each other through an invitation; a spectator watches read-only', async () => {
  await withPages('invite', async (open) => {
    const anna = await open();
    await anna.goto(BASE_URL + '/');
    await anna.fill('input[autocomplete="nickname"]', 'Anna');
    await anna.locator('input[name="mode"][value="invite"] + label').click();
    await anna.locator('input[name="color"][value="white"] + label').click();
    await anna.locator('input[name="tc"][value="180+2"] + label').click();
    await Promise.all([anna.waitForURL(/\/game\//), anna.click('#play')]);
    await anna.waitForSelector('#invite-link');
    const link = await anna.inputValue('#invite-link');
    assert.match(link, /\/join\/[A-Za-z0-9]+$/);
    await shot(anna, 'invite-waiting');

    const boris = await open({ locale: 'en-GB' });
    await boris.goto(link);
    await boris.waitForSelector('#join');
    assert.match(await boris.locator('.join').textContent(), /You will play Black/);
    await boris.fill('#join-name', 'Boris');
    await Promise.all([boris.waitForURL(/\/game\//), boris.click('#join')]);
    await boris.waitForSelector('.cg-wrap.orientation-black');
    await anna.waitForSelector('#invite-link', { state: 'detached' });
    await anna.waitForFunction(() => document.querySelector('.player-top .name-text')?.textContent === 'Boris');

    // Scholar's mate: 1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7#
    const plies = [[anna, 'e2', 'e4'], [boris, 'e7', 'e5'], [anna, 'f1', 'c4'], [boris, 'b8', 'c6'], [anna, 'd1', 'h5'], [boris, 'g8', 'f6'], [anna, 'h5', 'f7']];
    for (const [i, [who, from, to]] of plies.entries()) {
      await who.waitForSelector('.status-line.your-turn');
      await clickMove(who, from, to);
      await waitPlies(anna, i + 1);
      await waitPlies(boris, i + 1);
    }
    for (const p of [anna, boris]) {
      await p.waitForSelector('.result-banner:not([hidden])');
      const text = await p.locator('.result-banner').textContent();
      assert.match(text, /White wins/);
      assert.match(text, /Checkmate/);
      assert.match(text, /Article 5\.1 a/);
    }
    assert.equal((await lastMoveText(boris)).trim(), 'Qxf7#');
    await shot(anna, 'invite-mate-white');
    await shot(boris, 'invite-mate-black');

    // PGN with clocks.
    const pgnHref = await anna.getAttribute('#pgn', 'href');
    const pgn = await (await anna.request.get(BASE_URL + pgnHref)).text();
    assert.match(pgn, /\[White "Anna"\]/);
    assert.match(pgn, /\[Black "Boris"\]/);
    assert.match(pgn, /\[Result "1-0"\]/);
    assert.match(pgn, /4\. Qxf7#\s\{\[%clk \d:\d\d:\d\d\]\}/); // PGN export wraps lines at 80

    // A third browser is a spectator: no action buttons, board not movable.
    const eve = await open();
    await eve.goto(anna.url());
    await eve.waitForSelector('.result-banner:not([hidden])');
    assert.match(await eve.locator('.status-line').textContent(), /watching/);
    assert.equal(await eve.locator('#resign, #offer-draw').count(), 0);
    assert.equal(await eve.locator('.cg-wrap.manipulable').count(), 0);
    for (const p of [anna, boris, eve]) noProblems(p);
  });
});

test('draw claims: an incorrect claim costs time, a threefold claim with an intended move ends the game (9.2)', async () => {
  await withPages('claims', async (open) => {
    const page = await open();
    await startFromHome(page, { mode: 'local', tc: '300+0' });
    await clickMove(page, 'g1', 'f3');
    await waitPlies(page, 1);
    // Black claims threefold now: wrong → penalty to White's clock (blitz: 1 minute), game goes on.
    await page.click('#claim');
    await page.click('#claim-threefold');
    await page.waitForFunction(() => /Claim rejected/.test(document.querySelector('.notice')?.textContent ?? ''));
    const white = await page.locator('.player[data-color="white"] .time').textContent();
    assert.match(white, /^[56]:\d\d$/, `White's clock after the penalty: ${white}`);
    // The rejected claim stands as Black's draw offer: White declines it.
    await page.waitForSelector('#decline-draw');
    await page.click('#decline-draw');
    await page.waitForSelector('#decline-draw', { state: 'detached' });
    const line = [['g8', 'f6'], ['f3', 'g1'], ['f6', 'g8'], ['g1', 'f3'], ['g8', 'f6'], ['f3', 'g1']];
    for (const [i, [from, to]] of line.entries()) {
      await clickMove(page, from, to);
      await waitPlies(page, i + 2);
    }
    // Black to move; Ng8 would bring the start position for the third time.
    await page.click('#claim');
    await page.click('#claim-threefold-move');
    await page.waitForSelector('#claim-cancel');
    assert.match(await page.locator('.status-line').textContent(), /intended move/);
    await clickMove(page, 'f6', 'g8');
    await page.waitForSelector('.result-banner:not([hidden])');
    const banner = await page.locator('.result-banner').textContent();
    assert.match(banner, /Draw/);
    assert.match(banner, /Threefold repetition/);
    assert.match(banner, /Article 9\.2/);
    await shot(page, 'claim-threefold');
    noProblems(page);
  });
});

test('Russian UI: chosen from the browser language, switchable, remembered', async () => {
  await withPages('russian', async (open) => {
    const page = await open({ locale: 'ru-RU' });
    await page.goto(BASE_URL + '/');
    await page.waitForSelector('#new-game-title');
    assert.equal(await page.locator('#new-game-title').textContent(), 'Новая партия');
    assert.equal(await page.locator('html').getAttribute('lang'), 'ru');
    assert.match(await page.locator('.new-game').textContent(), /Контроль времени/);
    await shot(page, 'home-ru');
    await startFromHome(page, { mode: 'local', tc: '900+10' });
    assert.match(await page.locator('.status-line').textContent(), /Ход белых/);
    await typeMove(page, 'Кf3');
    await waitPlies(page, 1);
    await page.selectOption('#notation-select', 'ru');
    assert.equal((await lastMoveText(page)).trim(), 'Кf3');
    await page.click('#resign');
    assert.match(await page.locator('.confirm').textContent(), /Сдать партию/);
    await page.click('#resign-yes');
    await page.waitForSelector('.result-banner:not([hidden])');
    assert.match(await page.locator('.result-banner').textContent(), /Белые выиграли|Чёрные выиграли/);
    assert.match(await page.locator('.result-banner').textContent(), /статья 5\.1 b/);
    await shot(page, 'game-ru');
    // Switch to English; it is remembered across a reload.
    await page.selectOption('#set-lang', 'en');
    assert.match(await page.locator('.result-banner').textContent(), /resigned/);
    await page.reload();
    await page.waitForSelector('.result-banner:not([hidden])');
    assert.match(await page.locator('.result-banner').textContent(), /Article 5\.1 b/);
    noProblems(page);
  });
});

test('accessible mode by keyboard alone: typed moves and commands, announcements, visible focus', async () => {
  await withPages('a11y', async (open) => {
    const page = await open();
    await page.goto(BASE_URL + '/');
    await page.waitForSelector('#new-game-title');
    await tabTo(page, '#set-a11y');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(outline, 'none', 'the focused control shows a focus ring');
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute('#set-a11y', 'aria-pressed'), 'true');
    // Choose "One screen" with the arrow keys, "no clock" too, then Play.
    await tabTo(page, 'input[name="mode"]');
    await arrowTo(page, 'local');
    await tabTo(page, 'input[name="tc"]');
    await arrowTo(page, '-');
    await tabTo(page, '#play');
    await Promise.all([page.waitForURL(/\/game\//), page.keyboard.press('Enter')]);
    await page.waitForSelector('#a11y-command');
    await tabTo(page, '#a11y-command');
    const log = page.locator('[role="log"]');
    const say = async (text, expect) => {
      await page.keyboard.type(text);
      await page.keyboard.press('Enter');
      await page.waitForFunction(([re]) => new RegExp(re).test(document.querySelector('[role="log"]').textContent), [expect.source]);
    };
    await say('help', /Commands: board/);
    await say('e4', /White: Pawn e4/);
    await say('e5', /Black: Pawn e5/);
    await say('Nf3', /White: Knight f3/);
    await say('board', /Rank 8: a8 black rook, b8 black knight/);
    assert.match(await log.textContent(), /Rank 3: f3 white knight\./);
    assert.match(await log.textContent(), /Rank 6: empty\./);
    await say('p N', /White knight: b1, f3\./);
    await say('scan e', /File e: e1 white king, e2 empty, e3 empty, e4 white pawn, e5 black pawn/);
    await say('last', /Last move: White, Knight f3/);
    await say('legal', /Legal moves: .*Nc6/);
    await say('fen', /rnbqkbnr\/pppp1ppp\/8\/4p3\/4P3\/5N2\/PPPP1PPP\/RNBQKB1R b KQkq - 1 2/);
    await say('Zz9', /Cannot read that move/);
    await say('resign', /Type yes to confirm/);
    await say('yes', /White wins\. Black resigned\. FIDE Laws 2014, Article 5\.1 b/);
    // The board is hidden from screen readers in this mode; the command field is labelled.
    assert.equal(await page.getAttribute('.board-wrap', 'aria-hidden'), 'true');
    assert.equal(await page.locator('label[for="a11y-command"]').textContent(), 'Move or command');
    await shot(page, 'a11y-game');
    noProblems(page);
  });
});

test('Chess960 with a chosen position number; a phone-sized screen in the dark theme', async () => {
  await withPages('chess960', async (open) => {
    const page = await open({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    await page.goto(BASE_URL + '/');
    await page.locator('input[name="mode"][value="local"] + label').click();
    await page.locator('input[name="tc"][value="600+0"] + label').click();
    await page.selectOption('.rules-grid select >> nth=0', 'chess960');
    await page.locator('.c960 input[type="checkbox"]').uncheck();
    await page.fill('.c960 input[type="number"]', '0');
    await Promise.all([page.waitForURL(/\/game\//), page.click('#play')]);
    await page.waitForSelector('.cg-wrap cg-board piece');
    assert.match(await page.locator('.game-info').textContent(), /Chess960 #0/);
    // Position 0 is BBQNNRKR.
    const back = await page.evaluate(async () => {
      const id = location.pathname.split('/').pop();
      const s = await (await fetch(`/api/games/${id}`)).json();
      return s.initial_fen.split('/')[7].split(' ')[0];
    });
    assert.equal(back, 'BBQNNRKR');
    assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');
    const board = await page.locator('.cg-wrap').boundingBox();
    assert.ok(board.width > 340 && board.width <= 390, `board width ${board.width}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling (${overflow}px)`);
    await clickMove(page, 'd1', 'c3');
    await waitPlies(page, 1);
    assert.equal((await lastMoveText(page)).trim(), 'Nc3');
    await shot(page, 'phone-dark-960');
    noProblems(page);
  });
});

test('[mock-only] reconnect: a notice while the socket is down, missed moves caught up by seq', { skip: !MOCK && 'needs the mock server' }, async () => {
  await withPages('reconnect', async (open) => {
    const page = await open();
    await startFromHome(page, { mode: 'local', tc: '-' });
    await clickMove(page, 'e2', 'e4');
    await waitPlies(page, 1);
    const id = page.url().split('/').pop();
    await page.request.post(`${BASE_URL}/__mock/drop/${id}`);
    await page.waitForSelector('.conn-notice:not([hidden])');
    assert.match(await page.locator('.conn-notice').textContent(), /Reconnecting/);
    await page.waitForSelector('.conn-notice[hidden]', { state: 'attached', timeout: 15000 });
    await clickMove(page, 'e7', 'e5');
    await waitPlies(page, 2);
    noProblems(page);
  });
});

test('touch-move: touching a piece restricts the legal moves to it (Art. 4.3)', async () => {
  await withPages('touch', async (open) => {
    const page = await open();
    await page.goto(BASE_URL + '/');
    await page.locator('input[name="mode"][value="local"] + label').click();
    await page.locator('input[name="tc"][value="-"] + label').click();
    await page.check('.rules-grid input[type="checkbox"] >> nth=-1');
    await Promise.all([page.waitForURL(/\/game\//), page.click('#play')]);
    await page.waitForSelector('.cg-wrap cg-board piece');
    assert.match(await page.locator('.game-info').textContent(), /touch-move/);
    await clickSquare(page, 'g1');
    await page.waitForFunction(() => /Touched: g1/.test(document.querySelector('.status-line')?.textContent ?? ''));
    const r = await page.evaluate(async () => {
      const id = location.pathname.split('/').pop();
      const s = await (await fetch(`/api/games/${id}`)).json();
      return { touched: s.touched, froms: [...new Set(s.legal_moves.map((m) => m.from))] };
    });
    assert.deepEqual(r, { touched: 'g1', froms: ['g1'] });
    await typeMove(page, 'e4');
    await page.waitForFunction(() => /You must move the piece you touched/.test(document.querySelector('.notice')?.textContent ?? ''));
    await clickSquare(page, 'f3');
    await waitPlies(page, 1);
    assert.equal((await lastMoveText(page)).trim(), 'Nf3');
    noProblems(page);
  });
});

// Testers' report (H2, 5, 2, 4; doubtful points: the engine levels' names).
test('home: each preset names its class under the Laws, each engine level its name; an unknown player; a refused name in Russian', async () => {
  await withPages('home-words', async (open) => {
    const page = await open();
    await page.goto(BASE_URL + '/');
    const preset = (tc) => page.locator(`input[name="tc"][value="${tc}"] + label`);
    // The class the server applies (Appendices A.1, B.1): 10+0 is blitz, 30+20 rapid, 90+30 standard.
    assert.equal(await preset('600+0').textContent(), '10+0Blitz');
    assert.equal(await preset('1800+20').textContent(), '30+20Rapid');
    assert.equal(await preset('1800+0').textContent(), '30+0Rapid');
    assert.equal(await preset('60+0').textContent(), '1+0Blitz');
    assert.equal(await preset('5400+30').textContent(), '90+30Standard');
    assert.match(await preset('600+0').getAttribute('title'), /^Blitz under the FIDE Laws: 10 minutes or less/);
    assert.doesNotMatch(await page.locator('.preset-grid').textContent(), /Bullet|Classical/);
    // An engine level's accessible name is its name, not the bare figures "3 1950".
    assert.equal(await page.getByRole('radio', { name: 'Level 3, UCI_Elo 1950', exact: true }).count(), 1);
    assert.equal(await page.getByRole('radio', { name: 'Full strength', exact: true }).count(), 1);

    // A player's page that does not exist: no such player, not "no game with this link".
    await page.goto(BASE_URL + '/@/nosuchplayer');
    await page.waitForSelector('.profile [role="alert"]');
    assert.equal(await page.locator('.profile [role="alert"]').textContent(), 'There is no player with this name.');

    const ru = await open({ locale: 'ru-RU' });
    await ru.goto(BASE_URL + '/@/nosuchplayer');
    await ru.waitForSelector('.profile [role="alert"]');
    assert.equal(await ru.locator('.profile [role="alert"]').textContent(), 'Игрока с таким именем нет.');
    await ru.goto(BASE_URL + '/');
    assert.equal(await ru.locator('input[name="tc"][value="5400+30"] + label').textContent(), '90+30Стандарт');
    // A name the server refuses (an invisible character): the field's rule in Russian, no English.
    await ru.locator('input[name="mode"][value="local"] + label').click();
    await ru.locator('input[name="tc"][value="600+0"] + label').click();
    await ru.fill('input[autocomplete="nickname"]', 'A\u200Bnna');
    await ru.click('#play');
    await ru.waitForFunction(() => document.querySelector('.new-game .form-message')?.textContent);
    const msg = await ru.locator('.new-game .form-message').textContent();
    assert.match(msg, /^Имя: не длиннее 40 символов, без невидимых символов/);
    assert.doesNotMatch(msg, /[A-Za-z]{3,}|настройки/);
    await ru.fill('input[autocomplete="nickname"]', '');
    // The player's page answered 404 (protocol §8): the only message in the console.
    assert.deepEqual(page.problems.filter((p) => !/status of 404/.test(p)), []);
  });
});

// Testers' report (H2, 3, 9) and a doubtful point (the ambiguous move's candidates).
test('Russian one-screen game: the delay counts down with a decimal comma; an ambiguous move lists the candidates; a claim with an intended move is said plainly', async () => {
  await withPages('claim-words', async (open) => {
    const page = await open({ locale: 'ru-RU' });
    await page.goto(BASE_URL + '/');
    // A simple delay of 10 s (protocol §3.1): made through the API, as the home form makes it.
    const url = await page.evaluate(async () => {
      const res = await fetch('/api/games', {
        method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ mode: 'local', color: 'white', time_control: '300+0', delay: { kind: 'simple', ms: 10000 }, variant: 'standard', edition: '2014', touch_move: false }),
      });
      return (await res.json()).url;
    });
    await page.goto(BASE_URL + url);
    await page.waitForSelector('.cg-wrap cg-board piece');
    await typeMove(page, 'd4');
    await waitPlies(page, 1);
    // Black's clock waits out the delay: «задержка 9,8 с», not «9.8».
    await page.waitForFunction(() => /задержка \d+,\d с/.test(document.querySelector('.player[data-color="black"] .clock-sub')?.textContent ?? ''));
    for (const [i, san] of ['d5', 'Кf3', 'Кf6'].entries()) {
      await typeMove(page, san);
      await waitPlies(page, i + 2);
    }
    // Nb1-d2 and Nf3-d2: the server lists both; the page names them in the Russian notation.
    await typeMove(page, 'Кd2');
    await page.waitForFunction(() => document.querySelector('.notice')?.textContent);
    assert.equal(await page.locator('.notice').textContent(), 'Ход «Кd2» неоднозначен: Кbd2, Кfd2.');

    // Claiming with an intended move: the claim in words, not «Троекратное повторение, требование:».
    await page.click('#claim');
    await page.click('#claim-threefold-move');
    assert.equal(await page.locator('.status-line').textContent(),
      'Требование ничьей (троекратное повторение позиции): сделайте задуманный ход на доске или введите его. Ход записывается, но делается, только если требование отклонят.');
    await page.click('#claim-cancel');
    await page.selectOption('#set-lang', 'en');
    await page.click('#claim');
    await page.click('#claim-fifty-move');
    assert.match(await page.locator('.status-line').textContent(), /^Claiming a draw by the 50-move rule: make your intended move/);
    noProblems(page);
  });
});
