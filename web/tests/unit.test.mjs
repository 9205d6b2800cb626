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

// Legal moves of the position after 1.e4 e5 2.Nf3 Nc6 3.Bc4 Bc5 (White to move), a subset.
const legal = [
  { uci: 'e1g1', san: 'O-O', from: 'e1', to: 'g1', castle: 'short', rook: 'h1' },
  { uci: 'e1f1', san: 'Kf1', from: 'e1', to: 'f1' },
  { uci: 'b1c3', san: 'Nc3', from: 'b1', to: 'c3' },
  { uci: 'f3g5', san: 'Ng5', from: 'f3', to: 'g5' },
  { uci: 'f3e5', san: 'Nxe5', from: 'f3', to: 'e5' },
  { uci: 'c4f7', san: 'Bxf7+', from: 'c4', to: 'f7' },
  { uci: 'd2d4', san: 'd4', from: 'd2', to: 'd4' },
  { uci: 'b2b4', san: 'b4', from: 'b2', to: 'b4' },
  { uci: 'd1e2', san: 'Qe2', from: 'd1', to: 'e2' },
  { uci: 'h1f1', san: 'Rf1', from: 'h1', to: 'f1' },
];
const promo = ['q', 'r', 'b', 'n'].map((p) => ({ uci: `e7e8${p}`, san: `e8=${p.toUpperCase()}`, from: 'e7', to: 'e8', promotion: p }))
  .concat(['q', 'r', 'b', 'n'].map((p) => ({ uci: `e7d8${p}`, san: `exd8=${p.toUpperCase()}+`, from: 'e7', to: 'd8', promotion: p })));
const knights = [{ uci: 'b1d2', san: 'Nbd2', from: 'b1', to: 'd2' }, { uci: 'f3d2', san: 'Nfd2', from: 'f3', to: 'd2' }];

const uciOf = (text, list = legal) => {
  const r = N.matchInput(text, list);
  return r.kind === 'move' ? r.move.uci : r.kind;
};

test('typed moves: SAN, UCI, long algebraic, castling forms', () => {
  assert.equal(uciOf('Nc3'), 'b1c3');
  assert.equal(uciOf('nc3'), 'b1c3');
  assert.equal(uciOf('Nxe5'), 'f3e5');
  assert.equal(uciOf('Ne5'), 'f3e5'); // capture sign optional
  assert.equal(uciOf('Bxf7+'), 'c4f7');
  assert.equal(uciOf('Bf7'), 'c4f7');
  assert.equal(uciOf('d4'), 'd2d4');
  assert.equal(uciOf('b4'), 'b2b4'); // pawn, not bishop
  assert.equal(uciOf('d2d4'), 'd2d4');
  assert.equal(uciOf('d2-d4'), 'd2d4');
  assert.equal(uciOf('Ng1-f3', [{ uci: 'g1f3', san: 'Nf3', from: 'g1', to: 'f3' }]), 'g1f3');
  for (const s of ['O-O', '0-0', 'o-o', '00', 'О-О', 'e1g1', 'e1h1']) assert.equal(uciOf(s), 'e1g1', s);
  assert.equal(uciOf('0-0-0'), 'none');
  assert.equal(uciOf('Ke2'), 'none');
  assert.equal(uciOf('Nd2', knights), 'ambiguous');
  assert.equal(uciOf('Nbd2', knights), 'b1d2');
  assert.equal(uciOf('N1d2', [{ uci: 'b1d2', san: 'Nbd2', from: 'b1', to: 'd2' }, { uci: 'b3d2', san: 'N3d2', from: 'b3', to: 'd2' }]), 'b1d2');
});

test('typed moves: Russian letters, Cyrillic look-alikes, figurines', () => {
  assert.equal(uciOf('Кc3'), 'b1c3');
  assert.equal(uciOf('к:е5'), 'f3e5');
  assert.equal(uciOf('Сf7'), 'c4f7');
  assert.equal(uciOf('Фe2'), 'd1e2');
  assert.equal(uciOf('Лf1'), 'h1f1');
  assert.equal(uciOf('Крf1'), 'e1f1');
  assert.equal(uciOf('Вхf7'), 'c4f7'); // Cyrillic В and х, as in the Russian Laws
  assert.equal(uciOf('♘c3'), 'b1c3');
  assert.equal(uciOf('d4'.replace('d', 'д')), 'none');
});

test('typed moves: promotions', () => {
  assert.equal(N.matchInput('e8', promo).kind, 'promotion');
  assert.equal(uciOf('e8Q', promo), 'e7e8q');
  assert.equal(uciOf('e8=N', promo), 'e7e8n');
  assert.equal(uciOf('e8(R)', promo), 'e7e8r');
  assert.equal(uciOf('e8Ф', promo), 'e7e8q');
  assert.equal(uciOf('e8=К', promo), 'e7e8n');
  assert.equal(uciOf('exd8=Q', promo), 'e7d8q');
  assert.equal(uciOf('ed8Q', promo), 'e7d8q');
  assert.equal(uciOf('e7e8b', promo), 'e7e8b');
  assert.equal(N.matchInput('e7e8', promo).kind, 'promotion');
});

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

test('time controls: parse, format, label', () => {
  assert.deepEqual(TC.parseTimeControl('40/5400+30:1800+30'), [{ moves: 40, seconds: 5400, increment: 30 }, { moves: null, seconds: 1800, increment: 30 }]);
  assert.equal(TC.parseTimeControl('-'), null);
  assert.equal(TC.formatTimeControl([{ moves: 40, seconds: 7200, increment: 0 }, { moves: null, seconds: 1800, increment: 30 }]), '40/7200:1800+30');
  assert.equal(TC.formatTimeControl([{ moves: null, seconds: 300, increment: 0 }]), '300+0');
  assert.equal(TC.tcLabel('300+3'), '5+3');
  assert.equal(TC.tcLabel('40/5400+30:1800+30'), '40/90+30, 30+30');
  assert.equal(TC.tcLabel('300+0', { kind: 'bronstein', ms: 2000 }), '5+0 d2');
  assert.equal(TC.category('180+2'), 'blitz');
  assert.equal(TC.category('600+5'), 'rapid');
});
