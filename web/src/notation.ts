// SPDX-License-Identifier: AGPL-3.0-or-later
// Notation helpers. No chess rules here: everything works on the SAN and the legal-move list
// that the server sends. Conversions: English SAN → Russian (Кр Ф Л С К, 0-0) or figurine;
// lenient reading of typed moves (SAN, UCI, long algebraic, Russian letters, Cyrillic
// look-alikes, 0-0, e8Q) matched against the legal list; FEN piece placement for reading out.

import type { Color, LegalMove, PromotionRole } from './protocol';

export type Notation = 'en' | 'ru' | 'fig';
export type Role = 'K' | 'Q' | 'R' | 'B' | 'N' | 'P';

const RU_LETTER: Record<string, string> = { K: 'Кр', Q: 'Ф', R: 'Л', B: 'С', N: 'К' };
const FIGURINE: Record<Color, Record<string, string>> = {
  white: { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘', P: '♙' },
  black: { K: '♚', Q: '♛', R: '♜', B: '♝', N: '♞', P: '♟' },
};

/** The moving piece of a strict SAN move ("O-O" is a king move). */
export function sanRole(san: string): Role {
  if (san.startsWith('O-O')) return 'K';
  const c = san[0];
  return c === 'K' || c === 'Q' || c === 'R' || c === 'B' || c === 'N' ? c : 'P';
}

/** Render strict English SAN in the chosen notation. */
export function formatSan(san: string, notation: Notation, color: Color): string {
  if (notation === 'en') return san;
  if (notation === 'ru') {
    if (san.startsWith('O-O')) return san.replace(/O/g, '0');
    return san
      .replace(/^[KQRBN]/, (p) => RU_LETTER[p])
      .replace(/=([QRBN])/, (_, p: string) => RU_LETTER[p]);
  }
  if (san.startsWith('O-O')) return san;
  const fig = FIGURINE[color];
  return san.replace(/^[KQRBN]/, (p) => fig[p]).replace(/=([QRBN])/, (_, p: string) => '=' + fig[p]);
}

// ---------------------------------------------------------------- typed input

export type InputMatch =
  | { kind: 'move'; move: LegalMove }
  | { kind: 'promotion'; moves: LegalMove[] }
  | { kind: 'ambiguous'; moves: LegalMove[] }
  | { kind: 'none' };

const FIGURINE_IN: Record<string, string> = {
  '♔': 'K', '♚': 'K', '♕': 'Q', '♛': 'Q', '♖': 'R', '♜': 'R', '♗': 'B', '♝': 'B', '♘': 'N', '♞': 'N', '♙': '', '♟': '',
};
const CYRILLIC_LOOKALIKE: Record<string, string> = {
  'а': 'a', 'А': 'a', 'с': 'c', 'е': 'e', 'Е': 'e', 'х': 'x', 'Х': 'x', 'о': 'o', 'О': 'O', 'В': 'B',
};
const RU_PIECE_IN: [RegExp, string][] = [
  [/^кр/i, 'K'], [/^к/i, 'N'], [/^ф/i, 'Q'], [/^л/i, 'R'], [/^С/, 'B'],
];
const RU_PROMO_IN: Record<string, string> = { 'ф': 'Q', 'Ф': 'Q', 'л': 'R', 'Л': 'R', 'с': 'B', 'С': 'B', 'к': 'N', 'К': 'N' };

/** Normalise typed text to Latin SAN/UCI characters. Exposed for tests. */
export function normaliseInput(raw: string): string {
  let s = raw.trim().replace(/\s+/g, '').replace(/[+#!?]+$/g, '').replace(/[—–−]/g, '-');
  s = s.replace(/[♔♚♕♛♖♜♗♝♘♞♙♟]/g, (c) => FIGURINE_IN[c]);
  for (const [re, letter] of RU_PIECE_IN) {
    if (re.test(s)) { s = s.replace(re, letter); break; }
  }
  // A trailing Russian promotion letter: e8Ф, e8=Ф, e8(Ф).
  s = s.replace(/(=|\()?([фФлЛсСкК])\)?$/, (_m, _eq, p: string) => '=' + RU_PROMO_IN[p]);
  s = s.replace(/[асеЕхХоОАВ]/g, (c) => CYRILLIC_LOOKALIKE[c]);
  s = s.replace(/:/g, 'x').replace(/e\.?p\.?$/i, '');
  return s;
}

function byPromotion(cands: LegalMove[]): InputMatch {
  if (cands.length === 0) return { kind: 'none' };
  if (cands.length === 1) return { kind: 'move', move: cands[0] };
  const key = (m: LegalMove) => m.from + m.to;
  if (cands.every((m) => m.promotion && key(m) === key(cands[0]))) return { kind: 'promotion', moves: cands };
  return { kind: 'ambiguous', moves: cands };
}

/** Match a typed move against the legal list. */
export function matchInput(raw: string, legal: LegalMove[]): InputMatch {
  const s = normaliseInput(raw);
  if (!s) return { kind: 'none' };

  // Castling: 0-0, O-O, o-o, 00, 0-0-0 …
  const castle = /^[0oO]-?[0oO](-?[0oO])?$/.exec(s);
  if (castle) {
    const side = castle[1] ? 'long' : 'short';
    return byPromotion(legal.filter((m) => m.castle === side));
  }

  // Coordinates: e2e4, e2-e4, e7e8q, Ng1-f3, e1h1 (castling king takes rook).
  const coord = /^([KQRBNkqrbn])?([a-h][1-8])[-x]?([a-h][1-8])=?([QRBNqrbn])?$/.exec(s);
  if (coord) {
    const [, piece, from, to, promo] = coord;
    const p = promo?.toLowerCase() as PromotionRole | undefined;
    const cands = legal.filter((m) =>
      m.from === from && (m.to === to || (m.castle !== undefined && m.rook === to)) &&
      (!p || m.promotion === p) && (!piece || sanRole(m.san) === piece.toUpperCase()));
    if (cands.length) return byPromotion(cands);
  }

  // SAN, leniently: optional piece, disambiguation, capture, square, promotion.
  const san = /^([KQRBNkqrn])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?\(?([QRBNqrbn])\)?)?$/.exec(s);
  if (san) {
    const [, piece, file, rank, to, promo] = san;
    const role = (piece ? piece.toUpperCase() : 'P') as Role;
    const p = promo?.toLowerCase() as PromotionRole | undefined;
    const cands = legal.filter((m) =>
      !m.castle && sanRole(m.san) === role && m.to === to &&
      (!file || m.from[0] === file) && (!rank || m.from[1] === rank) && (!p || m.promotion === p));
    if (cands.length) return byPromotion(cands);
    // "Kg1" for castling, when no ordinary king move goes there.
    if (role === 'K') return byPromotion(legal.filter((m) => m.castle && (m.to === to || m.rook === to)));
  }
  // Exact SAN as a last resort (covers anything the server writes, e.g. "O-O").
  const exact = legal.filter((m) => m.san.replace(/[+#]$/, '') === s);
  return byPromotion(exact);
}

// ---------------------------------------------------------------- FEN placement

export interface BoardPiece { color: Color; role: Role }

/** Piece placement of a FEN as a map square → piece. */
export function readPlacement(fen: string): Map<string, BoardPiece> {
  const out = new Map<string, BoardPiece>();
  const rows = fen.split(' ')[0].split('/');
  rows.forEach((row, i) => {
    const rank = 8 - i;
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else if (/[kqrbnp]/i.test(ch)) {
        const sq = 'abcdefgh'[file] + rank;
        out.set(sq, { color: ch === ch.toUpperCase() ? 'white' : 'black', role: ch.toUpperCase() as Role });
        file++;
      }
    }
  });
  return out;
}

export const PIECE_VALUE: Record<Role, number> = { P: 1, N: 3, B: 3, R: 5, Q: 9, K: 0 };

/** Material balance from White's view, and per side the pieces it has in surplus. */
export function material(fen: string): { diff: number; surplus: Record<Color, Role[]> } {
  const count: Record<Color, Record<Role, number>> = {
    white: { K: 0, Q: 0, R: 0, B: 0, N: 0, P: 0 },
    black: { K: 0, Q: 0, R: 0, B: 0, N: 0, P: 0 },
  };
  for (const p of readPlacement(fen).values()) count[p.color][p.role]++;
  let diff = 0;
  const surplus: Record<Color, Role[]> = { white: [], black: [] };
  for (const role of ['Q', 'R', 'B', 'N', 'P'] as Role[]) {
    const d = count.white[role] - count.black[role];
    diff += d * PIECE_VALUE[role];
    const side: Color = d > 0 ? 'white' : 'black';
    for (let i = 0; i < Math.abs(d); i++) surplus[side].push(role);
  }
  return { diff, surplus };
}
