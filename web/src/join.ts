// SPDX-License-Identifier: AGPL-3.0-or-later
// The invitation page /join/{id}: shows the game's settings and a Join button (POST join).

import { h } from './dom';
import { t, type Key } from './i18n';
import { ApiError, getGame, joinGame } from './api';
import type { Page } from './main';
import type { State } from './protocol';
import { prefs, setName } from './prefs';
import { tcLabel } from './timecontrol';
import { playerName } from './home';
import { errorText } from './errors';

export class JoinPage implements Page {
  private state: State | null = null;
  private error: string | null = null;
  private loaded = false;
  private main!: HTMLElement;

  constructor(private id: string) {}

  render(main: HTMLElement): void {
    this.main = main;
    document.title = `${t('app.name')} — ${t('join.title')}`;
    if (!this.loaded) {
      main.append(h('p', { class: 'card narrow', text: t('game.loading') }));
      void this.load();
      return;
    }
    main.append(this.card());
  }

  private async load(): Promise<void> {
    try {
      this.state = await getGame(this.id);
      if (this.state.seat) { location.replace(`/game/${encodeURIComponent(this.id)}`); return; }
    } catch (e) {
      this.error = e instanceof ApiError ? e.code : 'network';
    }
    this.loaded = true;
    this.main.replaceChildren();
    this.render(this.main);
  }

  private card(): HTMLElement {
    const card = h('section', { class: 'card narrow join', 'aria-labelledby': 'join-title' }, h('h1', { id: 'join-title', text: t('join.title') }));
    const s = this.state;
    if (!s) {
      card.append(h('p', { role: 'alert', text: errorText(this.error ?? 'not_found', '') }), h('a', { href: '/', class: 'btn', text: t('game.backHome') }));
      return card;
    }
    const gameUrl = `/game/${encodeURIComponent(s.id)}`;
    if (s.status !== 'waiting') {
      card.append(h('p', { text: t('join.taken') }), h('a', { href: gameUrl, class: 'btn primary', text: t('join.watch') }));
      return card;
    }
    const free = s.players.white.joined ? 'black' : 'white';
    const host = s.players[free === 'white' ? 'black' : 'white'];
    const tc = tcLabel(s.time_control_periods, s.delay, (n) => t('tc.delayLabel', { s: n })) ?? t('tc.untimed');
    card.append(
      h('p', { class: 'join-color' }, h('span', { class: `piece-icon piece-${free[0]}K`, 'aria-hidden': 'true' }), h('span', { text: t(free === 'white' ? 'join.asWhite' : 'join.asBlack') })),
      h('p', { text: t('join.opponent', { name: playerName(host) }) }),
      h('p', { class: 'muted', text: t('game.info', { tc, variant: t(`variant.${s.variant}` as Key) + (s.chess960_position !== null && s.variant === 'chess960' ? ` #${s.chess960_position}` : ''), edition: s.edition }) + (s.touch_move ? ` · ${t('game.touchMoveOn')}` : '') }),
    );
    const nameId = 'join-name';
    const name = h('input', { type: 'text', id: nameId, maxlength: 40, autocomplete: 'nickname', value: prefs.name });
    name.addEventListener('input', () => setName(name.value));
    const msg = h('p', { class: 'form-message', role: 'alert' });
    const btn = h('button', { type: 'submit', class: 'btn primary big', id: 'join', text: t('join.button') });
    const form = h('form', { class: 'join-form' }, h('div', { class: 'field' }, h('label', { for: nameId, text: t('home.name') }), name), msg, btn);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      btn.disabled = true;
      try {
        const res = await joinGame(s.id, name.value.trim() || undefined);
        location.assign(res.url);
      } catch (err) {
        const code = err instanceof ApiError ? err.code : 'network';
        if (code === 'already_seated') { location.assign(gameUrl); return; }
        btn.disabled = false;
        msg.textContent = errorText(code, err instanceof Error ? err.message : '');
      }
    });
    card.append(form, h('p', {}, h('a', { href: gameUrl, text: t('join.watch') })));
    return card;
  }
}
