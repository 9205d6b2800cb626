// SPDX-License-Identifier: AGPL-3.0-or-later
// A 6-player Swiss of 3 rounds at 1+0 played through the browser to the end against a real
// `arbiter serve` (run by tests/browser.rs; skipped against the mock): an organiser and six
// players, each in a browser context of their own, sign up; the organiser creates the event
// (pairing on the organiser's click), the players register, one asks in advance for a
// half-point bye in round 2 (C.04.1), one never comes to the board in round 1 and loses by
// default (FIDE Laws Art. 6.7: `-` in the TRF, `+` for the opponent), each round's games are
// played from each player's "your game" link, the organiser corrects a result of the last
// round once the event has ended by itself. Before every round the TRF downloaded from the page is paired by
// `arbiter tournament pair` and the round the server pairs must be that one; at the end the
// TRF passes `arbiter tournament check` (C.04 A.4) and `arbiter tournament standings` equals
// the page's standings (C.07). The CLI is $ARBITER_CLI (tests/browser.rs sets it).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_URL, MOCK, closeBrowser, withPages, shot, clickMove, waitPlies, signUp } from './helpers.mjs';

after(closeBrowser);

const CLI = process.env.ARBITER_CLI;
const DEFAULT_TIME_S = 15;
const dir = mkdtempSync(join(tmpdir(), 'arbiter-events-'));
const text = async (page, sel) => ((await page.locator(sel).textContent()) ?? '').trim();
const cli = (...args) => execFileSync(CLI, ['tournament', ...args], { encoding: 'utf8', timeout: 20000 });

/** Download the event's TRF by its link on the page; returns the file's path. */
async function downloadTrf(page, name) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-trf')]);
  const path = join(dir, `${name}.trf`);
  await download.saveAs(path);
  return path;
}

/** `arbiter tournament pair`'s answer: [[white, black]…], the bye as [id, 0]. */
function oraclePairs(trf) {
  const lines = cli('pair', trf).trim().split('\n');
  const n = Number(lines[0]);
  const pairs = lines.slice(1).map((l) => l.trim().split(/\s+/).map(Number));
  assert.equal(pairs.length, n, `pair printed ${n} pairs: ${lines.join(' | ')}`);
  return pairs;
}

/** Round `r` of a TRF player line: opponent number, colour, result (columns 92–99). */
function trfRound(trf, no, r) {
  const line = trf.split('\n').find((l) => l.startsWith('001') && Number(l.slice(4, 8)) === no);
  assert.ok(line, `TRF has player ${no}`);
  const cell = line.slice(91 + 10 * (r - 1), 99 + 10 * (r - 1));
  return { opponent: Number(cell.slice(0, 4)), colour: cell[5], result: cell[7] };
}

/** The page's players: starting number by name. */
async function numbers(page) {
  const out = new Map();
  for (const row of await page.locator('#players-table tbody tr').all()) {
    const name = (await row.locator('th').textContent()).replace(/ \(.*\)$/, '').trim();
    out.set(name, Number(await row.getAttribute('data-no')));
  }
  return out;
}

/** Round `r` as the page shows it: [{board, white, black, result}] by name, and the byes. */
async function roundOnPage(page, r) {
  const sec = page.locator(`.round[data-round="${r}"]`);
  await sec.waitFor();
  const games = [];
  for (const row of await sec.locator('tbody tr').all()) {
    games.push({
      board: Number(await row.getAttribute('data-board')),
      white: (await row.locator('.white').textContent()).trim(),
      black: (await row.locator('.black').textContent()).trim(),
      result: (await row.locator('.result').textContent()).trim(),
    });
  }
  const byes = (await sec.locator('.byes').count()) ? await sec.locator('.byes').textContent() : '';
  return { games, byes };
}

