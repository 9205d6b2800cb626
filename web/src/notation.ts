// SPDX-License-Identifier: AGPL-3.0-or-later
// Notation helpers. No chess rules here: everything works on the SAN the server sends.
// Conversions: English SAN → Russian (Кр Ф Л С К, 0-0) or figurine; FEN piece placement for
// reading out. Typed moves are sent as text and read by the server (protocol §5.1).

import type { Color } from './protocol';

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
