// SPDX-License-Identifier: AGPL-3.0-or-later
// Browser tests of issue 13's play features against a real `arbiter serve` (the mock server does
// not implement them): the lobby of open seeks, abort before the first move, the rematch with
// colours swapped, and the analysis panel after the game.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, MOCK, closeBrowser, withPages, shot } from './helpers.mjs';

after(closeBrowser);

const gameId = (page) => new URL(page.url()).pathname.split('/')[2];

test('lobby, abort and rematch: a seek accepted from the home page, aborted, replayed with colours swapped; then analysed', { skip: MOCK && 'needs the real server' }, async () => {
  await withPages('play-lobby', async (open) => {
    const anna = await open();
    await anna.goto(BASE_URL + '/');
    await anna.fill('input[autocomplete="nickname"]', 'Anna');
    await anna.locator('input[name="mode"][value="invite"] + label').click();
    await anna.locator('input[name="color"][value="white"] + label').click();
    await anna.locator('[data-key="lobby"] label').click();
    await Promise.all([anna.waitForURL(/\/game\//), anna.click('#play')]);
    const first = gameId(anna);

    // Another visitor sees the seek live on the home page and accepts it.
    const boris = await open({ locale: 'en-GB' });
    await boris.goto(BASE_URL + '/');
    await boris.fill('input[autocomplete="nickname"]', 'Boris');
    await boris.waitForSelector(`#lobby tr[data-game="${first}"]`);
    assert.match(await boris.locator(`#lobby tr[data-game="${first}"]`).textContent(), /Anna.*Black/);
    await shot(boris, 'lobby-seek');
    await Promise.all([boris.waitForURL(new RegExp(`/game/${first}`)), boris.click(`#lobby button[data-game="${first}"]`)]);
    await boris.waitForSelector('.cg-wrap.orientation-black');
    await anna.waitForFunction(() => document.querySelector('.player-top .name-text')?.textContent === 'Boris');

    // Abort before the first move: no result.
    await anna.waitForSelector('#abort');
    await anna.click('#abort');
    // Finished with no result: the rematch is offered, the abort button gone.
    for (const p of [anna, boris]) await p.waitForSelector('#rematch');
    assert.equal(await anna.locator('#abort').count(), 0);
    const game = await (await anna.request.get(`${BASE_URL}/api/games/${first}`)).json();
    assert.equal(game.status, 'finished');
    assert.equal(game.result, '*');

    // Rematch: Anna offers, Boris accepts, both land in the new game, colours swapped.
    await anna.click('#rematch');
    await boris.waitForFunction(() => document.querySelector('#rematch')?.textContent === 'Accept the rematch');
    await Promise.all([
      anna.waitForURL((u) => !u.pathname.endsWith(first)),
      boris.waitForURL((u) => !u.pathname.endsWith(first)),
      boris.click('#rematch'),
    ]);
    assert.equal(gameId(anna), gameId(boris));
    await boris.waitForSelector('.cg-wrap.orientation-white');
    await anna.waitForSelector('.cg-wrap.orientation-black');
    await shot(anna, 'rematch-black');

    // Boris resigns; the analysis panel analyses the game.
    await boris.click('#resign');
    await boris.click('#resign-yes');
    await anna.waitForSelector('.result-banner:not([hidden])');
    await anna.click('#analyse');
    await anna.waitForSelector('#analysis svg.eval-graph');
    await anna.waitForSelector('#analysis-progress', { state: 'detached', timeout: 30000 });
    assert.match(await anna.locator('#best-line').textContent(), /Initial position: [+−]\d\.\d\d/);
    await shot(anna, 'analysis');
  });
});

const logText = (page) => page.locator('[role="log"]').textContent();
const waitLast = (page, re) => page.waitForFunction(([src]) => new RegExp(src).test(document.querySelector('[role="log"]')?.lastElementChild?.textContent ?? ''), [re.source]);
const command = async (page, text) => {
  await page.fill('#a11y-command', text);
  await page.press('#a11y-command', 'Enter');
};

test('analysis from the replay: the panel follows the move on view, the graph and the marked moves move the replay, a deeper look at the viewed ply; evaluations read out (English, Russian)', { skip: MOCK && 'needs the real server' }, async () => {
  await withPages('analysis-replay', async (open) => {
    const page = await open();
    await page.goto(BASE_URL + '/');
    await page.click('#set-a11y');
    await page.locator('input[name="mode"][value="local"] + label').click();
    await page.locator('input[name="tc"][value="-"] + label').click();
    await Promise.all([page.waitForURL(/\/game\//), page.click('#play')]);
    const id = gameId(page);
    // 3…Nf6?? allows 4.Qxf7# (Art. 5.1.1): a blunder for the analysis to mark.
    for (const san of ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#']) await command(page, san);
    await page.waitForSelector('.result-banner:not([hidden])');
    // Before the analysis: `eval` says there is none.
    await command(page, 'eval');
    await waitLast(page, /^No evaluation: analyse the game first/);
    await page.click('#analyse');
    await page.waitForSelector('#analysis svg.eval-graph');
    await page.waitForSelector('#analysis-progress', { state: 'detached', timeout: 60000 });
    const report = await (await page.request.get(`${BASE_URL}/api/games/${id}/analysis`)).json();
    assert.equal(report.status, 'done');
    const blunder = report.moves.find((m) => m.san === 'Nf6');
    assert.equal(blunder.judgement, 'blunder', JSON.stringify(report.moves));

    // The replay moves the panel: ← from the final position shows ply 6, its evaluation read out
    // with the judgement of the move that led there.
    await page.fill('#a11y-command', '');
    await page.press('#a11y-command', 'ArrowLeft');
    await page.waitForFunction(() => /^After ply 6:/.test(document.querySelector('#best-line')?.textContent ?? ''));
    await waitLast(page, /^Move 3, Black: Knight f6\. evaluation (#\d+|\+\d+\.\d\d), blunder/);
    const cursorAt = () => page.locator('#analysis .eval-cursor').getAttribute('x1');
    const atSix = await cursorAt();
    assert.equal(Number(atSix), (6 / (report.total - 1)) * 600);
    // `eval` reads the position on view.
    await command(page, 'eval');
    await waitLast(page, /^evaluation (#\d+|\+\d+\.\d\d), blunder, best: \S+$/);

    // A marked move in the list moves the replay to the position before it (its best line).
    await page.click(`#judged button[data-ply="${blunder.ply}"]`);
    await page.waitForSelector(`.move-list .mv.viewed[data-ply="${blunder.ply - 1}"]`);
    assert.match(await page.locator('.viewing-banner').textContent(), /3\. Bc4/);
    assert.match(await page.locator('#best-line').textContent(), /^After ply 5:/);

    // A click at the left end of the graph: the replay shows the initial position.
    const graph = page.locator('#analysis svg.eval-graph');
    const box = await graph.boundingBox();
    await page.mouse.click(box.x + 2, box.y + box.height / 2);
    await page.waitForFunction(() => /start position/i.test(document.querySelector('.viewing-banner')?.textContent ?? ''));
    assert.match(await page.locator('#best-line').textContent(), /^Initial position:/);

    // Look deeper from the replay: → to ply 1, then the button asks the server about that ply.
    await page.focus('#a11y-command');
    await page.press('#a11y-command', 'ArrowRight');
    await page.waitForFunction(() => /^After ply 1:/.test(document.querySelector('#best-line')?.textContent ?? ''));
    await page.click('#deeper');
    await page.waitForSelector('#deeper', { state: 'detached', timeout: 60000 });
    const deep = await (await page.request.get(`${BASE_URL}/api/games/${id}/analysis`)).json();
    assert.ok(deep.deep['1'], `a deeper look at ply 1: ${JSON.stringify(Object.keys(deep.deep))}`);
    assert.ok(deep.deep['1'].nodes > report.positions[1].nodes);
    await shot(page, 'analysis-replay');

    // Russian, accessible mode: `оценка` and the read-out on each step.
    const ru = await open({ locale: 'ru-RU' });
    await ru.goto(BASE_URL + '/');
    await ru.click('#set-a11y');
    await ru.goto(`${BASE_URL}/game/${id}`);
    await ru.click('#analyse');
    await ru.waitForSelector('#judged button');
    await ru.fill('#a11y-command', '');
    await ru.press('#a11y-command', 'ArrowLeft');
    await waitLast(ru, /, грубая ошибка/);
    assert.match(await logText(ru), /оценка (#\d+|\+\d+\.\d\d), грубая ошибка/);
    await command(ru, 'оценка');
    await waitLast(ru, /^оценка (#\d+|\+\d+\.\d\d), грубая ошибка, лучший: \S+$/);
  });
});
