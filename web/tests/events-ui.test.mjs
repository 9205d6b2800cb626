// SPDX-License-Identifier: AGPL-3.0-or-later
// The event pages against the mock server (tests/mock-events.mjs; skipped against a real
// server, where tests/events.test.mjs plays a whole Swiss): the create form, registration by
// mouse and by keyboard, a withdrawal, a late entry, a half-point bye asked in advance, the "your game" notice reaching
// each player by polling, the organiser's controls announcing their rule (C.04.3, C.07,
// Art. 10.1), the standings and pairings as tables with headers, the rating changes at the end,
// the downloads, the Russian page and the accessible mode.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, MOCK, closeBrowser, withPages, shot, tabTo } from './helpers.mjs';

after(closeBrowser);

async function logIn(page, name) {
  const r = await page.request.post(`${BASE_URL}/__mock/login/${name}`);
  assert.equal(r.status(), 200);
}

const text = async (page, sel) => (await page.locator(sel).textContent()).trim();

test('[mock-only] an event page: create, register, bye, pair, results, forfeit, end — each action names its rule', { skip: !MOCK && 'needs the mock server' }, async () => {
  const suffix = Date.now().toString(36).slice(-4);
  await withPages('events-ui', async (open) => {
    const olga = await open();
    await logIn(olga, `Olga${suffix}`);
    await olga.goto(`${BASE_URL}/events`);
    await olga.waitForSelector('#event-form');
    assert.equal(await text(olga, 'h1'), 'Events');
    await olga.fill('#ev-name', `Autumn Swiss ${suffix}`);
    await olga.selectOption('#ev-system', 'swiss');
    await olga.fill('#ev-rounds', '3');
    await olga.fill('#ev-minutes', '1');
    await olga.fill('#ev-increment', '0');
    await olga.fill('#ev-default-time', '20');
    await olga.check('#ev-touch');
    // The form preselects the API's default edition for events, 2023 (protocol §9.1).
    assert.equal(await olga.inputValue('#ev-edition'), '2023');
    assert.equal(await olga.locator('#ev-edition option:checked').textContent(), '2023 (default)');
    await olga.selectOption('#ev-edition', '2014');
    await Promise.all([olga.waitForURL(/\/event\/[a-f0-9]+$/), olga.click('#ev-create')]);
    const url = olga.url();
    await olga.waitForFunction((n) => document.querySelector('#event-title')?.textContent === n, `Autumn Swiss ${suffix}`);
    const summary = await text(olga, '#event-summary');
    assert.match(summary, /Swiss \(Dutch\) · 3 rounds · 1\+0 · FIDE Laws 2014 · default time 20 s \(Art\. 6\.7 a\) · touch-move · casual/);
    assert.match(summary, new RegExp(`Organiser \\(arbiter\\): olga${suffix.toLowerCase()}`));
    assert.ok(await olga.locator('#organiser').isVisible(), 'the organiser sees the controls');
    assert.ok(await olga.locator('#ev-start').isVisible());
    assert.ok(!(await olga.locator('#ev-pair').isVisible()), 'no pairing before the start');

    // Four players: two by mouse, one by keyboard, one with the page in Russian.
    const names = ['Anna', 'Boris', 'Vera', 'Gleb'].map((n) => n + suffix);
    const players = [];
    for (const [i, name] of names.entries()) {
      const p = await open(i === 3 ? { locale: 'ru-RU' } : {});
      await logIn(p, name);
      await p.goto(url);
      await p.waitForSelector('#ev-register');
      assert.equal(await p.locator('#organiser').isVisible(), false, 'a player has no organiser controls');
      if (i === 2) {
        await tabTo(p, '#ev-register');
        await p.keyboard.press('Enter');
      } else await p.click('#ev-register');
      await p.waitForSelector('#registration-state');
      await p.waitForFunction(() => /registered|зарегистрированы/.test(document.querySelector('#event-status')?.textContent ?? '') || !!document.querySelector('#ev-withdraw'));
      players.push(p);
    }
    assert.match(await text(players[0], '#event-status'), /^Registration: done \(C\.04\.2 A\.2\)\.$/);
    assert.equal(await text(players[3], '#registration-state'), 'Вы зарегистрированы.');
    // Vera asks for a half-point bye in round 2, in advance.
    await players[2].fill('#bye-round', '2');
    await players[2].click('#ev-bye');
    await players[2].waitForFunction(() => /Half-point bye: done \(C\.04\.1\)/.test(document.querySelector('#event-status')?.textContent ?? ''));

    // A fifth registers and withdraws before the start (C.04.1): still listed, marked.
    const zoe = await open();
    await logIn(zoe, `Zoe${suffix}`);
    await zoe.goto(url);
    await zoe.click('#ev-register');
    await zoe.click('#ev-withdraw');
    await zoe.waitForFunction(() => document.querySelector('#event-status')?.textContent === 'Withdrawal: done (C.04.1).');
    await olga.waitForFunction((n) => [...document.querySelectorAll('#players-table tbody th')].some((th) => th.textContent === `${n} (withdrawn)`), `Zoe${suffix}`);

    // The organiser sees the four players in a table with headers, then starts.
    await olga.waitForFunction(() => document.querySelectorAll('#players-table tbody tr').length === 5);
    assert.deepEqual(await olga.locator('#players-table thead th').allTextContents(), ['No.', 'Player', 'Rating']);
    await olga.click('#ev-start');
    await olga.waitForFunction(() => document.querySelector('#event-status')?.textContent === 'Start: done (C.04.3).');
    await olga.waitForSelector('.round[data-round="1"] tbody tr');
    assert.deepEqual(await olga.locator('.round[data-round="1"] thead th').allTextContents(), ['Board', 'White', 'Result', 'Black', 'Game']);
    assert.equal(await olga.locator('.round[data-round="1"] tbody tr').count(), 2);

    // Every player's page hears of the pairing by polling: "your game" and its link.
    for (const [i, p] of players.entries()) {
      await p.waitForSelector('#your-game-link', { timeout: 8000 });
      const notice = await text(p, '#your-game p');
      if (i === 3) assert.match(notice, /^Тур 1: пары составлены, вы играете (белыми|чёрными) с соперником \w+\.$/);
      else assert.match(notice, /^Round 1: your game is paired, you play (White|Black) against \w+\.$/);
      assert.match(await p.locator('#your-game-link').getAttribute('href'), /^\/game\/m[a-f0-9]+$/);
      assert.equal(await p.locator('#your-game').getAttribute('role'), 'alert');
    }
    await shot(players[3], 'events-ui-ru');

    // The organiser enters board 1's result and forfeits a player of board 2 (Art. 6.7).
    await olga.fill('#res-round', '1');
    await olga.fill('#res-board', '1');
    await olga.selectOption('#res-result', '1-0');
    await olga.click('#ev-result');
    await olga.waitForFunction(() => document.querySelector('#event-status')?.textContent === 'Result: done (C.07).');
    const board2White = await text(olga, '.round[data-round="1"] tr[data-board="2"] .white');
    const whiteNo = Number(await olga.locator('#players-table tbody tr', { hasText: board2White }).getAttribute('data-no'));
    await olga.fill('#ff-player', String(whiteNo));
    await olga.fill('#ff-round', '1');
    await olga.click('#ev-forfeit');
    await olga.waitForFunction(() => document.querySelector('#event-status')?.textContent === 'Forfeit: done (Art. 10.1).');
    await olga.waitForFunction(() => document.querySelector('.round[data-round="1"] tr[data-board="2"] .result')?.textContent === '-+');
    // The standings: a table with headers, the tie-break's own column.
    await olga.waitForSelector('#standings-table');
    assert.deepEqual(await olga.locator('#standings-table thead th').allTextContents(), ['Rank', 'No.', 'Player', 'Points', 'BHBuchholz']);
    // The tie-break's code on screen, its name for screen readers and on hover.
    assert.equal(await olga.locator('#standings-table thead th abbr').getAttribute('title'), 'Buchholz');
    assert.equal(await olga.locator('#standings-table thead th .sr-only').textContent(), 'Buchholz');
    assert.equal(await olga.locator('#standings-table').getAttribute('aria-labelledby'), 'standings-title', 'named by its heading, not a second caption');
    assert.deepEqual(await olga.locator('#standings-table tbody .points').allTextContents(), ['1', '1', '0', '0', '0']);
    // A finished game's link is a replay; the notice is gone for the players whose game ended.
    assert.equal(await text(olga, '.round[data-round="1"] tr[data-board="1"] a'), 'Replay');
    await players[0].waitForSelector('#your-game-link', { state: 'detached', timeout: 8000 });

    // A late entry (C.04.1), by the organiser: paired from the next round on.
    await olga.fill('#late-user', `Late${suffix}`);
    await olga.click('#ev-late');
    await olga.waitForFunction(() => document.querySelector('#event-status')?.textContent === 'Late entry: done (C.04.1).');
    await olga.waitForFunction((n) => [...document.querySelectorAll('#players-table tbody th')].some((th) => th.textContent === n), `Late${suffix}`);

    // Round 2: Vera's half-point bye is there.
    await olga.click('#ev-pair');
    await olga.waitForFunction(() => document.querySelector('#event-status')?.textContent === 'Pairing: done (C.04.3).');
    await olga.waitForSelector('.round[data-round="2"] .byes');
    assert.match(await text(olga, '.round[data-round="2"] .byes'), new RegExp(`Byes: Vera${suffix} \\(half-point bye\\)`));
    assert.equal(await olga.locator('.round').first().getAttribute('data-round'), '2', 'the newest round first');

    // The end: a confirmation, then the rating changes and the downloads.
    olga.once('dialog', (d) => d.accept());
    await olga.click('#ev-end');
    await olga.waitForSelector('#rating-table');
    assert.deepEqual(await olga.locator('#rating-table thead th').allTextContents(), ['Player', 'Before', 'After', 'Change (Glicko-2)', 'FIDE change (B.02)']);
    assert.match(await text(olga, '#event-state'), /^Finished/);
    assert.equal(await olga.locator('#ev-start').isVisible(), false);
    const trf = await olga.request.get(BASE_URL + (await olga.locator('#download-trf').getAttribute('href')));
    assert.match(await trf.text(), new RegExp(`^012 Autumn Swiss ${suffix}`));
    assert.match(await olga.locator('#download-pgn').getAttribute('href'), /\/pgn$/);
    await shot(olga, 'events-ui-organiser');

    // The accessible mode: one h1, sections under h2 headings, every table named once: by its
    // caption, or by its section's heading (not both: the same words read twice).
    await players[1].click('#set-a11y');
    await players[1].waitForSelector('#event-title');
    assert.equal(await players[1].locator('h1').count(), 1);
    const h2 = await players[1].locator('h2').allTextContents();
    for (const want of ['Standings (tie-breaks: C.07)', 'Rounds', 'Players', 'Downloads']) assert.ok(h2.includes(want), `h2 ${want} in ${h2}`);
    for (const table of await players[1].locator('table').all()) {
      const named = await table.evaluate((el) => {
        const by = el.getAttribute('aria-labelledby');
        return [el.querySelectorAll('caption').length, by ? document.getElementById(by)?.textContent ?? '' : null];
      });
      assert.ok((named[0] === 1) !== (named[1] !== null), `one name per table: ${named}`);
      if (named[1] !== null) assert.ok(named[1].length > 0);
    }
    for (const p of [olga, ...players]) assert.deepEqual(p.problems, []);

    // The list of events names it, its status and players.
    await olga.goto(`${BASE_URL}/events`);
    const row = olga.locator('#events-table tbody tr', { hasText: `Autumn Swiss ${suffix}` });
    await row.waitFor();
    assert.deepEqual((await row.locator('td').allTextContents()).slice(0, 4), ['Swiss (Dutch)', 'Finished', '6', '2']);
  });
});

