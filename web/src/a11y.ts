// SPDX-License-Identifier: AGPL-3.0-or-later
// Accessible mode commands (FIDE Appendix D; modelled on Lichess NVUI). Every command reads the
// position from the server's FEN and legal-move list; nothing is computed by chess rules here.

import { t, type Key } from './i18n';
import { formatSan, readPlacement, type Role } from './notation';
import type { Color, State } from './protocol';
import { colorName, pieceName, sayMove, saySquare, sayTime, sayFile } from './speech';
import { prefs } from './prefs';

export interface A11yContext {
  state(): State | null;
  announce(text: string, urgent?: boolean): void;
  /** Play a typed move (SAN/UCI/Russian). */
  typedMove(text: string): void;
  offerDraw(): void;
  acceptDraw(): void;
  declineDraw(): void;
  resign(): void;
  claim(kind: 'threefold' | 'fifty', moveText?: string): void;
  flip(): void;
  /** Move navigation: show (and read out) an earlier or later position. */
  navigate(key: 'first' | 'prev' | 'next' | 'last'): void;
  clockTimes(): { white: number; black: number } | null;
  /** The evaluation of the position on view, in words (analysis.ts), or why there is none. */
  evaluation(): string;
  /** Who this browser plays and the game's settings: "You play White." "Game 5+3 · …. White to move." */
  intro(): string[];
  /** Why this browser cannot act in the game now (a spectator, a game not in progress), or null. */
  cannotAct(): string | null;
}

const ROLE_WORDS: [string[], Role][] = [
  [['king', 'kin', 'король', 'кор', 'кр'], 'K'],
  [['queen', 'que', 'ферзь', 'фер', 'ф'], 'Q'],
  [['rook', 'roo', 'ладья', 'лад', 'л'], 'R'],
  [['bishop', 'bis', 'слон', 'сло', 'с'], 'B'],
  [['knight', 'kni', 'конь', 'кон', 'к'], 'N'],
  [['pawn', 'paw', 'пешка', 'пеш', 'п'], 'P'],
];

function parsePiece(word: string): { role: Role; colors: Color[] } | null {
  if (/^[KQRBNP]$/.test(word)) return { role: word as Role, colors: ['white'] };
  if (/^[kqrbnp]$/.test(word)) return { role: word.toUpperCase() as Role, colors: ['black'] };
  const w = word.toLowerCase();
  for (const [words, role] of ROLE_WORDS) {
    if (words.some((x) => w === x || (x.length >= 3 && w.startsWith(x)))) return { role, colors: ['white', 'black'] };
  }
  return null;
}

const colorOf = (c: Color) => t(`a11y.colorOf.${c}` as Key);
const pieceLower = (r: Role) => pieceName(r).toLowerCase();

function describeSquare(sq: string, placement: ReturnType<typeof readPlacement>): string {
  const p = placement.get(sq);
  return p ? t('a11y.pieceOn', { square: saySquare(sq), color: colorOf(p.color), piece: pieceLower(p.role) }) : '';
}

export function readBoard(state: State): string[] {
  const placement = readPlacement(state.fen);
  const out: string[] = [];
  for (let rank = 8; rank >= 1; rank--) {
    const items = [...'abcdefgh'].map((f) => describeSquare(f + rank, placement)).filter(Boolean);
    out.push(t('a11y.rank', { n: rank, list: items.length ? items.join(', ') : t('a11y.empty') }));
  }
  return out;
}

function scan(state: State, arg: string): string {
  const placement = readPlacement(state.fen);
  const a = arg.toLowerCase().replace('а', 'a').replace('с', 'c').replace('е', 'e');
  const describe = (sq: string) => describeSquare(sq, placement) || `${saySquare(sq)} ${t('a11y.empty')}`;
  if (/^[a-h]$/.test(a)) {
    const list = [1, 2, 3, 4, 5, 6, 7, 8].map((r) => describe(a + r));
    return t('a11y.file', { f: sayFile(a), list: list.join(', ') });
  }
  if (/^[1-8]$/.test(a)) {
    const list = [...'abcdefgh'].map((f) => describe(f + a));
    return t('a11y.rank', { n: a, list: list.join(', ') });
  }
  return t('a11y.scanUsage');
}

function piecesOf(state: State, role: Role, colors: Color[]): string[] {
  const placement = readPlacement(state.fen);
  return colors.map((c) => {
    const squares = [...placement].filter(([, p]) => p.color === c && p.role === role).map(([sq]) => sq).sort().map(saySquare);
    return t('a11y.piecesOf', { color: colorName(c), piece: pieceLower(role), squares: squares.length ? squares.join(', ') : t('a11y.none') });
  });
}

