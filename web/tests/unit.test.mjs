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
  assert.equal(TC.formatTimeControl(TC.PRESETS.at(-1)), '40/5400+30:1800+30');
  assert.equal(TC.formatTimeControl(TC.PRESETS[0]), '60+0');
  assert.equal(TC.formatTimeControl([{ moves: 40, seconds: 7200, increment: 0 }, { moves: null, seconds: 1800, increment: 30 }]), '40/7200:1800+30');
  assert.equal(TC.formatTimeControl([{ moves: null, seconds: 300, increment: 0 }]), '300+0');
  const fischer = (s, i) => [{ moves: null, seconds: s, increment: i }];
  assert.equal(TC.tcLabel(fischer(300, 3)), '5+3');
  assert.equal(TC.tcLabel([{ moves: 40, seconds: 5400, increment: 30 }, { moves: null, seconds: 1800, increment: 30 }]), '40/90+30, 30+30');
  // Issue 13: "d2" read as a square; the delay is spelt out.
  assert.equal(TC.tcLabel(fischer(300, 0), { kind: 'bronstein', ms: 2000 }), '5+0 delay 2 s');
  assert.equal(TC.tcLabel([]), null);
});

// Testers' report (H2, 5): the presets' labels were Lichess classes ("Rapid 10+0", "Classical
// 30+20") while the server applies the Laws' class (10+0 blitz, 2014 B.1 / 2023 A.2; 30+20 rapid,
// A.1). lawsClass is arbiter_laws::TimeClass::of; these are its cases (crates/laws/src/class.rs).
test('time controls: the class under the Laws (Appendices A.1, B.1) is the server\'s', () => {
  const fischer = (s, i) => [{ moves: null, seconds: s, increment: i }];
  assert.equal(TC.lawsClass(fischer(180, 2)), 'blitz'); // 3+2: 5 minutes
  assert.equal(TC.lawsClass(fischer(600, 0)), 'blitz'); // 10+0: exactly 10 minutes (B.1)
  assert.equal(TC.lawsClass(fischer(600, 5)), 'rapid'); // 10+5: 15 minutes
  assert.equal(TC.lawsClass(fischer(900, 10)), 'rapid');
  assert.equal(TC.lawsClass(fischer(3000, 10)), 'standard'); // 50+10: 60 minutes
  assert.equal(TC.lawsClass(fischer(3540, 0)), 'rapid');
  assert.equal(TC.lawsClass(fischer(1800, 20)), 'rapid'); // 30+20: 50 minutes (A.1)
  assert.equal(TC.lawsClass(fischer(60, 0)), 'blitz'); // 1+0: no "bullet" in the Laws
  assert.equal(TC.lawsClass([]), 'standard'); // no clock: the Laws without appendices
  // A delay counts like an increment: 5 minutes + 60 × 5 s = 10 minutes; + 6 s: 11 minutes.
  assert.equal(TC.lawsClass(fischer(300, 0), 5000), 'blitz');
  assert.equal(TC.lawsClass(fischer(300, 0), 6000), 'rapid');
  // Several periods: the time of each starting within 60 moves plus their increments.
  assert.equal(TC.lawsClass([{ moves: 40, seconds: 1200, increment: 0 }, { moves: null, seconds: 600, increment: 0 }]), 'rapid');
  assert.equal(TC.lawsClass([{ moves: 40, seconds: 5400, increment: 30 }, { moves: null, seconds: 1800, increment: 30 }]), 'standard');
  assert.equal(TC.lawsClass([{ moves: 70, seconds: 300, increment: 0 }, { moves: null, seconds: 6000, increment: 0 }]), 'blitz');
  const classes = Object.fromEntries(TC.PRESETS.map((p) => [TC.tcLabel(p), TC.lawsClass(p)]));
  assert.deepEqual(classes, {
    '1+0': 'blitz', '2+1': 'blitz', '3+0': 'blitz', '3+2': 'blitz', '5+0': 'blitz', '5+3': 'blitz',
    '10+0': 'blitz', '10+5': 'rapid', '15+10': 'rapid', '30+0': 'rapid', '30+20': 'rapid', '90+30': 'standard',
    '40/90+30, 30+30': 'standard',
  });
});