test('[mock-only] the events page without an account asks to log in', { skip: !MOCK && 'needs the mock server' }, async () => {
  await withPages('events-anon', async (open) => {
    const p = await open({ locale: 'ru-RU' });
    await p.goto(`${BASE_URL}/events`);
    await p.waitForSelector('#events-login');
    assert.equal(await text(p, '#events-login'), 'Войдите, чтобы создать турнир: организатор — его арбитр.');
    assert.equal(await p.locator('#event-form').count(), 0);
    assert.equal(await text(p, '#nav-events'), 'Турниры');
  });
});

test('[mock-only] a round-robin has no half-point bye; the events list reflows at 360 px; errors and the form in Russian', { skip: !MOCK && 'needs the mock server' }, async () => {
  const suffix = Date.now().toString(36).slice(-4);
  await withPages('events-rr', async (open) => {
    const org = await open({ locale: 'ru-RU' });
    await logIn(org, `Rita${suffix}`);
    await org.goto(`${BASE_URL}/events`);
    await org.waitForSelector('#event-form');
    assert.equal(await org.getAttribute('#ev-minutes', 'min'), '1', 'no event of 0 minutes');
    await org.fill('#ev-name', `Круг ${suffix} с очень длинным названием турнира`);
    await org.selectOption('#ev-system', 'round_robin');
    await Promise.all([org.waitForURL(/\/event\/[a-f0-9]+$/), org.click('#ev-create')]);
    await org.waitForSelector('#ev-register');
    await org.click('#ev-register');
    await org.waitForSelector('#ev-withdraw');
    // Testers' report (H2, 7): one round is «1 тур»; 2023 (the default) numbers the default time 6.7.1.
    await org.waitForFunction(() => / · 1 тур · /.test(document.querySelector('#event-summary')?.textContent ?? ''));
    assert.match(await text(org, '#event-summary'), /^Круговая · 1 тур · 3\+2 · Правила ФИДЕ 2023 · допустимое опоздание 60 с \(ст\. 6\.7\.1\) · /);
    assert.equal(await org.locator('#ev-bye').count(), 0, 'byes are Swiss only (C.04.1)');
    assert.equal(await org.locator('#bye-round').count(), 0);
    // A forfeit of a player with no game: the refusal in Russian words. A round-robin takes no
    // late entry and no round paired by hand (§9.4): neither form is shown.
    await org.click('#ev-start');
    await org.waitForSelector('#ff-player');
    assert.ok(await org.locator('#late-form').isHidden(), 'no late entry in a round-robin');
    assert.ok(await org.locator('#hand-form').isHidden(), 'no pairing by hand in a round-robin');
    await org.fill('#ff-player', '9');
    await org.click('#ev-forfeit');
    await org.waitForFunction(() => document.querySelector('#event-status')?.textContent === 'Проверьте номер игрока: в этом туре у него нет партии.');

    const phone = await open({ viewport: { width: 360, height: 740 } });
    await phone.goto(`${BASE_URL}/events`);
    await phone.waitForSelector('#events-table');
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 360, `the page is ${width} px wide at 360 (WCAG 1.4.10)`);
    assert.equal(await phone.locator('.table-scroll #events-table').count(), 1, 'the table scrolls in its own box');
  });
});
