// SPDX-License-Identifier: AGPL-3.0-or-later
// The game page for a blind player and by keyboard (found by a tester): the accessible mode says
// the player's colour and the game's settings, and why an action cannot be taken (a spectator, a
// game over); a language change keeps the keyboard focus and the announcements; the material
// difference is read as text; the danger button is legible in both themes. Runs against the mock
// or a real server ([engine]: needs an engine that answers).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, closeBrowser, withPages, startFromHome, waitPlies, typeMove } from './helpers.mjs';

after(closeBrowser);

const accessible = (page) => page.addInitScript(() => localStorage.setItem('arbiter.a11y', 'on'));
const logText = (page) => page.locator('[role="log"]').textContent();
const logLines = (page) => page.locator('[role="log"] p').allTextContents();

/** Type a command into the accessible field and wait until the log says `expect`. */
async function say(page, text, expect) {
  const before = (await logLines(page)).length;
  await page.fill('#a11y-command', text);
  await page.press('#a11y-command', 'Enter');
  await page.waitForFunction(([re, n]) => [...document.querySelectorAll('[role="log"] p')].slice(n).some((p) => new RegExp(re).test(p.textContent)), [expect.source, before]);
}

test('[engine] accessible mode: the colour and the settings at the start and on "colour"; after the end, and to a spectator, actions say why not', async () => {
  await withPages('access-colour', async (open) => {
    const page = await open();
    await accessible(page);
    await startFromHome(page, { mode: 'engine', color: 'white', tc: '300+3' });
    await page.waitForFunction(() => /You play White\./.test(document.querySelector('[role="log"]').textContent));
    assert.match(await logText(page), /Game 5\+3 · Standard · FIDE 2014\. White to move\./);
    await say(page, 'colour', /^You play White\.$/);
    assert.equal((await logLines(page)).filter((l) => l === 'You play White.').length, 2);

    // A spectator: told so, and not asked to confirm a resignation.
    const watcher = await open();
    await accessible(watcher);
    await watcher.goto(page.url());
    await watcher.waitForFunction(() => /You are watching this game\./.test(document.querySelector('[role="log"]')?.textContent ?? ''));
    await say(watcher, 'e4', /You are watching: you cannot act in this game\./);
    await say(watcher, 'resign', /You are watching: you cannot act in this game\./);
    await say(watcher, 'draw', /You are watching: you cannot act in this game\./);
    assert.doesNotMatch(await logText(watcher), /Type yes/);

    await say(page, 'resign', /Type yes to confirm/);
    await say(page, 'yes', /Black wins\. White resigned/);
    await say(page, 'e4', /^The game is not in progress\.$/);
    await say(page, 'draw', /^The game is not in progress\.$/);
    await say(page, 'resign', /^The game is not in progress\.$/);
    assert.doesNotMatch(await logText(page), /It is not your move/);
    assert.deepEqual(page.problems, []);
  });
});

test('a language change keeps the keyboard on the language selector and the announcements in the log', async () => {
  await withPages('access-lang', async (open) => {
    const page = await open();
    await accessible(page);
    await startFromHome(page, { mode: 'local', tc: '-' });
    await say(page, 'e4', /White: Pawn e4/);
    const before = await logLines(page);
    await page.focus('#set-lang');
    await page.selectOption('#set-lang', 'ru');
    await page.waitForSelector('#a11y-command');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'set-lang');
    assert.equal(await page.locator('label[for="a11y-command"]').textContent(), 'Ход или команда');
    const afterLines = await logLines(page);
    assert.deepEqual(afterLines.slice(0, before.length), before, 'the log keeps what was said');
    // The accessible mode switched off and on keeps it too.
    await page.click('#set-a11y');
    await page.click('#set-a11y');
    await page.waitForSelector('#a11y-command');
    assert.deepEqual((await logLines(page)).slice(0, before.length), before);
  });
});

/** The contrast ratio of an element's text on its background (WCAG 2 relative luminance). */
const contrastOf = (page, sel) => page.locator(sel).evaluate((el) => {
  const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => { const s = v / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  // A transparent background shows its parent's.
  let bg = el;
  while (bg.parentElement && /rgba\(.*, 0\)$|transparent/.test(getComputedStyle(bg).backgroundColor)) bg = bg.parentElement;
  const [a, b] = [lum(getComputedStyle(el).color), lum(getComputedStyle(bg).backgroundColor)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
});

test('the material difference is text for screen readers; "Yes, resign" is legible in both themes', async () => {
  await withPages('access-material', async (open) => {
    const page = await open();
    await startFromHome(page, { mode: 'local', tc: '-' });
    for (const [i, m] of ['e4', 'd5', 'exd5'].entries()) { await typeMove(page, m); await waitPlies(page, i + 1); }
    const mat = page.locator('.player[data-color="white"] .material');
    assert.equal(await mat.getAttribute('aria-label'), null, 'no aria-label on a plain span (axe aria-prohibited-attr)');
    assert.equal(await mat.locator('.sr-only').textContent(), 'Material: +1');
    await page.click('#resign');
    await page.waitForSelector('#resign-yes');
    for (const theme of ['light', 'dark']) {
      await page.selectOption('#set-theme', theme);
      await page.waitForFunction((th) => document.documentElement.dataset.theme === th, theme);
      for (const sel of ['#resign-yes', '#resign']) {
        const ratio = await contrastOf(page, sel);
        assert.ok(ratio >= 4.5, `${sel} in the ${theme} theme: ${ratio.toFixed(2)}:1`);
      }
    }
  });
});
