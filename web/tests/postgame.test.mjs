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
    // Testers' report (H2, 1): after a reload, and to a visitor later, the game still says it was
    // aborted (protocol §4.5: finished with `*`, no termination, not decided under the Laws).
    await boris.reload();
    await boris.waitForSelector('.result-banner:not([hidden])');
    assert.match(await boris.locator('.result-banner').textContent(), /^\*Aborted.*The game was aborted\. No result/);
    const later = await open({ locale: 'ru-RU' });
    await later.goto(BASE_URL + '/');
    const row = later.locator('#games-finished tr', { has: later.locator(`a[href="/game/${first}"]`) });
    await row.waitFor();
    assert.match(await row.textContent(), /\*прервана/);
    await later.goto(`${BASE_URL}/game/${first}`);
    await later.waitForSelector('.result-banner:not([hidden])');
    assert.match(await later.locator('.result-banner').textContent(), /Прервана.*Партия прервана\. Результата нет/);

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
    await waitLast(page, /^Move 3, Black: Knight f6\. evaluation: (White mates in \d+ moves?|White is better by \d+\.\d\d pawns), blunder/);
    const cursorAt = () => page.locator('#analysis .eval-cursor').getAttribute('x1');
    const atSix = await cursorAt();
    assert.equal(Number(atSix), (6 / (report.total - 1)) * 600);
    // `eval` reads the position on view.
    await command(page, 'eval');
    // In words, and the best move as a spoken move (not "#1 … best: Qxf7#").
    await waitLast(page, /^evaluation: (White mates in \d+ moves?|White is better by \d+\.\d\d pawns), blunder, best move: [A-Z][a-z]+ [a-z ]*[a-h][1-8](, check(mate)?)?$/);

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
    assert.match(await logText(ru), /оценка: (Белые ставят мат в \d+ ход(а|ов)?|перевес белых: \d+,\d\d пешки), грубая ошибка/);
    await command(ru, 'оценка');
    await waitLast(ru, /^оценка: (Белые ставят мат в \d+ ход(а|ов)?|перевес белых: \d+,\d\d пешки), грубая ошибка, лучший ход: [А-ЯЁ][^A-Za-z]*$/);
    // The panel's best line in the notation of the Russian UI (none chosen): Russian letters.
    assert.doesNotMatch(await ru.locator('#best-line').textContent(), /[NBRQK]/);
    // Testers' report (H2, 9): figures with a decimal comma («грубая ошибка (−9,55)», «+0,14»).
    assert.match(await ru.locator('#judged').textContent(), /грубая ошибка \(−\d+,\d\d\)/);
    await ru.fill('#a11y-command', '');
    await ru.press('#a11y-command', 'Home');
    await ru.waitForFunction(() => /^Начальная позиция: [+−]\d+,\d\d/.test(document.querySelector('#best-line')?.textContent ?? ''));
  });
});

test('engine-wait clock: the engine\'s clock shown while its search waits for a free engine never goes back when the reply comes', { skip: MOCK && 'needs the real server' }, async () => {
  // Start this page's own server with one engine (so that a search waits) — as play.test.mjs does.
  const bin = process.env.ARBITER_SERVER;
  if (!bin) return;
  const { spawn } = await import('node:child_process');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  // Its data in memory where it can be (/dev/shm): on a loaded disk the durable write of the
  // engine's move alone can delay the event by seconds, which is not the wait measured here.
  const { existsSync } = await import('node:fs');
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'arbiter-play2-engine-wait-'));
  const child = spawn(bin, ['--listen', '127.0.0.1:0', '--data-dir', dir, '--engine-threads', '1', '--create-per-minute', '0',
    '--max-connections-per-address', '0', '--max-spectators-per-address', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  const base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${log}`)), 30000);
    child.stderr.on('data', (d) => {
      log += d;
      const m = /serving (http:\/\/[0-9.:]+)[^0-9.:]/.exec(log);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
  });
  try {
    await withPages('engine-wait-clock', async (open) => {
      const start = async (page, tc, level) => {
        await page.goto(base + '/');
        await page.locator('input[name="mode"][value="engine"] + label').click();
        await page.locator(`input[name="level"][value="${level}"] + label`).click();
        await page.locator('input[name="color"][value="white"] + label').click();
        await page.locator(`input[name="tc"][value="${tc}"] + label`).click();
        await Promise.all([page.waitForURL(/\/game\//), page.click('#play')]);
        await page.waitForSelector('.cg-wrap cg-board piece');
      };
      // A: a 90-minute game at full strength holds the one engine for seconds a move.
      const a = await open();
      await start(a, '5400+30', '7');
      const b = await open();
      await start(b, '60+0', '1');
      await a.fill('#move-input', 'e4');
      await a.press('#move-input', 'Enter');
      await a.waitForSelector('.move-list .mv[data-ply="1"]');
      // B moves while A's engine thinks: B's search waits for it.
      const sampling = b.evaluate(() => new Promise((resolve) => {
        const samples = [];
        let t0 = 0;
        const step = () => {
          // From B's own move on (shown once the server has it).
          if (!t0 && document.querySelectorAll('.move-list .mv').length < 1) { requestAnimationFrame(step); return; }
          t0 ||= performance.now();
          const ms = Number(document.querySelector('.player-top .clock')?.getAttribute('data-ms'));
          samples.push([Math.round(performance.now() - t0), ms]);
          const replied = document.querySelectorAll('.move-list .mv').length >= 2;
          if ((replied && samples.replied === undefined)) samples.replied = samples.length;
          if (samples.replied !== undefined && samples.length > samples.replied + 20) resolve({ samples, replied: samples.replied });
          else if (performance.now() - t0 > 20000) resolve({ samples, replied: null });
          else requestAnimationFrame(step);
        };
        step();
      }));
      await b.fill('#move-input', 'e4');
      await b.press('#move-input', 'Enter');
      const { samples, replied } = await sampling;
      assert.ok(replied !== null, 'the engine replied in game B');
      let worst = 0;
      let at = 0;
      for (let i = 1; i < samples.length; i++) {
        if (samples[i][1] - samples[i - 1][1] > worst) { worst = samples[i][1] - samples[i - 1][1]; at = i; }
      }
      // How long B's engine clock stood still (its search waiting for A's): the wait was real.
      const still = samples.find(([, ms]) => ms < samples[0][1])?.[0] ?? 0;
      console.log(`engine-wait clock: ${samples.length} samples, clock still for ${still} ms, largest step back ${worst} ms`);
      assert.ok(still >= 300, `B's search waited for A's (its clock stood still ${still} ms): ${JSON.stringify(samples.slice(0, 8))}`);
      assert.ok(worst <= 100, `the engine's clock went back by ${worst} ms: ${JSON.stringify(samples.slice(Math.max(0, at - 4), at + 3))} (reply at sample ${replied} of ${samples.length}, step at ${at}); ${log.split('\n').filter((l) => /engine/.test(l)).join(' | ')}`);
    });
  } finally {
    child.kill('SIGKILL');
    const { rmSync } = await import('node:fs');
    rmSync(dir, { recursive: true, force: true });
  }
});
