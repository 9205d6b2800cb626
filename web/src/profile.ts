// SPDX-License-Identifier: AGPL-3.0-or-later
// A player's page, "/@/{name}" (docs/protocol.md §8): ratings per time class, the rating's
// history as an inline SVG chart (with its figures in text for screen readers), results by
// colour, and the games played (paginated, filtered by result and time class).

import { h, clear } from './dom';
import { t, type Key } from './i18n';
import type { Page } from './main';
import { changePassword, currentUser } from './account';
import { errorText } from './errors';
import { ApiError } from './api';

type Class = 'bullet' | 'blitz' | 'rapid' | 'classical';
const CLASSES: Class[] = ['bullet', 'blitz', 'rapid', 'classical'];
interface RatingView { rating: number; deviation: number; games: number; provisional: boolean }
interface Profile {
  name: string; created_at: number;
  ratings: Record<Class, RatingView | null>;
  results: Record<'white' | 'black', { win: number; draw: number; loss: number }>;
}
interface GameRow { id: string; url: string; color: string; opponent: string | null; result: string; outcome: string | null; time_class: string; rated: boolean; created_at: number }
interface Point { at: number; rating: number; game_id: string }

async function get<T>(path: string): Promise<T> {
  const res = await fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(data?.error?.code ?? 'internal', data?.error?.message ?? res.statusText, res.status);
  return data as T;
}

/** The rating history as a line chart: an inline SVG, described in text beside it. */
export function ratingChart(points: Point[], label: string): HTMLElement {
  const W = 320, H = 120, P = 8;
  const fig = h('figure', { class: 'rating-chart' });
  const min = Math.min(...points.map((p) => p.rating)), max = Math.max(...points.map((p) => p.rating));
  const span = Math.max(max - min, 1);
  const xy = points.map((p, i) => [
    P + (points.length === 1 ? (W - 2 * P) / 2 : (i * (W - 2 * P)) / (points.length - 1)),
    H - P - ((p.rating - min) * (H - 2 * P)) / span,
  ]);
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  const line = document.createElementNS(NS, 'polyline');
  line.setAttribute('points', xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' '));
  line.setAttribute('fill', 'none');
  line.setAttribute('stroke', 'currentColor');
  line.setAttribute('stroke-width', '2');
  svg.append(line);
  for (const [x, y] of xy) {
    const c = document.createElementNS(NS, 'circle');
    c.setAttribute('cx', x.toFixed(1)); c.setAttribute('cy', y.toFixed(1)); c.setAttribute('r', '3');
    c.setAttribute('fill', 'currentColor');
    svg.append(c);
  }
  fig.append(svg, h('figcaption', { text: `${label}: ${points.map((p) => p.rating).join(', ')}` }));
  return fig;
}

export class ProfilePage implements Page {
  private page = 1;
  private result = '';
  private timeClass = '';

  constructor(private name: string) {}

  render(main: HTMLElement): void {
    const root = h('section', { class: 'profile', 'aria-labelledby': 'profile-title' });
    main.append(root);
    void this.load(root);
  }

  private async load(root: HTMLElement): Promise<void> {
    let p: Profile;
    try {
      p = await get<Profile>(`/api/users/${encodeURIComponent(this.name)}`);
    } catch (e) {
      // 404: no such player (protocol §8), not the game page's "no game with this link".
      const code = e instanceof ApiError ? (e.code === 'not_found' ? 'user_not_found' : e.code) : 'network';
      root.append(h('p', { role: 'alert', text: errorText(code, String(e)) }));
      return;
    }
    document.title = `${p.name} · ${t('app.name')}`;
    root.append(h('h1', { id: 'profile-title', text: p.name }));
    const ratings = h('table', { class: 'ratings', id: 'ratings' },
      h('caption', { text: t('profile.ratings') }),
      h('tr', {}, h('th', { scope: 'col', text: t('profile.class') }), h('th', { scope: 'col', text: t('profile.rating') }), h('th', { scope: 'col', text: t('profile.games') })),
      ...CLASSES.map((c) => {
        const r = p.ratings[c];
        return h('tr', { 'data-class': c }, h('th', { scope: 'row', text: t(`class.${c}` as Key) }),
          h('td', { class: 'rating', text: r ? `${r.rating}${r.provisional ? '?' : ''} ±${r.deviation}` : '—' }),
          h('td', { text: String(r?.games ?? 0) }));
      }));
    const results = h('table', { class: 'results', id: 'results' },
      h('caption', { text: t('profile.byColour') }),
      h('tr', {}, h('th', {}), ...(['win', 'draw', 'loss'] as const).map((k) => h('th', { scope: 'col', text: t(`profile.${k}` as Key) }))),
      ...(['white', 'black'] as const).map((c) => h('tr', {}, h('th', { scope: 'row', text: t(`profile.${c}` as Key) }),
        ...(['win', 'draw', 'loss'] as const).map((k) => h('td', { text: String(p.results[c][k]) })))));
    const charts = h('div', { class: 'charts' });
    root.append(ratings, charts, results);
    for (const c of CLASSES) {
      if (!p.ratings[c]) continue;
      const hist = await get<{ points: Point[] }>(`/api/users/${encodeURIComponent(this.name)}/ratings/${c}`).catch(() => ({ points: [] }));
      if (hist.points.length) charts.append(ratingChart(hist.points, t('profile.history', { class: t(`class.${c}` as Key) })));
    }
    const games = h('div', { class: 'profile-games' });
    root.append(this.filters(games), games);
    void this.games(games);
    const user = await currentUser();
    if (user && user.name.toLowerCase() === p.name.toLowerCase()) root.append(this.passwordForm());
  }

