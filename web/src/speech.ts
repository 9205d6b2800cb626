// SPDX-License-Identifier: AGPL-3.0-or-later
// Words for the accessible mode (FIDE Appendix D; Lichess NVUI as the model): moves, squares,
// pieces and times written out so that a screen reader says them naturally in English or Russian.

import { lang, t, tn } from './i18n';
import type { Color } from './protocol';
import { sanRole, type Role } from './notation';

export type SquareStyle = 'plain' | 'anna';

const RU_FILES: Record<string, string> = { a: 'а', b: 'бэ', c: 'цэ', d: 'дэ', e: 'е', f: 'эф', g: 'жэ', h: 'аш' };
const ANNA_EN = ['Anna', 'Bella', 'Cesar', 'David', 'Eva', 'Felix', 'Gustav', 'Hector'];
const ANNA_RU = ['Анна', 'Белла', 'Цезарь', 'Давид', 'Ева', 'Феликс', 'Густав', 'Гектор'];
const GERMAN_RANKS = ['eins', 'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht'];

let squareStyle: SquareStyle = 'plain';
try { if (localStorage.getItem('arbiter.squares') === 'anna') squareStyle = 'anna'; } catch { /* ignore */ }

export const getSquareStyle = (): SquareStyle => squareStyle;
export function setSquareStyle(s: SquareStyle): void {
  squareStyle = s;
  try { localStorage.setItem('arbiter.squares', s); } catch { /* ignore */ }
}

/** A square as it should be spoken: "e4", Russian "е4", or Appendix D "Eva vier" / "Ева 4". */
export function sayFile(file: string): string {
  const i = 'abcdefgh'.indexOf(file);
  if (squareStyle === 'anna') return (lang() === 'ru' ? ANNA_RU : ANNA_EN)[i];
  return lang() === 'ru' ? RU_FILES[file] : file;
}

export function saySquare(sq: string): string {
  const file = sq[0];
  const rank = sq[1];
  if (squareStyle === 'anna') {
    const r = lang() === 'ru' ? rank : GERMAN_RANKS[Number(rank) - 1];
    return `${sayFile(file)} ${r}`;
  }
  return sayFile(file) + rank;
}

const ROLE_KEY = {
  K: 'piece.king', Q: 'piece.queen', R: 'piece.rook', B: 'piece.bishop', N: 'piece.knight', P: 'piece.pawn',
} as const;

export const pieceName = (role: Role): string => t(ROLE_KEY[role]);

const PROMO_KEY = { Q: 'piece.queen.acc', R: 'piece.rook.acc', B: 'piece.bishop.acc', N: 'piece.knight.acc' } as const;
export const colorName = (c: Color): string => t(c === 'white' ? 'color.white' : 'color.black');

/**
 * A SAN move in words: "Knight f3", "Pawn e takes d5", "Pawn e8 promotes to queen, check"
 * (Russian: "превращается в ферзя", the accusative). SAN does not mark en passant: `enPassant`
 * says the captured pawn is not on the destination square ("Pawn e takes d3 en passant").
 */
export function sayMove(san: string, enPassant = false): string {
  const suffix = san.endsWith('#') ? `, ${t('a11y.mate')}` : san.endsWith('+') ? `, ${t('a11y.check')}` : '';
  const core = san.replace(/[+#]$/, '');
  if (core === 'O-O') return t('a11y.castleShort') + suffix;
  if (core === 'O-O-O') return t('a11y.castleLong') + suffix;
  const m = /^([KQRBN])?([a-h])?([1-8])?(x)?([a-h][1-8])(?:=([QRBN]))?$/.exec(core);
  if (!m) return san;
  const [, , file, rank, capture, to, promo] = m;
  const parts = [pieceName(sanRole(core))];
  const dis = (file ? sayFile(file) : '') + (rank ?? '');
  if (dis) parts.push(dis);
  if (capture) parts.push(t('a11y.takes'));
  parts.push(saySquare(to));
  if (capture && enPassant && sanRole(core) === 'P') parts.push(t('a11y.enPassant'));
  if (promo) parts.push(t('a11y.promotes'), t(PROMO_KEY[promo as keyof typeof PROMO_KEY]));
  const words = parts.join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1) + suffix;
}

/**
 * Whether a move is an en passant capture: a pawn captures onto the square the position before
 * it names as the en passant target (the FEN's fourth field).
 */
export function isEnPassant(san: string, to: string, fenBefore: string): boolean {
  return sanRole(san) === 'P' && san.includes('x') && fenBefore.split(' ')[3] === to;
}

/** A time in words: "4 minutes 58 seconds". */
export function sayTime(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts: string[] = [];
  if (h) parts.push(tn('time.hours', h));
  if (m) parts.push(tn('time.minutes', m));
  if (s || parts.length === 0) parts.push(tn('time.seconds', s));
  return parts.join(' ');
}
