// SPDX-License-Identifier: AGPL-3.0-or-later
// Browser tests of accounts (docs/protocol.md §8) against a real `arbiter serve` (the mock
// server has no accounts: skipped there): sign up, log out and in, a rated game changing both
// ratings, a player's page with its chart, filters and results by colour, in English and
// Russian, and its text alternative in the accessible mode. Run by tests/browser.rs.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE_URL, MOCK, closeBrowser, withPages, shot, clickMove, waitPlies, signUp } from './helpers.mjs';

after(closeBrowser);

test('sign up, log out and in, a rated game moves both ratings, the players\' pages', { skip: MOCK && 'the mock has no accounts' }, async () => {
  const suffix = Date.now().toString(36).slice(-5);
  const annaName = `Anna${suffix}`, borisName = `Boris${suffix}`;
  await withPages('accounts', async (open) => {
    const anna = await open();
    await signUp(anna, annaName);
    // Log out, then a wrong password, then log in.
    await Promise.all([anna.waitForEvent('load'), anna.click('#logout')]);
    await anna.waitForSelector('#login-open');
    await anna.click('#login-open');
    await anna.fill('#login-name', annaName);
    await anna.fill('#login-password', 'wrong horse');
    await anna.click('#login-submit');
    await anna.waitForFunction(() => /Wrong user name or password/.test(document.querySelector('#login-message')?.textContent ?? ''));
    await anna.fill('#login-password', 'correct horse');
    await Promise.all([anna.waitForEvent('load'), anna.click('#login-submit')]);
    await anna.waitForSelector('#account-name');

    const boris = await open({ locale: 'ru-RU' });
    // Testers' report (H2, 4): a name the server refuses is said in Russian, by its rule, not as
    // «Сервер отклонил настройки: name: 3 to 20 letters…».
    await boris.goto(BASE_URL + '/');
    await boris.click('#login-open');
    await boris.fill('#login-name', 'a b');
    await boris.fill('#login-password', 'correct horse');
    await boris.click('#signup-submit');
    await boris.waitForFunction(() => document.querySelector('#login-message')?.textContent);
    assert.equal(await boris.locator('#login-message').textContent(),
      'Имя пользователя: от 3 до 20 латинских букв, цифр, _ или -, в начале буква или цифра.');
    await signUp(boris, borisName);

    // A rated invitation, blitz (180 + 40 × 2 = 260 s).
    await anna.locator('input[name="mode"][value="invite"] + label').click();
    await anna.locator('input[name="color"][value="white"] + label').click();
    await anna.locator('input[name="tc"][value="180+2"] + label').click();
    await anna.check('#rated');
    await Promise.all([anna.waitForURL(/\/game\//), anna.click('#play')]);
    await anna.waitForSelector('#invite-link');
    const link = await anna.inputValue('#invite-link');
    await boris.goto(link);
    await boris.waitForSelector('#join');
    await Promise.all([boris.waitForURL(/\/game\//), boris.click('#join')]);
    await boris.waitForSelector('.cg-wrap.orientation-black');
    // Fool's mate: Black wins.
    const plies = [[anna, 'f2', 'f3'], [boris, 'e7', 'e5'], [anna, 'g2', 'g4'], [boris, 'd8', 'h4']];
    for (const [i, [who, from, to]] of plies.entries()) {
      await who.waitForSelector('.status-line.your-turn');
      await clickMove(who, from, to);
      await waitPlies(anna, i + 1);
      await waitPlies(boris, i + 1);
    }
    await anna.waitForSelector('.result-banner:not([hidden])');

    // Both ratings moved, as Glicko-2 moves two new players' (1662 and 1338, RD 290).
    await anna.goto(`${BASE_URL}/@/${annaName}`);
    await anna.waitForSelector('#ratings tr[data-class="blitz"] .rating');
    assert.equal((await anna.locator('#ratings tr[data-class="blitz"] .rating').textContent()).trim(), '1338? ±290');
    assert.equal((await anna.locator('#ratings tr[data-class="bullet"] .rating').textContent()).trim(), '—');
    await anna.waitForSelector('.rating-chart svg circle');
    assert.equal(await anna.locator('.rating-chart svg circle').count(), 1, 'one point per rated game');
    assert.match(await anna.locator('.rating-chart figcaption').textContent(), /Rating history, Blitz: 1338/);
    await anna.waitForSelector('#profile-games li');
    assert.equal(await anna.locator('#profile-games li').count(), 1);
    assert.match(await anna.locator('#profile-games li').textContent(), new RegExp(`White — ${borisName} · 0-1 · Blitz · rated`));
    // The filter: Anna won nothing.
    await anna.selectOption('#filter-result', 'win');
    await anna.waitForSelector('#profile-games li', { state: 'detached' });
    assert.match(await anna.locator('.profile-games').textContent(), /No games/);
    await anna.waitForSelector('#password-form');
    await shot(anna, 'accounts-profile-en');

    // Boris's page in Russian: his rating, his win with Black.
    await boris.goto(`${BASE_URL}/@/${borisName}`);
    await boris.waitForSelector('#ratings tr[data-class="blitz"] .rating');
    assert.equal((await boris.locator('#ratings tr[data-class="blitz"] .rating').textContent()).trim(), '1662? ±290');
    assert.match(await boris.locator('#ratings caption').textContent(), /Рейтинги/);
    assert.match(await boris.locator('#results').textContent(), /Чёрные1/);
    await boris.waitForSelector('#password-form');
    // The accessible mode: the chart's figures are text.
    await boris.click('#set-a11y');
    await boris.waitForSelector('.rating-chart figcaption');
    assert.match(await boris.locator('.rating-chart figcaption').textContent(), /История рейтинга, Блиц: 1662/);
    assert.equal(await boris.locator('.rating-chart svg').getAttribute('role'), 'img');
    await shot(boris, 'accounts-profile-ru');
    // Another's page: no password form.
    await boris.goto(`${BASE_URL}/@/${annaName}`);
    await boris.waitForSelector('#profile-games li');
    assert.equal(await boris.locator('#password-form').count(), 0);
  });
});
