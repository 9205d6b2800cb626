// SPDX-License-Identifier: AGPL-3.0-or-later
// An event's page, "/event/{id}": registration, withdrawal and the half-point bye; the live
// standings with the event's tie-breaks (FIDE Handbook C.07); every round's pairings and
// results with each game's link; the rating changes at the end; the TRF and PGN downloads;
// the organiser's controls (start, pair, result, forfeit, late entry, end), each announcing the
// rule it applied (C.04, C.05, C.07, Art. 6.7); and the "your game" notice once a round is
// paired. The page polls the event (one request at a time, every two seconds, up to 30 s after
// errors or while the tab is hidden, never after the event has finished).

import { h, clear } from './dom';
import { hasKey, num, t, tn, type Key } from './i18n';
import type { Page } from './main';
import { currentUser, type User } from './account';
import { ApiError } from './api';
import { eventErrorText } from './errors';
import { EVENT_EDITION, scroller } from './events';
import { tcLabel } from './timecontrol';
import type { Edition } from './protocol';
import {
  act, eventPgnUrl, getEvent, RESULTS, trfUrl,
  type Action, type ActionAnswer, type EventGame, type EventView, type PlayerRef,
} from './eventapi';

/**
 * The Article of the default time in an edition of the Laws: 2014 numbers it 6.7 a, 2018 and
 * 2023 6.7.1 (protocol §9).
 *
 * ```ts
 * defaultTimeArticle('2023'); // "6.7.1"
 * ```
 */
export const defaultTimeArticle = (edition: Edition): string => (edition === '2014' ? '6.7 a' : '6.7.1');

/** Milliseconds between polls of the event, and the most after repeated errors. */
export const POLL_MS = 2000;
const POLL_MAX_MS = 30000;

const codeOf = (e: unknown) => (e instanceof ApiError ? e.code : 'network');
const col = (k: Key) => h('th', { scope: 'col', text: t(k) });

/** A player's name from the server's reference (a starting number or a name). */
export function playerName(ev: EventView, ref: PlayerRef, name?: string | null): string {
  if (name) return name;
  if (ref === null || ref === undefined) return '—';
  if (typeof ref === 'number') return ev.players.find((p) => p.no === ref)?.name ?? `#${ref}`;
  return ref;
}

/** The rule to name for an action when the server's answer names none. */
export function ruleOf(ev: EventView | null, action: Action): string {
  switch (action) {
    case 'start': case 'pair': return ev?.system === 'round_robin' ? 'C.05' : 'C.04.3';
    case 'forfeit': return 'Art. 10.1';
    case 'bye': return 'C.04.1';
    case 'result': case 'end': return 'C.07';
    default: return 'C.04';
  }
}

/**
 * The body of a round paired by hand (docs/protocol.md §9.4) from what the arbiter typed: boards
 * "4-1, 2-3" (or "4 1; 2 3", one per line) and the bye's number, if any. Anything unreadable is
 * sent as typed, for the server to refuse in words.
 */
export function handPairing(boards: string, bye: string): Record<string, unknown> {
  const pairs = boards.split(/[,;\n]+/).map((b) => b.trim()).filter((b) => b !== '').map((b) => {
    const m = /^(\d+)\s*(?:[-–—:]|\s)\s*(\d+)$/.exec(b);
    return m ? [Number(m[1]), Number(m[2])] : b;
  });
  const n = Number(bye);
  return { boards: pairs, bye: bye.trim() !== '' && Number.isInteger(n) && n > 0 ? n : null };
}

/** A tie-break's name in words from its C.07 code ("SB/C1": "Sonneborn-Berger, cut 1"), or null. */
export function tieBreakName(code: string): string | null {
  const [name, cut] = code.toUpperCase().split('/');
  const k = `tb.${name}`;
  if (!hasKey(k)) return null;
  const c = `tb.${cut}`;
  return cut && hasKey(c) ? t('tb.cut', { name: t(k), cut: t(c) }) : t(k);
}

/** A tie-break's column header: the code as shown, its name in words for screen readers and on hover. */
function tieBreakHeader(code: string): HTMLElement {
  const name = tieBreakName(code);
  if (!name) return h('th', { scope: 'col', text: code });
  return h('th', { scope: 'col', abbr: name }, h('abbr', { title: name, 'aria-hidden': 'true', text: code }), h('span', { class: 'sr-only', text: name }));
}

