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