// Testers' report (H2, 6): 3 s read "0.1+0" (6 s), 100 s "1.7+0".
test('time controls: a time that is not whole minutes is labelled exactly', () => {
  const fischer = (s, i) => [{ moves: null, seconds: s, increment: i }];
  assert.equal(TC.tcLabel(fischer(3, 0)), '0:03+0');
  assert.equal(TC.tcLabel(fischer(12, 0)), '0:12+0');
  assert.equal(TC.tcLabel(fischer(30, 1)), '0:30+1');
  assert.equal(TC.tcLabel(fischer(90, 0)), '1:30+0');
  assert.equal(TC.tcLabel(fischer(100, 2)), '1:40+2');
  assert.equal(TC.tcLabel(fischer(5400, 30)), '90+30');
  assert.equal(TC.tcLabel([{ moves: 40, seconds: 3630, increment: 0 }, { moves: null, seconds: 45, increment: 5 }]), '40/60:30+0, 0:45+5');
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

// The accessible mode's words, the analysis read out, the events' errors: one bundle, so that
// setLang reaches every module.
async function loadAll() {
  const out = await build({
    stdin: { contents: "export * as I from './i18n'; export * as S from './speech'; export * as A from './a11y'; export * as AN from './analysis'; export * as ER from './errors'; export * as EV from './event'; export * as P from './prefs';", resolveDir: src, loader: 'ts' },
    bundle: true, write: false, format: 'esm', platform: 'neutral', logLevel: 'silent',
  });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
}
const { I: I2, S, A, AN, ER, EV, P } = await loadAll();

test('a promotion is read with the piece in the accusative in Russian; en passant is said', () => {
  assert.equal(S.sayMove('a8=R+'), 'Pawn a8 promotes to rook, check');
  assert.equal(S.sayMove('exd3', S.isEnPassant('exd3', 'd3', '4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1')), 'Pawn e takes d3 en passant');
  assert.equal(S.sayMove('exd3', S.isEnPassant('exd3', 'd3', '4k3/8/8/8/4p3/3P4/8/4K3 b - - 0 1')), 'Pawn e takes d3');
  I2.setLang('ru');
  try {
    assert.equal(S.sayMove('cxd8=Q+'), 'Пешка цэ берёт дэ8 превращается в ферзя, шах');
    assert.equal(S.sayMove('a8=R'), 'Пешка а8 превращается в ладью');
    assert.equal(S.sayMove('a1=B'), 'Пешка а1 превращается в слона');
    assert.equal(S.sayMove('a8=N#'), 'Пешка а8 превращается в коня, мат');
    assert.equal(S.sayMove('exd3', true), 'Пешка е берёт дэ3 на проходе');
  } finally { I2.setLang('en'); }
});

/** A stand-in for the game page: what the accessible commands said and did. */
function fakeGame({ seat = 'white', status = 'active' } = {}) {
  const said = [];
  const did = [];
  const why = () => (seat === null ? I2.t('err.not_a_player') : status !== 'active' ? I2.t('err.game_not_active') : null);
  return {
    said, did,
    state: () => ({ fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', moves: [], legal_moves: [], status, seat, turn: 'white' }),
    announce: (text) => said.push(text),
    typedMove: (text) => did.push(`move ${text}`),
    offerDraw: () => did.push('draw'), acceptDraw: () => did.push('accept'), declineDraw: () => did.push('decline'),
    resign: () => did.push('resign'), claim: () => did.push('claim'), flip: () => did.push('flip'),
    navigate: () => {}, clockTimes: () => null, evaluation: () => '',
    intro: () => ['You play White.', 'Game 5+3 · Standard · FIDE 2014. White to move.'],
    cannotAct: why,
  };
}

test('accessible mode: a spectator or a finished game is not asked to confirm a resignation; "colour" tells the seat', () => {
  const watcher = fakeGame({ seat: null });
  A.runCommand('resign', watcher);
  assert.deepEqual(watcher.said, ['You are watching: you cannot act in this game.']);
  A.runCommand('yes', watcher);
  assert.deepEqual(watcher.did, ['move yes'], 'no resignation pending: "yes" is read as a move');
  const over = fakeGame({ status: 'finished' });
  A.runCommand('resign', over);
  assert.deepEqual(over.said, ['The game is not in progress.']);
  const player = fakeGame();
  A.runCommand('resign', player);
  assert.match(player.said.at(-1), /Type yes to confirm/);
  A.runCommand('yes', player);
  assert.deepEqual(player.did, ['resign']);
  A.runCommand('colour', player);
  A.runCommand('цвет', player);
  assert.deepEqual(player.said.slice(-4), ['You play White.', 'Game 5+3 · Standard · FIDE 2014. White to move.', 'You play White.', 'Game 5+3 · Standard · FIDE 2014. White to move.']);
  assert.match(I2.t('a11y.help'), /colour/);
  I2.setLang('ru');
  try {
    assert.match(I2.t('a11y.help'), /цвет/);
    assert.equal(I2.t('a11y.youAre', { color: I2.t('event.asBlack') }), 'Вы играете чёрными.');
  } finally { I2.setLang('en'); }
});

test('an evaluation is read in words, the best move as a spoken move; the line in the chosen notation', () => {
  assert.equal(AN.evalWords({ cp: 35, mate: null }), 'White is better by 0.35 pawns');
  assert.equal(AN.evalWords({ cp: -120, mate: null }), 'Black is better by 1.20 pawns');
  assert.equal(AN.evalWords({ cp: 0, mate: null }), 'equal');
  assert.equal(AN.evalWords({ cp: null, mate: 1 }), 'White mates in 1 move');
  assert.equal(AN.evalWords({ cp: null, mate: -3 }), 'Black mates in 3 moves');
  assert.equal(AN.evalWords({ cp: null, mate: 0 }), 'checkmate');
  assert.equal(AN.lineText(['Nc3', 'Nc6', 'e4'], 0), 'Nc3 Nc6 e4');
  I2.setLang('ru');
  try {
    assert.equal(AN.evalWords({ cp: 35, mate: null }), 'перевес белых: 0,35 пешки');
    assert.equal(AN.evalWords({ cp: null, mate: 1 }), 'Белые ставят мат в 1 ход');
    assert.equal(AN.evalWords({ cp: null, mate: -2 }), 'Чёрные ставят мат в 2 хода');
    assert.equal(AN.evalWords({ cp: null, mate: 5 }), 'Белые ставят мат в 5 ходов');
    assert.equal(I2.t('analysis.bestSpoken', { move: S.sayMove('Qxf7#') }), 'лучший ход: Ферзь берёт эф7, мат');
    // No notation chosen: the Russian UI writes moves with Russian letters.
    assert.equal(P.prefs.notation, 'ru');
    assert.equal(AN.lineText(['Nc3', 'Nc6', 'Qxf7#'], 1), 'Кc3 Кc6 Фxf7#');
  } finally { I2.setLang('en'); }
  assert.equal(P.prefs.notation, 'en');
});

test('a rematch offer agrees with its colour', () => {
  assert.equal(I2.t('rematch.offered', { color: I2.t('color.white') }), 'White offers a rematch.');
  I2.setLang('ru');
  try {
    assert.equal(I2.t('rematch.offered', { color: I2.t('color.black') }), 'Чёрные предлагают реванш.');
  } finally { I2.setLang('en'); }
});

// Every error code of the events API (docs/protocol.md §9, crates/server/src/event/*.rs).
const EVENT_CODES = ['registration_closed', 'already_registered', 'event_full', 'not_registered', 'bye_not_allowed',
  'already_started', 'too_few_players', 'cannot_pair', 'no_valid_pairing', 'not_organiser', 'login_required',
  'too_many_events', 'late_entry_refused', 'invalid_request', 'event_finished', 'not_running', 'not_found'];

test('every events API error has its own words, in English and Russian', () => {
  for (const lang of ['en', 'ru']) {
    I2.setLang(lang);
    try {
      for (const code of EVENT_CODES) {
        const text = ER.eventErrorText(code, 'msg');
        assert.ok(!/Something went wrong|Что-то пошло не так/.test(text), `${lang} ${code}: ${text}`);
        if (lang === 'ru') assert.match(text, /[а-яё]/i, `${code} in Russian: ${text}`);
      }
    } finally { I2.setLang('en'); }
  }
  assert.equal(ER.eventErrorText('invalid_request', 'user: no account "zz"'), 'There is no account with that user name.');
  // What the server answers to an event of 0 minutes.
  assert.equal(ER.eventErrorText('invalid_request', 'time_control: period 1 has no seconds'), 'Each player needs at least one minute.');
  assert.equal(ER.eventErrorText('not_found', 'no such event'), 'There is no such event.');
  assert.equal(ER.eventErrorText('too_few_players', ''), 'An event needs at least two players to start.');
});

test('tie-break columns are named in words', () => {
  assert.equal(EV.tieBreakName('SB'), 'Sonneborn-Berger');
  assert.equal(EV.tieBreakName('BH/C1'), 'Buchholz, cut 1');
  assert.equal(EV.tieBreakName('XYZ'), null);
  I2.setLang('ru');
  try {
    assert.equal(EV.tieBreakName('DE'), 'Личная встреча');
  } finally { I2.setLang('en'); }
});

// Protocol §9.4: a round paired by hand, as the arbiter types it.
test('a round paired by hand is read from what the arbiter types', () => {
  assert.deepEqual(EV.handPairing('4-1, 2-3', ''), { boards: [[4, 1], [2, 3]], bye: null });
  assert.deepEqual(EV.handPairing('4 1; 2–3\n5:6', '7'), { boards: [[4, 1], [2, 3], [5, 6]], bye: 7 });
  // Unreadable boards go as typed, for the server to refuse in words.
  assert.deepEqual(EV.handPairing('4-1, x', 'y'), { boards: [[4, 1], 'x'], bye: null });
  assert.equal(ER.eventErrorText('invalid_request', 'boards: players 3, 4 are not paired'),
    'Check the boards: white–black pairing numbers, every player to be paired named once (players 3, 4 are not paired).');
});

// A Russian blind player types every command in Russian (the help lists them).
test('accessible mode: every command has a Russian word', () => {
  const g = fakeGame();
  for (const [ru, did] of [['принять', 'accept'], ['отклонить', 'decline'], ['перевернуть', 'flip'], ['требую 3', 'claim'], ['заявка 50', 'claim']]) {
    A.runCommand(ru, g);
    assert.equal(g.did.at(-1), did, ru);
  }
  for (const ru of ['последний', 'ходы', 'фен', 'скан 4']) {
    const before = g.did.length;
    A.runCommand(ru, g);
    assert.equal(g.did.length, before, `${ru} is a command, not a move`);
  }
  assert.equal(g.said.at(-1) !== undefined, true);
  I2.setLang('ru');
  try {
    for (const word of ['последний', 'ходы', 'скан', 'принять', 'отклонить', 'требую', 'перевернуть']) {
      assert.match(I2.t('a11y.help'), new RegExp(word), word);
    }
  } finally { I2.setLang('en'); }
});

// Testers' report (H2, 9): Russian writes a decimal comma («задержка 2,2 с», «−9,55»).
test('numbers: a decimal comma in Russian, a point in English', () => {
  assert.equal(I2.num(2.2, 1), '2.2');
  assert.equal(I2.t('game.delayLeft', { s: I2.num(2, 1) }), 'delay 2.0s');
  assert.equal(AN.evalText({ cp: -955, mate: null }), '−9.55');
  I2.setLang('ru');
  try {
    assert.equal(I2.num(2.2, 1), '2,2');
    assert.equal(I2.num(1234.5), '1234,5');
    assert.equal(I2.t('game.delayLeft', { s: I2.num(2.25, 1) }), 'задержка 2,3 с');
    assert.equal(I2.t('tc.delayLabel', { s: 2.5 }), 'задержка 2,5 с');
    assert.equal(AN.evalText({ cp: -955, mate: null }), '−9,55');
    assert.equal(AN.evalText({ cp: 14, mate: null }), '+0,14');
    assert.equal(I2.t('analysis.nodes', { n: 123456 }), 'просмотрено узлов: 123456');
  } finally { I2.setLang('en'); }
});

// Testers' report (H2, 7): "1 rounds"; a 2023 event cited "Art. 6.7" (6.7.1 in 2018 and 2023).
test('an event\'s rounds are counted; its default time cites the edition\'s Article', () => {
  assert.equal(I2.tn('event.rounds', 1), '1 round');
  assert.equal(I2.tn('event.rounds', 3), '3 rounds');
  assert.equal(EV.defaultTimeArticle('2014'), '6.7 a');
  assert.equal(EV.defaultTimeArticle('2018'), '6.7.1');
  assert.equal(EV.defaultTimeArticle('2023'), '6.7.1');
  I2.setLang('ru');
  try {
    assert.deepEqual([1, 2, 5, 11, 21, 22].map((n) => I2.tn('event.rounds', n)), ['1 тур', '2 тура', '5 туров', '11 туров', '21 тур', '22 тура']);
  } finally { I2.setLang('en'); }
});

// Testers' report (H2, 4): the server's English for developers showed in the Russian sign-up,
// under "the server refused the settings".
test('a refused field is said in the user\'s language, never with the server\'s English', () => {
  const signup = ['invalid_request', 'name: 3 to 20 letters, digits, _ or -, starting with a letter or digit', 'name', 'account'];
  const gameName = ['invalid_request', 'name: U+200B (an invisible, format or direction character) is not allowed', 'name'];
  assert.equal(ER.errorText(...signup), 'User name: 3 to 20 letters, digits, _ or -, starting with a letter or digit.');
  assert.equal(ER.errorText('invalid_request', 'password: 8 to 128 characters', 'password', 'account'), 'Password: 8 to 128 characters.');
  assert.match(ER.errorText(...gameName), /^Your name: at most 40 characters, without invisible/);
  I2.setLang('ru');
  try {
    for (const args of [signup, gameName, ['invalid_request', 'password: 8 to 128 characters', 'password', 'account'],
      ['invalid_request', 'time_control: cannot read', 'time_control'], ['invalid_request', 'engine: level 1 to 7', 'engine'],
      ['invalid_request', 'the request cannot be read', null]]) {
      const text = ER.errorText(...args);
      assert.doesNotMatch(text, /[A-Za-z]{3,}|настройки/, `${args[1]} → ${text}`);
      assert.match(text, /[а-яё]/i, text);
    }
    assert.equal(ER.errorText(...signup), 'Имя пользователя: от 3 до 20 латинских букв, цифр, _ или -, в начале буква или цифра.');
  } finally { I2.setLang('en'); }
});

// Doubtful point (H2): the ambiguous typed move names the candidates the server lists.
test('an ambiguous move\'s candidates are read from the server\'s message', () => {
  assert.deepEqual(ER.ambiguousCandidates('ambiguous move Rd8: it could be any of Rad8, Rfd8'), ['Rad8', 'Rfd8']);
  assert.deepEqual(ER.ambiguousCandidates('ambiguous move "Nd2": it could be any of Nbd2, Nfd2, N3d2'), ['Nbd2', 'Nfd2', 'N3d2']);
  assert.deepEqual(ER.ambiguousCandidates('more than one move'), []);
});

// Testers' report (H2, 8): Russian hints named English commands (help, claim, scan, eval).
test('accessible mode: the Russian hints name Russian commands; "п" lists pieces', () => {
  I2.setLang('ru');
  try {
    for (const key of ['a11y.on', 'a11y.commandHint', 'a11y.claimMove', 'a11y.scanUsage', 'replay.help', 'a11y.unknownPiece']) {
      assert.doesNotMatch(I2.t(key), /\b(help|claim|scan|eval|board|last|legal)\b/, key);
    }
    assert.match(I2.t('a11y.on'), /«помощь»/);
    assert.match(I2.t('a11y.claimMove'), /«требую 3 Кf3»/);
    assert.match(I2.t('a11y.help'), /п конь/);
    const g = fakeGame();
    A.runCommand('п конь', g);
    assert.deepEqual(g.did, [], '"п конь" is a command, not a move');
    assert.deepEqual(g.said, ['Белые, конь: бэ1, жэ1.', 'Чёрные, конь: бэ8, жэ8.']);
    A.runCommand('требую', g);
    assert.match(g.said.at(-1), /требую 3/);
  } finally { I2.setLang('en'); }
});