/** The standings table: rank, number, name, points and one column per tie-break. */
export function standingsTable(ev: EventView): HTMLElement {
  if (!ev.standings.length) return h('p', { text: t('event.noStandings') });
  const names = ev.standings[0].tiebreaks.map((tb) => tb.name);
  // Named by the section's heading (a caption of the same words read it twice).
  return scroller(h('table', { class: 'event-table', id: 'standings-table', 'aria-labelledby': 'standings-title' },
    h('thead', {}, h('tr', {}, col('event.rank'), col('event.no'), col('event.playerName'), col('event.points'),
      ...names.map(tieBreakHeader))),
    h('tbody', {}, ...ev.standings.map((s) => h('tr', { 'data-no': s.no },
      h('td', { text: String(s.rank) }), h('td', { text: String(s.no) }),
      h('th', { scope: 'row', text: s.name }), h('td', { class: 'points', text: String(s.points) }),
      ...s.tiebreaks.map((tb) => h('td', { text: String(tb.value) })))))), t('event.standings'));
}

export function playersTable(ev: EventView): HTMLElement {
  if (!ev.players.length) return h('p', { id: 'no-players', text: t('event.noPlayers') });
  return scroller(h('table', { class: 'event-table', id: 'players-table', 'aria-labelledby': 'players-title' },
    h('thead', {}, h('tr', {}, col('event.no'), col('event.playerName'), col('event.rating'))),
    h('tbody', {}, ...ev.players.map((p) => h('tr', { 'data-no': p.no, class: p.withdrawn ? 'withdrawn' : '' },
      h('td', { text: String(p.no) }),
      h('th', { scope: 'row', text: p.withdrawn ? `${p.name} (${t('event.withdrawn')})` : p.name }),
      // 0: unrated (as in the TRF).
      h('td', { text: p.rating ? String(p.rating) : '—' }))))), t('event.playersTitle'));
}

function gameLink(g: EventGame): HTMLElement | string {
  if (!g.game_id) return '';
  const finished = !!g.result && g.result !== '*';
  return h('a', { href: `/game/${encodeURIComponent(g.game_id)}`, class: finished ? 'replay' : 'watch',
    'aria-label': `${t(finished ? 'event.replay' : 'event.watch')}: ${t('event.board')} ${g.board}`,
    text: t(finished ? 'event.replay' : 'event.watch') });
}

const byeKind = (kind: string) => {
  const k = `bye.${kind}`;
  return k === 'bye.half' || k === 'bye.full' || k === 'bye.pairing' || k === 'bye.zero' ? t(k) : kind;
};

/** Every round, newest first: a table of boards (White, result, Black, the game's link) and its byes. */
export function roundsSection(ev: EventView): HTMLElement {
  const box = h('div', { class: 'rounds' });
  for (const r of [...ev.rounds].sort((a, b) => b.round - a.round)) {
    const sec = h('section', { class: 'round', 'data-round': r.round, 'aria-labelledby': `round-${r.round}-title` },
      h('h3', { id: `round-${r.round}-title`, text: t('event.roundN', { n: r.round }) }),
      scroller(h('table', { class: 'event-table pairings' },
        h('caption', { class: 'sr-only', text: t('event.roundCaption', { n: r.round }) }),
        h('thead', {}, h('tr', {}, col('event.board'), col('event.white'), col('event.result'), col('event.black'), col('event.game'))),
        h('tbody', {}, ...r.games.map((g) => h('tr', { 'data-board': g.board },
          h('th', { scope: 'row', text: String(g.board) }),
          h('td', { class: 'white', text: playerName(ev, g.white, g.white_name) }),
          h('td', { class: 'result', text: g.result && g.result !== '*' ? g.result : t('event.playing') }),
          h('td', { class: 'black', text: playerName(ev, g.black, g.black_name) }),
          h('td', {}, gameLink(g)))))), t('event.roundCaption', { n: r.round })));
    if (r.byes.length) {
      sec.append(h('p', { class: 'byes', text: t('event.byes', { list: r.byes.map((b) => `${playerName(ev, b.player, b.name)} (${byeKind(b.kind)})`).join(', ') }) }));
    }
    box.append(sec);
  }
  return box;
}

