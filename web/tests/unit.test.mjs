// SPDX-License-Identifier: AGPL-3.0-or-later
// Unit tests of the client's pure helpers (notation conversion, typed-move matching, time
// controls), compiled from src/ with esbuild on the fly.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
async function load(file) {
  const out = await build({ entryPoints: [join(src, file)], bundle: true, write: false, format: 'esm', platform: 'neutral', logLevel: 'silent' });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
}
const N = await load('notation.ts');
const TC = await load('timecontrol.ts');
// i18n reads the browser's language and sets the page's: stand-ins for node.
globalThis.navigator ??= { languages: ['en'], language: 'en' };
globalThis.document ??= { documentElement: {} };
const I = await load('i18n.ts');

// Issue 13, defect 8: counted and agreeing phrases.
test('moves to the time control are counted in English and Russian', () => {
  assert.equal(I.tn('game.movesToControl', 1), '1 move to the time control');
  assert.equal(I.tn('game.movesToControl', 2), '2 moves to the time control');
  I.setLang('ru');
  assert.equal(I.tn('game.movesToControl', 1), 'до контроля 1 ход');
  assert.equal(I.tn('game.movesToControl', 3), 'до контроля 3 хода');
  assert.equal(I.tn('game.movesToControl', 5), 'до контроля 5 ходов');
  assert.equal(I.tn('game.movesToControl', 21), 'до контроля 21 ход');
  // "1 минута добавлено на часы (Белые)" did not agree: the time is named after the clock's owner.
  const penalty = I.t('ev.penalty', { time: '1 минута', color: 'Белые', ofColor: I.t('color.white.of'), article: '7.5.5' });
  assert.equal(penalty, 'Невозможный ход: на часы белых добавлено время: 1 минута, ст. 7.5.5.');
  assert.equal(TC.tcLabel([{ moves: null, seconds: 300, increment: 0 }], { kind: 'simple', ms: 3000 }, (s) => I.t('tc.delayLabel', { s })), '5+0 задержка 3 с');
  I.setLang('en');
});

// Typed moves are read by the server (crates/server/src/game/table.rs, typed_moves_are_read_by_the_server).

test('notation: Russian and figurine from English SAN', () => {
  assert.equal(N.formatSan('Nf3', 'ru', 'white'), 'Кf3');
  assert.equal(N.formatSan('Kxe2', 'ru', 'black'), 'Крxe2');
  assert.equal(N.formatSan('Qh5+', 'ru', 'white'), 'Фh5+');
  assert.equal(N.formatSan('Rad1', 'ru', 'white'), 'Лad1');
  assert.equal(N.formatSan('Bb5', 'ru', 'white'), 'Сb5');
  assert.equal(N.formatSan('exd8=Q#', 'ru', 'white'), 'exd8Ф#');
  assert.equal(N.formatSan('O-O-O', 'ru', 'black'), '0-0-0');
  assert.equal(N.formatSan('O-O+', 'ru', 'white'), '0-0+');
  assert.equal(N.formatSan('e4', 'ru', 'white'), 'e4');
  assert.equal(N.formatSan('Nf3', 'fig', 'white'), '♘f3');
  assert.equal(N.formatSan('Nf6', 'fig', 'black'), '♞f6');
  assert.equal(N.formatSan('a1=Q', 'fig', 'black'), 'a1=♛');
  assert.equal(N.formatSan('Nf3', 'en', 'white'), 'Nf3');
});

test('material by the values of the user documents (1, 3, 3, 5, 9)', () => {
  const m = N.material('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  assert.equal(m.diff, 0);
  const m2 = N.material('Qnbqkbn1/p1pppppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQk - 0 5');
  assert.equal(m2.diff, 9 + 5 + 5); // White: an extra queen; Black has lost both rooks; pawns 7 v 7
  assert.deepEqual(m2.surplus.white, ['Q', 'R', 'R']);
  assert.deepEqual(m2.surplus.black, []);
});

test('time controls: format, label (the server reads them)', () => {
  assert.equal(TC.formatTimeControl(TC.PRESETS.at(-1).periods), '40/5400+30:1800+30');
  assert.equal(TC.formatTimeControl(TC.PRESETS[0].periods), '60+0');
  assert.equal(TC.formatTimeControl([{ moves: 40, seconds: 7200, increment: 0 }, { moves: null, seconds: 1800, increment: 30 }]), '40/7200:1800+30');
  assert.equal(TC.formatTimeControl([{ moves: null, seconds: 300, increment: 0 }]), '300+0');
  const fischer = (s, i) => [{ moves: null, seconds: s, increment: i }];
  assert.equal(TC.tcLabel(fischer(300, 3)), '5+3');
  assert.equal(TC.tcLabel([{ moves: 40, seconds: 5400, increment: 30 }, { moves: null, seconds: 1800, increment: 30 }]), '40/90+30, 30+30');
  // Issue 13: "d2" read as a square; the delay is spelt out.
  assert.equal(TC.tcLabel(fischer(300, 0), { kind: 'bronstein', ms: 2000 }), '5+0 delay 2 s');
  assert.equal(TC.tcLabel([]), null);
  assert.equal(TC.category(fischer(180, 2)), 'blitz');
  assert.equal(TC.category(fischer(600, 5)), 'rapid');
});

// Issue 15: the event page's pure helpers.
const E = await load('event.ts');
const EVENT = {
  id: 'e1', name: 'Club', system: 'swiss', status: 'running', organiser: 'Arb', settings: { rounds: 3 },
  players: [{ no: 1, name: 'Ann', rating: 1500, withdrawn: false }, { no: 2, name: 'Bor', rating: null, withdrawn: false }, { no: 3, name: 'Ced', rating: 1400, withdrawn: false }],
  rounds: [{ round: 1, games: [{ board: 1, white: 2, black: 1, game_id: 'g1', result: null }], byes: [{ player: 3, kind: 'full' }] }],
  current_round: 1, standings: [], you: { registered: true, your_game: 'g1', organiser: false },
};
test('an event names players by starting number or by name', () => {
  assert.equal(E.playerName(EVENT, 2), 'Bor');
  assert.equal(E.playerName(EVENT, 'Ced'), 'Ced');
  assert.equal(E.playerName(EVENT, 9), '#9');
  assert.equal(E.playerName(EVENT, null), '—');
});
test('"your game": the round, the colour and the opponent of the logged-in player', () => {
  assert.deepEqual(E.yourGame(EVENT, { name: 'ann', url: '/@/ann' }), { round: 1, game: EVENT.rounds[0].games[0], color: 'black', opponent: 'Bor' });
  assert.equal(E.yourGame({ ...EVENT, you: { registered: true, your_game: null, organiser: false } }, { name: 'Ann', url: '' }), null);
  assert.equal(E.yourGame({ ...EVENT, you: null }, null), null);
});
test('an action without a rule in its answer names the one it applies', () => {
  assert.equal(E.ruleOf(EVENT, 'pair'), 'C.04.3');
  assert.equal(E.ruleOf({ ...EVENT, system: 'round_robin' }, 'start'), 'C.05');
  assert.equal(E.ruleOf(EVENT, 'forfeit'), 'Art. 10.1');
  assert.equal(E.ruleOf(EVENT, 'result'), 'C.07');
});