export function lastMoveText(state: State): string {
  const m = state.moves[state.moves.length - 1];
  if (!m) return t('a11y.noLast');
  return t('a11y.last', { move: `${colorName(m.color)}, ${sayMove(m.san)}` });
}

let confirmResign = false;

/** Run one line typed into the accessible command field. */
export function runCommand(raw: string, ctx: A11yContext): void {
  const text = raw.trim();
  if (!text) return;
  const state = ctx.state();
  const [cmd, ...rest] = text.split(/\s+/);
  const c = cmd.toLowerCase();
  const arg = rest.join(' ');

  if (confirmResign) {
    confirmResign = false;
    if (['yes', 'y', 'да', 'д'].includes(c)) {
      const why = ctx.cannotAct();
      if (why) ctx.announce(why, true);
      else ctx.resign();
      return;
    }
    ctx.announce(t('a11y.cancelled'));
    if (['no', 'n', 'нет'].includes(c)) return;
  }
  if (c === 'help' || c === '?' || c === 'h' || c === 'помощь') { ctx.announce(t('a11y.help')); ctx.announce(t('replay.help')); return; }
  if (!state) return;

  switch (c) {
    case 'board': case 'b': case 'доска':
      for (const line of readBoard(state)) ctx.announce(line);
      return;
    case 'pieces': case 'фигуры': {
      const lines: string[] = [];
      for (const role of ['K', 'Q', 'R', 'B', 'N', 'P'] as Role[]) lines.push(...piecesOf(state, role, ['white', 'black']));
      lines.forEach((l) => ctx.announce(l));
      return;
    }
    case 'p': case 'п': {
      const pc = parsePiece(rest[0] ?? '');
      if (!pc) { ctx.announce(t('a11y.unknownPiece', { text: arg })); return; }
      piecesOf(state, pc.role, pc.colors).forEach((l) => ctx.announce(l));
      return;
    }
    case 'last': case 'l': case 'последний':
      ctx.announce(lastMoveText(state));
      return;
    case 'clock': case 'c': case 'часы': {
      const times = ctx.clockTimes();
      ctx.announce(times ? t('a11y.clocks', { white: sayTime(times.white), black: sayTime(times.black) }) : t('game.untimed'));
      return;
    }
    case 'legal': case 'ходы': {
      const moves = state.legal_moves;
      const seen = new Set<string>();
      const list = moves.map((m) => formatSan(m.san, prefs.notation, state.turn)).filter((s) => !seen.has(s) && seen.add(s));
      ctx.announce(list.length ? t('a11y.legal', { moves: list.join(', ') }) : t('a11y.noLegal'));
      return;
    }
    case 'eval': case 'оценка':
      ctx.announce(ctx.evaluation());
      return;
    case 'fen': case 'фен':
      ctx.announce(state.fen);
      return;
    case 'scan': case 's': case 'скан':
      ctx.announce(scan(state, arg));
      return;
    case 'draw': case 'offer': case 'ничья':
      ctx.offerDraw();
      return;
    case 'accept': case 'принять': case 'принимаю':
      ctx.acceptDraw();
      return;
    case 'decline': case 'отклонить': case 'отклоняю':
      ctx.declineDraw();
      return;
    case 'resign': case 'сдаюсь': {
      // A spectator, or a game over: nothing to confirm.
      const why = ctx.cannotAct();
      if (why) { ctx.announce(why, true); return; }
      confirmResign = true;
      ctx.announce(t('a11y.confirmResign'), true);
      return;
    }
    case 'colour': case 'color': case 'цвет':
      ctx.intro().forEach((l) => ctx.announce(l));
      return;
    case 'flip': case 'перевернуть':
      ctx.flip();
      return;
    case 'back': case 'назад':
      ctx.navigate('prev');
      return;
    case 'next': case 'forward': case 'вперёд': case 'вперед':
      ctx.navigate('next');
      return;
    case 'start': case 'начало':
      ctx.navigate('first');
      return;
    case 'now': case 'live': case 'сейчас':
      ctx.navigate('last');
      return;
    case 'claim': case 'требую': case 'заявка': {
      const kind = /^(3|threefold|rep|повтор)/i.test(rest[0] ?? '') ? 'threefold'
        : /^(50|fifty|пятьдесят)/i.test(rest[0] ?? '') ? 'fifty' : null;
      if (!kind) { ctx.announce(t('a11y.claimMove')); return; }
      ctx.claim(kind, rest.slice(1).join(' ') || undefined);
      return;
    }
  }
  ctx.typedMove(text);
}