/** A rating or a change, whole points; a change signed. */
const fmt = (n: number | null | undefined, signed = false) =>
  n === null || n === undefined ? '—' : signed && Math.round(n) > 0 ? `+${Math.round(n)}` : String(Math.round(n));

export function ratingTable(ev: EventView): HTMLElement | null {
  const changes = ev.rating_changes ?? [];
  if (!changes.length) return null;
  return scroller(h('table', { class: 'event-table', id: 'rating-table', 'aria-labelledby': 'ratings-title' },
    h('thead', {}, h('tr', {}, col('event.playerName'), col('event.before'), col('event.after'), col('event.change'), col('event.fideChange'))),
    h('tbody', {}, ...changes.map((c) => h('tr', { 'data-no': c.no },
      h('th', { scope: 'row', text: c.name || playerName(ev, c.no) }),
      h('td', { text: c.rating_before ? fmt(c.rating_before) : '—' }),
      h('td', { text: fmt(c.rating_after) }),
      h('td', { class: 'change', text: fmt(c.glicko_change, true) }),
      h('td', { class: 'fide-change', text: c.fide_change === null || c.fide_change === undefined ? '—' : (c.fide_change > 0 ? '+' : c.fide_change < 0 ? '−' : '') + num(Math.abs(c.fide_change), 1) }))))), t('event.ratingChanges'));
}

/** The game a player is paired in this round, and who they are in it. */
export function yourGame(ev: EventView, me: User | null): { round: number; game: EventGame; color: 'white' | 'black' | null; opponent: string } | null {
  const id = ev.you?.your_game;
  if (!id) return null;
  for (const r of ev.rounds) {
    const game = r.games.find((g) => g.game_id === id);
    if (!game) continue;
    if (game.result && game.result !== '*') return null;
    const mine = me?.name.toLowerCase();
    const white = playerName(ev, game.white, game.white_name), black = playerName(ev, game.black, game.black_name);
    const color = mine === white.toLowerCase() ? 'white' : mine === black.toLowerCase() ? 'black' : null;
    return { round: r.round, game, color, opponent: color === 'black' ? white : color === 'white' ? black : `${white} – ${black}` };
  }
  return null;
}

export class EventPage implements Page {
  private ev: EventView | null = null;
  private me: User | null = null;
  private shown = '';
  private announcedGame: string | null = null;
  private announcedRound = 0;
  private timer = 0;
  private delay = POLL_MS;
  private inFlight = false;
  /** Until then an action's own answer is the announcement (a poll must not talk over it). */
  private quietUntil = 0;
  /** An action asked for a fresh look while a poll was in flight. */
  private again = false;
  private gone = false;
  private els: Record<string, HTMLElement> = {};
  private inputs: Record<string, HTMLInputElement | HTMLSelectElement> = {};

