// SPDX-License-Identifier: AGPL-3.0-or-later
// Abort before one's first move (§4.2 `abort`) and the rematch after the game (§3.7), as buttons
// the game page places among its controls. A rematch made while the page is open takes both
// players to the new game.

import { ApiError, rematch } from './api';
import { h } from './dom';
import { errorText } from './errors';
import { t, type Key } from './i18n';
import type { ClientAction, Color, GameEvent, Seat, State } from './protocol';

export interface PostgameHost {
  readonly id: string;
  state(): State | null;
  seat(): Seat | null;
  send(a: ClientAction): boolean;
  notice(text: string): void;
  announce(text: string, urgent?: boolean): void;
  refresh(): void;
}

export class Postgame {
  private offer: Color | null = null;
  private game: string | null = null;
  private busy = false;

  constructor(private host: PostgameHost) {}

  /** The rematch state as a full snapshot reports it. */
  onState(s: State): void {
    this.offer = s.rematch_offer ?? null;
    this.game = s.rematch ?? null;
  }

  /** Rematch events; `live`: not a catch-up replay. */
  onEvent(ev: GameEvent, live: boolean): void {
    const seat = this.host.seat();
    if (ev.kind === 'rematch_offer') {
      this.offer = ev.by;
      if (seat !== ev.by) this.host.announce(t('rematch.offered', { color: t(`color.${ev.by}` as Key) }), true);
    } else if (ev.kind === 'rematch') {
      this.offer = null;
      this.game = ev.game;
      // Both players go to the new game; spectators get a link.
      if (live && seat !== null) void this.take();
    } else if (ev.kind === 'aborted' && ev.by) {
      const text = t('ev.abortedBy', { color: t(`color.${ev.by}` as Key) });
      this.host.notice(text);
      this.host.announce(text, true);
    }
  }

  key(): string {
    return [this.offer, this.game, this.busy].join('|');
  }

  /** The buttons for the game's state now. */
  controls(): HTMLElement[] {
    const s = this.host.state();
    const seat = this.host.seat();
    if (!s) return [];
    const out: HTMLElement[] = [];
    if (s.status !== 'finished' && seat !== null) {
      const moved = s.moves.some((m) => seat === 'both' || m.color === seat);
      if (!moved) {
        const b = h('button', { type: 'button', class: 'btn danger-ghost', id: 'abort', text: t('game.abort') });
        b.addEventListener('click', () => {
          this.host.send(seat === 'both' ? { type: 'abort', color: s.turn } : { type: 'abort' });
        });
        out.push(b);
      }
    }
    if (s.status === 'finished') {
      if (this.game) {
        if (seat !== null) {
          const b = h('button', { type: 'button', class: 'btn primary', id: 'rematch', text: t('rematch.go') });
          b.addEventListener('click', () => void this.take());
          out.push(b);
        } else {
          out.push(h('a', { class: 'btn', id: 'rematch', href: `/game/${encodeURIComponent(this.game)}`, text: t('rematch.watch') }));
        }
      } else if (seat !== null && (s.mode !== 'invite' || (s.players.white.joined && s.players.black.joined))) {
        const mine = this.offer !== null && this.offer === seat;
        const theirs = this.offer !== null && this.offer !== seat;
        const label = mine ? t('rematch.waiting') : theirs ? t('rematch.accept') : t('rematch.offer');
        const b = h('button', { type: 'button', class: theirs ? 'btn primary' : 'btn', id: 'rematch', text: label, disabled: mine || this.busy });
        b.addEventListener('click', () => void this.take());
        out.push(b);
      }
    }
    return out;
  }

  /** Offers, accepts or opens the rematch. */
  private async take(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.host.refresh();
    try {
      const res = await rematch(this.host.id);
      if ('url' in res) {
        location.assign(res.url);
        return;
      }
      this.offer = this.host.seat() === 'black' ? 'black' : 'white';
    } catch (e) {
      this.host.notice(errorText(e instanceof ApiError ? e.code : 'network', e instanceof Error ? e.message : String(e)));
    }
    this.busy = false;
    this.host.refresh();
  }
}