/** The round on the page must be `arbiter tournament pair`'s, board by board (C.04.3). */
async function assertPairing(page, r, expected) {
  const nos = await numbers(page);
  const { games, byes } = await roundOnPage(page, r);
  const got = games.map((g) => [nos.get(g.white), nos.get(g.black)]);
  const want = expected.filter(([, b]) => b !== 0);
  assert.deepEqual(got, want, `round ${r}: the page's pairing is arbiter tournament pair's`);
  for (const [bye] of expected.filter(([, b]) => b === 0)) {
    const name = [...nos].find(([, no]) => no === bye)[0];
    assert.ok(byes.includes(name), `round ${r}: ${name} has the pairing-allocated bye (${byes})`);
  }
}

/** The player's event page announces round `round`'s game (by polling); its link opens it. */
async function goToYourGame(p, round) {
  await p.waitForFunction((r) => new RegExp(`^(Round|Тур) ${r}:`).test(document.querySelector('#your-game p')?.textContent ?? ''), round, { timeout: 20000 });
  await Promise.all([p.waitForURL(/\/game\//), p.click('#your-game-link')]);
}

/** One board, from both players' "your game" links: White wins, Black wins, or a draw. */
async function playBoard(round, white, black, outcome) {
  for (const p of [white, black]) await goToYourGame(p, round);
  await white.waitForSelector('.cg-wrap.orientation-white');
  await black.waitForSelector('.cg-wrap.orientation-black');
  for (const [i, [who, from, to]] of [[white, 'e2', 'e4'], [black, 'e7', 'e5']].entries()) {
    await who.waitForSelector('.status-line.your-turn');
    await clickMove(who, from, to);
    await waitPlies(white, i + 1);
    await waitPlies(black, i + 1);
  }
  if (outcome === 'draw') {
    await white.click('#offer-draw');
    await black.waitForSelector('#accept-draw');
    await black.click('#accept-draw');
  } else {
    const loser = outcome === 'white' ? black : white;
    await loser.click('#resign');
    await loser.click('#resign-yes');
  }
  for (const p of [white, black]) await p.waitForSelector('.result-banner:not([hidden])');
}

/** A board whose Black never comes (Art. 6.7): White arrives, moves, and wins by default. */
async function playNoShow(round, white) {
  await goToYourGame(white, round);
  await white.waitForSelector('.status-line.your-turn');
  await clickMove(white, 'e2', 'e4');
  await white.waitForSelector('.result-banner:not([hidden])', { timeout: (DEFAULT_TIME_S + 30) * 1000 });
}

// Until the server has events, say so and skip (GET /api/events answers 404 `not_found`).
const noEvents = MOCK || !CLI ? false : await fetch(`${BASE_URL}/api/events`).then((r) => r.status === 404, () => false);
if (noEvents) console.log('SKIPPED events.test.mjs: this arbiter serve has no /api/events');

test('a 6-player Swiss of 3 rounds at 1+0 played to the end in the browser (C.04.3, C.07, Art. 6.7)', { skip: (MOCK && 'needs a real arbiter serve') || (!CLI && 'set ARBITER_CLI to the arbiter binary') || (noEvents && 'the server has no events') }, async () => {
  const suffix = Date.now().toString(36).slice(-4);
  const eventName = `Browser Swiss ${suffix}`;
  await withPages('events', async (open) => {
    const org = await open();
    await signUp(org, `Arb${suffix}`);
    await org.goto(`${BASE_URL}/events`);
    await org.waitForSelector('#event-form');
    await org.fill('#ev-name', eventName);
    await org.selectOption('#ev-system', 'swiss');
    await org.fill('#ev-rounds', '3');
    await org.fill('#ev-minutes', '1');
    await org.fill('#ev-increment', '0');
    await org.fill('#ev-default-time', String(DEFAULT_TIME_S));
    await org.uncheck('#ev-auto');
    await org.check('#ev-rated');
    await Promise.all([org.waitForURL(/\/event\/[A-Za-z0-9_-]+$/), org.click('#ev-create')]);
    const url = org.url();
    await org.waitForFunction((n) => document.querySelector('#event-title')?.textContent === n, eventName);
    assert.match(await text(org, '#event-summary'), /Swiss \(Dutch\) · 3 rounds · 1\+0 · .*default time 15 s \(Art\. 6\.7\.1\)/);

    // Six players register, the fourth in Russian; the sixth asks for a half-point bye in round 2.
    const names = ['Ann', 'Bor', 'Ced', 'Dar', 'Eli', 'Fay'].map((n) => `${n}${suffix}`);
    const page = new Map();
    for (const [i, name] of names.entries()) {
      const p = await open(i === 3 ? { locale: 'ru-RU' } : {});
      await signUp(p, name);
      await p.goto(url);
      await p.click('#ev-register');
      await p.waitForSelector('#ev-withdraw');
      page.set(name, p);
    }
    const fay = page.get(names[5]);
    await fay.fill('#bye-round', '2');
    await fay.click('#ev-bye');
    await fay.waitForFunction(() => /\(.+\)\.$/.test(document.querySelector('#event-status')?.textContent ?? ''));
    assert.match(await text(fay, '#event-status'), /^Half-point bye: done/);
    await org.waitForFunction(() => document.querySelectorAll('#players-table tbody tr').length === 6);

    // Round 1 is arbiter tournament pair's on the TRF of the registered players.
    let expected = oraclePairs(await downloadTrf(org, 'before-1'));
    await org.click('#ev-start');
    await org.waitForFunction(() => /^Start: done \(C\.0[45]/.test(document.querySelector('#event-status')?.textContent ?? ''));
    let noShow = null;
    for (let r = 1; r <= 3; r++) {
      await assertPairing(org, r, expected);
      const { games } = await roundOnPage(org, r);
      // Round 1: the last board's Black never comes to the board.
      if (r === 1) noShow = games.at(-1).black;
      await Promise.all(games.map((g) => (r === 1 && g.black === noShow
        ? playNoShow(r, page.get(g.white))
        : playBoard(r, page.get(g.white), page.get(g.black), ['white', 'black', 'draw'][(r + g.board) % 3]))));
      await org.waitForFunction((k) => [...document.querySelectorAll(`.round[data-round="${k}"] .result`)]
        .every((c) => /^(1-0|0-1|1\/2-1\/2|\+-|-\+|--)$/.test(c.textContent)), r, { timeout: 20000 });
      for (const p of page.values()) if (/\/game\//.test(p.url())) await p.goto(url);
      if (r === 1) {
        const g = (await roundOnPage(org, 1)).games.at(-1);
        assert.equal(g.result, '+-', 'the absent Black loses by default (Art. 6.7)');
      }
      if (r < 3) {
        const trf = await downloadTrf(org, `before-${r + 1}`);
        // The half-point bye asked for round 2 is the event's: a TRF exported before round 2 is
        // paired does not carry it (the server's export holds the paired rounds only), so it is
        // recorded here as `arbiter tournament bye` records it, then the CLI pairs.
        const fayNo = (await numbers(org)).get(names[5]);
        if (r + 1 === 2 && trfRound(readFileSync(trf, 'utf8'), fayNo, 2).result !== 'H') cli('bye', trf, String(fayNo));
        expected = oraclePairs(trf);
        await org.click('#ev-pair');
        await org.waitForSelector(`.round[data-round="${r + 1}"]`);
        assert.match(await text(org, '#event-status'), /^Pairing: done \(C\.04/);
      }
      if (r === 2) assert.match((await roundOnPage(org, 2)).byes, new RegExp(`${names[5]}`), 'the half-point bye of round 2');
    }

    // The organiser corrects board 1 of round 3; the standings follow (C.07).
    const nos = await numbers(org);
    const b1 = (await roundOnPage(org, 3)).games[0];
    const pointsOf = async (name) => Number(await org.locator(`#standings-table tbody tr[data-no="${nos.get(name)}"] .points`).textContent());
    const before = await pointsOf(b1.white);
    const corrected = b1.result === '1-0' ? '1/2-1/2' : '1-0';
    await org.fill('#res-round', '3');
    await org.fill('#res-board', '1');
    await org.selectOption('#res-result', corrected);
    await org.click('#ev-result');
    await org.waitForFunction(() => /^Result: done \(/.test(document.querySelector('#event-status')?.textContent ?? ''));
    await org.waitForFunction((want) => document.querySelector('.round[data-round="3"] tr[data-board="1"] .result')?.textContent === want, corrected);
    const delta = { '1-0': 1, '1/2-1/2': 0.5, '0-1': 0 };
    await org.waitForFunction(([no, pts]) => Number(document.querySelector(`#standings-table tbody tr[data-no="${no}"] .points`)?.textContent) === pts,
      [nos.get(b1.white), before - delta[b1.result] + delta[corrected]]);

    // The last round over, the event has ended by itself (the organiser's End is for ending
    // early: no control left); rating changes for the six, the downloads.
    await org.waitForSelector('#rating-table');
    assert.equal(await org.locator('#ev-end').isVisible(), false);
    assert.equal(await org.locator('#ev-pair').isVisible(), false);
    assert.equal(await org.locator('#rating-table tbody tr').count(), 6);
    assert.match(await text(org, '#event-state'), /^Finished/);
    await shot(org, 'events-organiser-end');
    await shot(page.get(names[3]), 'events-player-ru');

    const trfPath = await downloadTrf(org, 'final');
    const trf = readFileSync(trfPath, 'utf8');
    // The TRF reads back: every round is the one the Dutch rules give.
    const check = cli('check', trfPath);
    assert.match(check, /3 of 3 rounds as the rules give/, check);
    // The no-show's `-` and the opponent's `+`; the requested half-point bye's `H`.
    const absent = trfRound(trf, nos.get(noShow), 1);
    assert.equal(absent.result, '-', 'the no-show forfeits in the TRF');
    assert.equal(trfRound(trf, absent.opponent, 1).result, '+');
    assert.equal(trfRound(trf, nos.get(names[5]), 2).result, 'H');
    // The corrected result is the TRF's.
    const c = trfRound(trf, nos.get(b1.white), 3);
    assert.equal(c.result, { '1-0': '1', '1/2-1/2': '=' }[corrected]);

    // The page's standings are arbiter tournament standings' on the TRF.
    const oracle = cli('standings', '--json', trfPath).trim().split('\n').map((l) => JSON.parse(l));
    // A tie-break's header shows its code (the abbr; its name in words is for screen readers).
    const heads = (await org.locator('#standings-table thead th').evaluateAll((ths) => ths.map((th) => (th.querySelector('abbr') ?? th).textContent))).slice(4);
    const rows = [];
    for (const row of await org.locator('#standings-table tbody tr').all()) {
      const cells = await row.locator('td, th').allTextContents();
      rows.push({ rank: Number(cells[0]), id: Number(cells[1]), points: Number(cells[3]), tb: cells.slice(4).map(Number) });
    }
    assert.deepEqual(rows.map((r) => [r.rank, r.id, r.points]), oracle.map((o) => [o.rank, o.id, o.points]), 'ranks, players and points');
    for (const [i, o] of oracle.entries()) {
      for (const [k, name] of heads.entries()) {
        if (name in o.tie_breaks) assert.equal(rows[i].tb[k], o.tie_breaks[name], `${name} of player ${o.id}`);
      }
    }
    assert.ok(heads.some((h) => h in oracle[0].tie_breaks), `the page's tie-breaks ${heads} are the TRF's ${Object.keys(oracle[0].tie_breaks)}`);

    // The PGN of every game, with the event, round and board tags.
    const pgn = await (await org.request.get(BASE_URL + (await org.locator('#download-pgn').getAttribute('href')))).text();
    writeFileSync(join(dir, 'event.pgn'), pgn);
    assert.match(pgn, new RegExp(`\\[Event "${eventName}"\\]`));
    assert.match(pgn, /\[Round "1\.1"\]/);
    assert.match(pgn, /\[Board "1"\]/);
    for (const p of [org, ...page.values()]) assert.deepEqual(p.problems, [], 'no console errors');
  });
});