  constructor(private id: string) {
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden && !this.gone && this.ev && this.ev.status !== 'finished') void this.poll();
    });
  }

  render(main: HTMLElement): void {
    this.shown = '';
    const el = (name: string, tag: 'div' | 'section' | 'p', attrs: Record<string, string> = {}) => (this.els[name] = h(tag, attrs));
    const root = h('section', { class: 'event', 'aria-labelledby': 'event-title' },
      h('h1', { id: 'event-title', text: '…' }),
      el('summary', 'p', { class: 'event-summary', id: 'event-summary' }),
      el('state', 'p', { class: 'event-state', id: 'event-state' }),
      el('yourGame', 'div', { class: 'your-game', id: 'your-game', role: 'alert' }),
      el('status', 'p', { class: 'event-status', id: 'event-status', role: 'status' }),
      el('player', 'div', { class: 'player-actions', id: 'player-actions' }),
      this.organiserControls(),
      h('section', { 'aria-labelledby': 'standings-title' }, h('h2', { id: 'standings-title', text: t('event.standings') }), el('standings', 'div', { id: 'standings' })),
      h('section', { 'aria-labelledby': 'rounds-title' }, h('h2', { id: 'rounds-title', text: t('event.roundsTitle') }), el('rounds', 'div', { id: 'rounds' })),
      el('ratings', 'section', { id: 'rating-changes', 'aria-labelledby': 'ratings-title' }),
      h('section', { 'aria-labelledby': 'players-title' }, h('h2', { id: 'players-title', text: t('event.playersTitle') }), el('players', 'div', { id: 'players' })),
      h('section', { 'aria-labelledby': 'downloads-title' }, h('h2', { id: 'downloads-title', text: t('event.downloads') }),
        h('ul', { class: 'downloads' },
          h('li', {}, h('a', { id: 'download-trf', href: trfUrl(this.id), download: `event-${this.id}.trf`, text: t('event.trf') })),
          h('li', {}, h('a', { id: 'download-pgn', href: eventPgnUrl(this.id), download: `event-${this.id}.pgn`, text: t('event.pgn') })))));
    main.append(root);
    void currentUser().then((u) => { this.me = u; if (this.ev) this.show(this.ev, true); });
    if (this.ev) this.show(this.ev, true);
    if (!this.timer && !this.inFlight) void this.poll();
  }

  destroy(): void {
    this.gone = true;
    clearTimeout(this.timer);
  }

  private async poll(): Promise<void> {
    if (this.gone) return;
    if (this.inFlight) { this.again = true; return; }
    clearTimeout(this.timer);
    this.timer = 0;
    this.inFlight = true;
    try {
      const ev = await getEvent(this.id);
      this.delay = POLL_MS;
      this.show(ev, false);
    } catch (e) {
      this.delay = Math.min(this.delay * 2, POLL_MAX_MS);
      if (!this.ev) this.els.state.textContent = eventErrorText(codeOf(e), e instanceof Error ? e.message : String(e));
    } finally {
      this.inFlight = false;
    }
    if (this.again) { this.again = false; return this.poll(); }
    // A hidden tab looks seldom; a little jitter keeps many pages from polling in step.
    const wait = (document.hidden ? POLL_MAX_MS : this.delay) + Math.floor(Math.random() * 250);
    if (!this.gone && this.ev?.status !== 'finished') this.timer = window.setTimeout(() => void this.poll(), wait);
  }

  /** Draw the event's data; the forms stay as they are (focus and typed values survive a poll). */
  private show(ev: EventView, force: boolean): void {
    const prev = this.ev;
    this.ev = ev;
    const key = JSON.stringify(ev) + (this.me?.name ?? '');
    if (!force && key === this.shown) return;
    this.shown = key;
    document.title = `${ev.name} · ${t('app.name')}`;
    const title = document.getElementById('event-title');
    if (title) title.textContent = ev.name;
    const s = ev.settings;
    const edition = s.edition ?? EVENT_EDITION;
    const rounds = ev.system === 'swiss' ? (s.rounds ?? ev.rounds.length) : Math.max(ev.rounds.length, (ev.players.length - 1 + (ev.players.length % 2)) * (s.double ? 2 : 1));
    this.els.summary.textContent = [
      t('event.summary', {
        system: t(`system.${ev.system}` as Key), rounds: tn('event.rounds', rounds),
        tc: tcLabel([{ moves: null, seconds: s.initial_s ?? 0, increment: s.increment_s ?? 0 }]) ?? '—',
        edition, dt: s.default_time_s ?? 0, art: defaultTimeArticle(edition),
        touch: t(s.touch_move ? 'event.touchOn' : 'event.touchOff'), rated: t(s.rated ? 'event.rated' : 'event.casual'),
      }),
      t('event.organiser', { name: ev.organiser }),
    ].join(' · ');
    const state = [t(`status.${ev.status}` as Key)];
    if (ev.status === 'registration' && s.start_at) state.push(t('event.startsAt', { time: new Date(s.start_at).toLocaleString() }));
    if (ev.current_round) state.push(t('event.roundOf', { n: ev.current_round, total: rounds }));
    this.els.state.textContent = state.join(' · ');

    clear(this.els.standings); this.els.standings.append(standingsTable(ev));
    clear(this.els.rounds); this.els.rounds.append(roundsSection(ev));
    clear(this.els.players); this.els.players.append(playersTable(ev));
    clear(this.els.ratings);
    const rt = ratingTable(ev);
    this.els.ratings.hidden = !rt;
    if (rt) this.els.ratings.append(h('h2', { id: 'ratings-title', text: t('event.ratingChanges') }), rt);
    this.playerActions(ev);
    this.showOrganiser(ev);
    this.showYourGame(ev);
    if (!this.quiet() && prev && ev.current_round > this.announcedRound && prev.current_round < ev.current_round && !ev.you?.your_game) {
      this.els.status.textContent = t('event.roundPaired', { n: ev.current_round });
    }
    if (!this.quiet() && prev && prev.status !== 'finished' && ev.status === 'finished') this.els.status.textContent = t('event.finished');
    this.announcedRound = Math.max(this.announcedRound, ev.current_round);
  }

  private showYourGame(ev: EventView): void {
    const yg = yourGame(ev, this.me);
    const box = this.els.yourGame;
    if (!yg) { clear(box); box.hidden = true; this.announcedGame = null; return; }
    if (this.announcedGame === yg.game.game_id) return;
    this.announcedGame = yg.game.game_id;
    clear(box);
    box.hidden = false;
    const color = yg.color ? t(yg.color === 'white' ? 'event.asWhite' : 'event.asBlack') : '';
    box.append(h('p', { text: t('event.yourGame', { round: yg.round, color, opponent: yg.opponent }) }),
      h('a', { id: 'your-game-link', class: 'button', href: `/game/${encodeURIComponent(yg.game.game_id ?? '')}`, text: t('event.yourGameLink') }));
  }

  private playerActions(ev: EventView): void {
    const box = this.els.player;
    const busy = box.contains(document.activeElement) ? document.activeElement?.id : null;
    clear(box);
    if (!this.me) { box.append(h('p', { id: 'event-login', text: t('event.loginToPlay') })); return; }
    if (ev.status === 'finished') return;
    const registered = !!ev.you?.registered;
    box.append(h('p', { id: 'registration-state', text: t(registered ? 'event.registered' : 'event.notRegistered') }));
    if (!registered && ev.status === 'registration') box.append(this.button('register', t('event.register'), 'register'));
    if (registered && ev.system === 'swiss') {
      // A half-point bye is asked for in a Swiss only (C.04.1); a round-robin's pairings are fixed.
      const total = ev.system === 'swiss' ? (ev.settings.rounds ?? 1) : Math.max(1, ev.rounds.length);
      const round = h('input', { type: 'number', id: 'bye-round', min: ev.current_round + 1, max: Math.max(total, ev.current_round + 1), value: ev.current_round + 1 });
      const bye = this.button('bye', t('event.bye'), 'bye', () => ({ round: Number(round.value) }));
      box.append(h('div', { class: 'field inline' }, h('label', { for: 'bye-round', text: t('event.byeRound') }), round, bye));
    }
    if (registered) box.append(this.button('withdraw', t('event.withdraw'), 'withdraw'));
    if (busy) document.getElementById(busy)?.focus();
  }

  /** A button that posts `action` and announces the rule the server applied. */
  private button(id: string, label: string, action: Action, body: () => Record<string, unknown> = () => ({}), confirmText?: string): HTMLButtonElement {
    const b = h('button', { type: 'button', id: `ev-${id}`, text: label });
    b.addEventListener('click', () => {
      if (confirmText && !confirm(confirmText)) return;
      void this.run(action, body());
    });
    return b;
  }

  private async run(action: Action, body: Record<string, unknown>): Promise<void> {
    const status = this.els.status;
    status.textContent = '';
    try {
      const a: ActionAnswer = await act(this.id, action, body);
      const rule = typeof a.rule === 'string' && a.rule ? a.rule : ruleOf(this.ev, action);
      const what = t(`action.${action}` as Key);
      status.textContent = typeof a.message === 'string' && a.message
        ? t('event.ruleMsg', { action: what, rule, message: a.message })
        : t('event.rule', { action: what, rule });
    } catch (e) {
      status.textContent = eventErrorText(codeOf(e), e instanceof Error ? e.message : String(e));
    }
    this.delay = POLL_MS;
    this.quietUntil = Date.now() + 2 * POLL_MS;
    await this.poll();
  }

  private quiet(): boolean {
    return Date.now() < this.quietUntil;
  }

  private organiserControls(): HTMLElement {
    const num = (id: string, min: number) => {
      const input = h('input', { type: 'number', id, min, value: min });
      input.addEventListener('input', () => { input.dataset.touched = '1'; });
      return (this.inputs[id] = input);
    };
    const lbl = (id: string, k: Key) => h('label', { for: id, text: t(k) });
    const result = (this.inputs['res-result'] = h('select', { id: 'res-result' }, ...RESULTS.map((r) => h('option', { value: r, text: r }))));
    const late = (this.inputs['late-user'] = h('input', { id: 'late-user', autocomplete: 'off', maxlength: 20 }));
    const hand = (this.inputs['hand-boards'] = h('input', { id: 'hand-boards', autocomplete: 'off', inputmode: 'numeric' }));
    const handBye = (this.inputs['hand-bye'] = h('input', { type: 'number', id: 'hand-bye', min: 1 }));
    const v = (id: string) => this.inputs[id].value;
    const box = h('section', { class: 'organiser', id: 'organiser', 'aria-labelledby': 'organiser-title', hidden: true },
      h('h2', { id: 'organiser-title', text: t('event.controls') }),
      h('div', { class: 'btn-row' },
        (this.els.startBtn = this.button('start', t('event.startBtn'), 'start')),
        (this.els.pairBtn = this.button('pair', t('event.pairBtn'), 'pair')),
        (this.els.endBtn = this.button('end', t('event.endBtn'), 'end', () => ({}), t('event.confirmEnd')))),
      (this.els.resultForm = h('fieldset', { class: 'organiser-form', id: 'result-form' },
        h('legend', { text: t('event.resultTitle') }),
        lbl('res-round', 'events.round'), num('res-round', 1), lbl('res-board', 'event.board'), num('res-board', 1),
        lbl('res-result', 'event.result'), result,
        this.button('result', t('event.resultBtn'), 'result', () => ({ round: Number(v('res-round')), board: Number(v('res-board')), result: v('res-result') })))),
      (this.els.forfeitForm = h('fieldset', { class: 'organiser-form', id: 'forfeit-form' },
        h('legend', { text: t('event.forfeitTitle') }),
        h('p', { class: 'hint', text: t('event.forfeitHint') }),
        lbl('ff-player', 'event.player'), num('ff-player', 1), lbl('ff-round', 'events.round'), num('ff-round', 1),
        this.button('forfeit', t('event.forfeitBtn'), 'forfeit', () => ({ player: Number(v('ff-player')), round: Number(v('ff-round')) })))),
      (this.els.problem = h('p', { class: 'pairing-problem', id: 'pairing-problem', role: 'alert', hidden: true })),
      (this.els.handForm = h('fieldset', { class: 'organiser-form', id: 'hand-form' },
        h('legend', { text: t('event.handTitle') }),
        lbl('hand-boards', 'event.handBoards'), hand, lbl('hand-bye', 'event.handBye'), handBye,
        this.button('pair-hand', t('event.handBtn'), 'pair', () => handPairing(v('hand-boards'), v('hand-bye'))))),
      (this.els.lateForm = h('fieldset', { class: 'organiser-form', id: 'late-form' },
        h('legend', { text: t('event.lateTitle') }),
        lbl('late-user', 'event.lateUser'), late,
        this.button('late', t('event.lateBtn'), 'late_entry', () => ({ user: v('late-user').trim() })))));
    this.els.organiser = box;
    return box;
  }

  private showOrganiser(ev: EventView): void {
    const mine = !!ev.you?.organiser;
    this.els.organiser.hidden = !mine;
    if (!mine) return;
    this.els.startBtn.hidden = ev.status !== 'registration';
    this.els.pairBtn.hidden = ev.status !== 'running';
    this.els.endBtn.hidden = ev.status !== 'running';
    this.els.resultForm.hidden = ev.status === 'registration';
    this.els.forfeitForm.hidden = ev.status === 'registration';
    // A late entry and a round paired by hand: a running Swiss only (§9.4).
    const runningSwiss = ev.status === 'running' && ev.system === 'swiss';
    this.els.lateForm.hidden = !runningSwiss;
    this.els.handForm.hidden = !runningSwiss;
    const problem = ev.pairing_problem;
    this.els.problem.hidden = !problem;
    this.els.problem.textContent = problem ? t('event.pairingProblem', { round: problem.round, message: problem.message }) : '';
    // The current round is the likeliest one to correct; keep what the arbiter typed otherwise.
    for (const id of ['res-round', 'ff-round']) {
      const input = this.inputs[id] as HTMLInputElement;
      if (document.activeElement !== input && ev.current_round && !input.dataset.touched) input.value = String(ev.current_round);
    }
  }
}