  private filters(games: HTMLElement): HTMLElement {
    const sel = (id: string, label: string, opts: [string, string][], on: (v: string) => void) => {
      const s = h('select', { id }, ...opts.map(([v, l]) => h('option', { value: v, text: l })));
      s.addEventListener('change', () => { on(s.value); this.page = 1; void this.games(games); });
      return h('label', { class: 'setting' }, h('span', { text: label }), s);
    };
    return h('div', { class: 'filters', role: 'group', 'aria-label': t('profile.filters') },
      sel('filter-result', t('profile.result'), [['', t('profile.all')], ['win', t('profile.win')], ['draw', t('profile.draw')], ['loss', t('profile.loss')]], (v) => { this.result = v; }),
      sel('filter-class', t('profile.class'), [['', t('profile.all')], ...CLASSES.map((c) => [c, t(`class.${c}` as Key)] as [string, string]), ['untimed', t('class.untimed')]], (v) => { this.timeClass = v; }));
  }

  private async games(box: HTMLElement): Promise<void> {
    const q = new URLSearchParams({ page: String(this.page) });
    if (this.result) q.set('result', this.result);
    if (this.timeClass) q.set('time_class', this.timeClass);
    const r = await get<{ games: GameRow[]; more: boolean }>(`/api/users/${encodeURIComponent(this.name)}/games?${q}`).catch(() => ({ games: [], more: false }));
    clear(box);
    box.append(h('h2', { text: t('profile.gamesTitle') }));
    if (!r.games.length) box.append(h('p', { text: t('profile.noGames') }));
    box.append(h('ul', { class: 'game-list', id: 'profile-games' }, ...r.games.map((g) => h('li', { 'data-outcome': g.outcome ?? '' },
      h('a', { href: g.url, text: `${t(`profile.${g.color === 'black' ? 'black' : 'white'}` as Key)} — ${g.opponent ?? '?'} · ${g.result} · ${t(`class.${g.time_class}` as Key)}${g.rated ? ' · ' + t('profile.rated') : ''}` }),
      h('time', { datetime: new Date(g.created_at).toISOString(), text: ' ' + new Date(g.created_at).toLocaleDateString() })))));
    const nav = h('nav', { class: 'pager', 'aria-label': t('profile.pages') });
    if (this.page > 1) {
      const prev = h('button', { type: 'button', id: 'page-prev', text: t('profile.prev') });
      prev.addEventListener('click', () => { this.page -= 1; void this.games(box); });
      nav.append(prev);
    }
    if (r.more) {
      const next = h('button', { type: 'button', id: 'page-next', text: t('profile.next') });
      next.addEventListener('click', () => { this.page += 1; void this.games(box); });
      nav.append(next);
    }
    box.append(nav);
  }

  private passwordForm(): HTMLElement {
    const cur = h('input', { id: 'pw-current', type: 'password', autocomplete: 'current-password', required: true });
    const next = h('input', { id: 'pw-new', type: 'password', autocomplete: 'new-password', required: true, minlength: 8, maxlength: 128 });
    const msg = h('p', { role: 'status', id: 'pw-message' });
    const form = h('form', { class: 'account-form', id: 'password-form' },
      h('h2', { text: t('account.changePassword') }),
      h('label', { for: 'pw-current', text: t('account.currentPassword') }), cur,
      h('label', { for: 'pw-new', text: t('account.newPassword') }), next,
      h('button', { type: 'submit', text: t('account.changePassword') }), msg);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      try { await changePassword(cur.value, next.value); msg.textContent = t('account.passwordChanged'); cur.value = next.value = ''; }
      catch (err) { msg.textContent = errorText(err instanceof ApiError ? err.code : 'network', String(err)); }
    });
    return form;
  }
}
