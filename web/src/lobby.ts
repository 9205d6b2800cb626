// SPDX-License-Identifier: AGPL-3.0-or-later
// The lobby of open seeks on the home page (docs/protocol.md §3.8): the list arrives live over
// /api/lobby/ws; "Accept" joins the seek's game and opens it (the creator is waiting there).

import { ApiError, joinGame } from './api';
import { clear, h } from './dom';
import { errorText } from './errors';
import { t, type Key } from './i18n';
import { prefs } from './prefs';
import type { Color, Delay, Edition, Period, Variant } from './protocol';
import { tcLabel } from './timecontrol';

/** An open seek of the lobby (§3.8). */
export interface Seek {
  game: string;
  name: string | null;
  color: Color;
  time_control: string;
  time_control_periods: Period[];
  delay: Delay | null;
  variant: Variant;
  edition: Edition;
  touch_move: boolean;
  created_at: number;
}

export class LobbyBox {
  readonly el: HTMLElement;
  private list: HTMLElement;
  private message: HTMLElement;
  private ws: WebSocket | null = null;
  private retry = 0;
  private closed = false;

  constructor() {
    this.el = h('section', { class: 'card lobby', id: 'lobby', 'aria-labelledby': 'lobby-title' });
    this.list = h('div', { class: 'lobby-list', 'aria-live': 'polite' });
    this.message = h('p', { class: 'form-error', role: 'alert' });
    this.el.append(h('h2', { id: 'lobby-title', text: t('lobby.title') }), h('p', { class: 'hint', text: t('lobby.hint') }), this.list, this.message);
    this.show([]);
    this.connect();
  }

  destroy(): void {
    this.closed = true;
    clearTimeout(this.retry);
    this.ws?.close();
  }

  private connect(): void {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/lobby/ws`);
    this.ws = ws;
    ws.onmessage = (e) => {
      try {
        const msg = JSON.parse(String(e.data)) as { type: string; seeks?: Seek[] };
        if (msg.type === 'seeks' && msg.seeks) this.show(msg.seeks);
      } catch { /* not JSON: ignored */ }
    };
    ws.onclose = () => {
      if (!this.closed) this.retry = window.setTimeout(() => this.connect(), 3000);
    };
  }

  private show(seeks: Seek[]): void {
    clear(this.list);
    if (seeks.length === 0) {
      this.list.append(h('p', { class: 'empty', id: 'lobby-empty', text: t('lobby.empty') }));
      return;
    }
    const table = h('table', { class: 'lobby-table' });
    table.append(h('thead', {}, h('tr', {},
      h('th', { scope: 'col', text: t('lobby.player') }),
      h('th', { scope: 'col', text: t('lobby.timeControl') }),
      h('th', { scope: 'col', text: t('lobby.youPlay') }),
      h('th', { scope: 'col', text: '' }))));
    const body = h('tbody');
    for (const s of seeks) {
      const tc = tcLabel(s.time_control_periods, s.delay, (n) => t('tc.delayLabel', { s: n })) ?? t('tc.untimed');
      const variant = s.variant === 'chess960' ? ` · ${t('variant.chess960')}` : '';
      const yours = s.color === 'white' ? 'black' : 'white';
      const accept = h('button', { type: 'button', class: 'btn primary', 'data-game': s.game, text: t('lobby.accept') });
      accept.addEventListener('click', () => void this.accept(s.game, accept));
      body.append(h('tr', { 'data-game': s.game },
        h('td', { text: s.name ?? t('player.anonymous' as Key) }),
        h('td', { text: tc + variant }),
        h('td', { text: t(`color.${yours}` as Key) }),
        h('td', {}, accept)));
    }
    table.append(body);
    this.list.append(table);
  }

  private async accept(game: string, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    this.message.textContent = '';
    try {
      const name = prefs.name.trim();
      const res = await joinGame(game, name ? name.slice(0, 40) : undefined);
      location.assign(res.url);
    } catch (e) {
      button.disabled = false;
      this.message.textContent = errorText(e instanceof ApiError ? e.code : 'network', e instanceof Error ? e.message : String(e));
    }
  }
}
