// SPDX-License-Identifier: AGPL-3.0-or-later
// Move navigation on the game page: which earlier position is on view (none = the live game),
// and the positions themselves, read from the server (protocol §3.4.1) and from the live states
// as they arrive — the client keeps no chess rules (web/README.md).

import { getPositions } from './api';

export interface Position { fen: string; check: boolean }

export class Replay {
  /** `known[n]`: the position after `n` half-moves (0: the initial one). */
  private known: (Position | undefined)[] = [];
  private loading: Promise<void> | null = null;
  /** The half-move on view, or null for the live game. */
  ply: number | null = null;

  constructor(private gameId: string) {}

  /** Remember the position after `ply` half-moves (from a live state). */
  record(ply: number, fen: string, check: boolean): void {
    this.known[ply] = { fen, check };
  }

  position(ply: number): Position | undefined { return this.known[ply]; }

  /** Make sure positions 0..=plies are known (one request for all that are missing). */
  async ensure(plies: number): Promise<void> {
    const missing = () => { for (let i = 0; i <= plies; i++) if (!this.known[i]) return true; return false; };
    if (!missing()) return;
    this.loading ??= getPositions(this.gameId).then((r) => {
      r.fens.forEach((fen, i) => { this.known[i] ??= { fen, check: r.checks[i] ?? false }; });
    }).finally(() => { this.loading = null; });
    await this.loading;
  }

  /**
   * The half-move to view after a navigation key, or null for live: `total` is the number of
   * half-moves played. Stepping past the last one returns to the live game.
   */
  static target(current: number | null, total: number, key: 'first' | 'prev' | 'next' | 'last'): number | null {
    const at = current ?? total;
    let next: number;
    switch (key) {
      case 'first': next = 0; break;
      case 'prev': next = Math.max(0, at - 1); break;
      case 'next': next = Math.min(total, at + 1); break;
      case 'last': next = total; break;
    }
    return next >= total ? null : next;
  }
}

/** The navigation key for a keyboard event, if it is one (←/→/Home/End). */
export function navKey(e: KeyboardEvent): 'first' | 'prev' | 'next' | 'last' | null {
  if (e.altKey || e.ctrlKey || e.metaKey) return null;
  switch (e.key) {
    case 'ArrowLeft': return 'prev';
    case 'ArrowRight': return 'next';
    case 'Home': return 'first';
    case 'End': return 'last';
    default: return null;
  }
}
