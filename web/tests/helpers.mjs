// SPDX-License-Identifier: AGPL-3.0-or-later
// Shared helpers for the browser tests: Chromium through playwright-core, board clicks,
// keyboard-only focus walking, screenshots on failure.

import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BASE_URL = (process.env.BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
/** True when the server is the mock (tests that need its extras are skipped otherwise). */
export const MOCK = process.env.ARBITER_MOCK === '1';
export const RESULTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');
mkdirSync(RESULTS, { recursive: true });

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let browser = null;
export async function getBrowser() {
  browser ??= await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ARGS });
  return browser;
}
export async function closeBrowser() {
  await browser?.close();
  browser = null;
}

/**
 * A fresh browser context (own cookies = own seats) with a page. Records console errors and
 * CSP violations in `page.problems`.
 */
export async function newPage({ locale = 'en-US', viewport = { width: 1280, height: 860 }, colorScheme = 'light' } = {}) {
  const b = await getBrowser();
  const context = await b.newContext({ locale, viewport, colorScheme, acceptDownloads: true });
  const page = await context.newPage();
  page.setDefaultTimeout(10000);
  page.problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content.Security.Policy/i.test(m.text())) page.problems.push(m.text());
  });
  page.on('pageerror', (e) => page.problems.push(`pageerror: ${e.message}`));
  return page;
}

/** Run a test body; on failure save a screenshot of every page it opened, then rethrow. */
export async function withPages(name, body) {
  const pages = [];
  const open = async (opts) => { const p = await newPage(opts); pages.push(p); return p; };
  try {
    await body(open);
  } catch (e) {
    for (const [i, p] of pages.entries()) {
      try { await p.screenshot({ path: join(RESULTS, `${name}-${i}.png`), fullPage: true }); } catch { /* page gone */ }
    }
    throw e;
  } finally {
    for (const p of pages) await p.context().close().catch(() => {});
  }
}

export async function shot(page, name) {
  await page.screenshot({ path: join(RESULTS, `${name}.png`), fullPage: true });
}

/** Click a square of the chessground board, whatever its orientation. */
export async function clickSquare(page, square) {
  const board = page.locator('.cg-wrap cg-board');
  const box = await board.boundingBox();
  const white = await page.locator('.cg-wrap').evaluate((el) => el.classList.contains('orientation-white'));
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const col = white ? file : 7 - file;
  const row = white ? 7 - rank : rank;
  const size = box.width / 8;
  await page.mouse.click(box.x + size * (col + 0.5), box.y + size * (row + 0.5));
}

/** Move by clicking the origin then the destination square. */
export async function clickMove(page, from, to) {
  await clickSquare(page, from);
  await clickSquare(page, to);
}

/** Type a move into the keyboard entry field and press Enter. */
export async function typeMove(page, text) {
  await page.fill('#move-input', text);
  await page.press('#move-input', 'Enter');
}

/** Wait until the move list holds `n` half-moves. */
export async function waitPlies(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('.move-list .mv').length >= k, n);
}

export const lastMoveText = (page) => page.locator('.move-list .mv.current').textContent();

/** Press Tab until `predicate(activeElement)` holds; fails after `max` presses. */
export async function tabTo(page, selector, { max = 60, shift = false } = {}) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((sel) => !!document.activeElement?.matches(sel), selector)) return;
    await page.keyboard.press(shift ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`keyboard focus never reached ${selector}`);
}

/** Press ArrowRight in a focused radio group until the radio with `value` is focused. */
export async function arrowTo(page, value, max = 20) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((v) => document.activeElement?.value === v, value)) return;
    await page.keyboard.press('ArrowRight');
  }
  throw new Error(`arrow keys never reached the radio ${value}`);
}

/** Create a game through the home page form. */
export async function startFromHome(page, { mode = 'engine', color = 'white', tc = '300+3', level = null, base = BASE_URL } = {}) {
  await page.goto(base + '/');
  await page.locator(`input[name="mode"][value="${mode}"] + label`).click();
  if (level) await page.locator(`input[name="level"][value="${level}"] + label`).click();
  if (mode !== 'local') await page.locator(`input[name="color"][value="${color}"] + label`).click();
  await page.locator(`input[name="tc"][value="${tc}"] + label`).click();
  await Promise.all([page.waitForURL(/\/game\//), page.click('#play')]);
  await page.waitForSelector('.cg-wrap cg-board piece');
}

/** The piece shown on `square` ("white pawn"), or null: read from where the board draws it. */
export async function pieceOn(page, square) {
  return page.evaluate((sq) => {
    const board = document.querySelector('.cg-wrap cg-board');
    const b = board.getBoundingClientRect();
    const white = document.querySelector('.cg-wrap').classList.contains('orientation-white');
    const size = b.width / 8;
    const file = sq.charCodeAt(0) - 97;
    const rank = Number(sq[1]) - 1;
    const cx = b.left + size * ((white ? file : 7 - file) + 0.5);
    const cy = b.top + size * ((white ? 7 - rank : rank) + 0.5);
    for (const p of board.querySelectorAll('piece')) {
      if (p.classList.contains('ghost') || p.classList.contains('fading') || p.classList.contains('dragging')) continue;
      const r = p.getBoundingClientRect();
      if (cx > r.left && cx < r.right && cy > r.top && cy < r.bottom) {
        const color = ['white', 'black'].find((c) => p.classList.contains(c));
        const role = ['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'].find((c) => p.classList.contains(c));
        return `${color} ${role}`;
      }
    }
    return null;
  }, square);
}

/** Wait (up to `ms`) until `pieceOn(square)` is `expected`; returns what is there in the end. */
export async function waitPiece(page, square, expected, ms = 4000) {
  const until = Date.now() + ms;
  let got;
  do {
    got = await pieceOn(page, square);
    if (got === expected) return got;
    await new Promise((r) => setTimeout(r, 100));
  } while (Date.now() < until);
  return got;
}

/** An element's box (getBoundingClientRect), rounded to whole pixels. */
export async function boxOf(page, selector) {
  return page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { top: Math.round(r.top), left: Math.round(r.left), bottom: Math.round(r.bottom), right: Math.round(r.right) };
  });
}

/** Sign up through the header's account form (docs/protocol.md §8) and wait to be logged in. */
export async function signUp(page, name, password = 'correct horse') {
  await page.goto(BASE_URL + '/');
  await page.click('#login-open');
  await page.fill('#login-name', name);
  await page.fill('#login-password', password);
  await Promise.all([page.waitForEvent('load'), page.click('#signup-submit')]);
  await page.waitForFunction((n) => document.querySelector('#account-name')?.textContent === n, name);
}
