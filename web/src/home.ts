// SPDX-License-Identifier: AGPL-3.0-or-later
// Home page: the new-game form and the list of live and finished games.

import { LobbyBox } from './lobby';
import { h, clear, pieceIcon } from './dom';
import { t, type Key } from './i18n';
import { createGame, listGames, ApiError } from './api';
import { ENGINE_LEVELS, type Color, type CreateRequest, type Delay, type Edition, type GameSummary, type Mode, type Player, type Variant } from './protocol';
import { PRESETS, formatTimeControl, lawsClass, tcLabel, type Period } from './timecontrol';
import { prefs, setName } from './prefs';
import type { Page } from './main';
import { errorText } from './errors';
import { icon } from './icons';

interface FormState {
  mode: Mode;
  level: number;
  color: Color | 'random';
  tc: string; // a preset, '-' or 'custom'
  periods: Period[];
  delayKind: 'none' | 'bronstein' | 'simple';
  delaySeconds: number;
  variant: Variant;
  c960Random: boolean;
  c960Number: number;
  edition: Edition;
  touchMove: boolean;
  /** List an invitation in the lobby (§3.8). */
  lobby?: boolean;
}

const DEFAULTS: FormState = {
  mode: 'engine', level: 3, color: 'random', tc: '300+3',
  periods: [{ moves: 40, seconds: 5400, increment: 30 }, { moves: null, seconds: 1800, increment: 30 }],
  delayKind: 'none', delaySeconds: 5,
  variant: 'standard', c960Random: true, c960Number: 518, edition: '2014', touchMove: false,
};

function loadForm(): FormState {
  try {
    const saved = JSON.parse(localStorage.getItem('arbiter.newgame') ?? '{}');
    return { ...DEFAULTS, ...saved };
  } catch { return { ...DEFAULTS }; }
}

let uid = 0;
const nextId = (p: string) => `${p}-${++uid}`;

/** A group of radio buttons styled as a segmented control. */
function radios<T extends string | number>(
  name: string, legend: string, items: { value: T; label: (Node | string)[]; title?: string; ariaLabel?: string }[],
  selected: T, onChange: (v: T) => void, cls = '',
): HTMLFieldSetElement {
  const fs = h('fieldset', { class: `field radios ${cls}` }, h('legend', { text: legend }));
  const wrap = h('div', { class: 'radio-row' });
  for (const it of items) {
    const id = nextId(name);
    const input = h('input', { type: 'radio', name, id, value: String(it.value), ...(it.ariaLabel ? { 'aria-label': it.ariaLabel } : {}) });
    input.checked = it.value === selected;
    input.addEventListener('change', () => { if (input.checked) onChange(it.value); });
    wrap.append(input, h('label', { for: id, title: it.title }, ...it.label));
  }
  fs.append(wrap);
  return fs;
}

export function playerName(p: Player): string {
  if (p.kind === 'engine') return p.engine_elo ? t('player.engine', { n: p.engine_level ?? '' }) : t('player.engineFull');
  if (!p.joined) return t('player.open');
  return p.name ?? t('player.anonymous');
}

export function resultText(g: { result: string; termination: { kind: string } | null; status: string }): string {
  if (g.status !== 'finished') return '*';
  return g.result === '1/2-1/2' ? '½–½' : g.result.replace('-', '–');
}

export class HomePage implements Page {
  private form = loadForm();
  private rated = false;
  private root!: HTMLElement;
  private gamesBox!: HTMLElement;
  private refresh = 0;
  private message!: HTMLElement;
  private gamesKey = '';
  private lobby: LobbyBox | null = null;

  render(main: HTMLElement): void {
    document.title = `${t('app.name')} — ${t('home.title')}`;
    this.root = h('div', { class: 'home' });
    this.gamesBox = h('section', { class: 'card games', 'aria-labelledby': 'games-title' });
    this.gamesKey = '';
    this.lobby?.destroy();
    this.lobby = new LobbyBox();
    this.root.append(this.renderForm(), this.lobby.el, this.gamesBox);
    main.append(this.root);
    this.sync();
    void this.loadGames();
    clearInterval(this.refresh);
    this.refresh = window.setInterval(() => void this.loadGames(), 10000);
  }

  destroy(): void { clearInterval(this.refresh); this.lobby?.destroy(); }

  private save(): void {
    try { localStorage.setItem('arbiter.newgame', JSON.stringify(this.form)); } catch { /* ignore */ }
  }

  private update(patch: Partial<FormState>): void {
    Object.assign(this.form, patch);
    this.save();
    this.sync();
  }

  /** Show the parts of the form that the current choices need (no rebuild: focus stays put). */
  private sync(): void {
    const f = this.form;
    const form = this.root?.querySelector('.new-game');
    if (!form) return;
    const show = (sel: string, on: boolean) => form.querySelectorAll<HTMLElement>(sel).forEach((el) => { el.hidden = !on; });
    show('[data-key="level"]', f.mode === 'engine');
    show('[data-key="color"]', f.mode !== 'local');
    show('[data-key="rated"]', f.mode === 'invite');
    show('[data-key="lobby"]', f.mode === 'invite');
    show('.custom-tc', f.tc === 'custom');
    show('.c960', f.variant === 'chess960');
    show('.c960-number', f.variant === 'chess960' && !f.c960Random);
    show('.delay-seconds', f.delayKind !== 'none');
    const hint = form.querySelector('.mode-hint');
    if (hint) hint.textContent = t(`mode.${f.mode}.hint` as Key);
    this.updatePreview();
  }

  private renderForm(): HTMLElement {
    const f = this.form;
    const form = h('form', { class: 'card new-game', 'aria-labelledby': 'new-game-title', novalidate: true });
    form.append(h('h1', { id: 'new-game-title', text: t('home.newGame') }));

    const modes: Mode[] = ['engine', 'invite', 'local'];
    const modeSet = radios('mode', t('home.opponent'), modes.map((m) => ({
      value: m, label: [icon(m), h('span', { class: 'opt-main', text: t(`mode.${m}` as Key) })],
    })), f.mode, (v) => this.update({ mode: v }), 'modes');
    modeSet.dataset.key = 'mode';
    modeSet.append(h('p', { class: 'hint mode-hint', 'aria-live': 'polite' }));
    form.append(modeSet);

    const lv = radios('level', t('home.level'), ENGINE_LEVELS.map((l) => ({
      value: l.level,
      label: [h('span', { class: 'opt-main', text: l.elo ? String(l.level) : t('level.full') }),
        h('span', { class: 'opt-sub', text: l.elo ? String(l.elo) : '∞' })],
      title: l.elo ? t('level.name', { n: l.level, elo: l.elo }) : t('level.fullLong'),
      // The accessible name in words ("Level 3, UCI_Elo 1950"), not the bare figures "3 1950".
      ariaLabel: l.elo ? t('level.name', { n: l.level, elo: l.elo }) : t('level.fullLong'),
    })), f.level, (v) => this.update({ level: v }), 'levels');
    lv.dataset.key = 'level';
    form.append(lv);

    const colors: (Color | 'random')[] = ['white', 'random', 'black'];
    const cs = radios('color', t('home.color'), colors.map((c) => ({
      value: c,
      label: [c === 'random'
        ? h('span', { class: 'random-icon', 'aria-hidden': 'true' }, pieceIcon('w', 'K'), pieceIcon('b', 'K'))
        : pieceIcon(c === 'white' ? 'w' : 'b', 'K'),
      h('span', { class: 'opt-main', text: t(`color.${c}` as Key) })],
    })), f.color, (v) => this.update({ color: v }), 'colors');
    cs.dataset.key = 'color';
    form.append(cs);

    // Time control presets, grouped by category.
    const tcSet = h('fieldset', { class: 'field radios presets' }, h('legend', { text: t('home.timeControl') }));
    tcSet.dataset.key = 'tc';
    const grid = h('div', { class: 'preset-grid' });
    const addPreset = (value: string, main: string, sub: string, title?: string) => {
      const id = nextId('tc');
      const input = h('input', { type: 'radio', name: 'tc', id, value });
      input.checked = f.tc === value;
      input.addEventListener('change', () => { if (input.checked) this.update({ tc: value }); });
      grid.append(input, h('label', { for: id, title }, h('span', { class: 'opt-main', text: main }), h('span', { class: 'opt-sub', text: sub })));
    };
    // Each preset names the class the server applies under the Laws (blitz, rapid, standard).
    for (const periods of PRESETS) {
      const tc = formatTimeControl(periods);
      const label = tcLabel(periods) ?? tc;
      const [first, ...rest] = label.split(', ');
      const cls = lawsClass(periods);
      addPreset(tc, first, [...rest, t(`tc.class.${cls}`)].join(' · '), t(`tc.classTitle.${cls}`));
    }
    addPreset('custom', t('tc.custom'), '…');
    addPreset('-', '∞', t('tc.untimed'));
    tcSet.append(grid);
    form.append(tcSet, this.renderCustom());

    // Rules: variant, edition, touch-move, name.
    const rules = h('div', { class: 'rules-grid' });
    const variantId = nextId('variant');
    const variantSel = h('select', { id: variantId },
      ...(['standard', 'chess960'] as Variant[]).map((v) => { const o = h('option', { value: v, text: t(`variant.${v}` as Key) }); o.selected = v === f.variant; return o; }));
    variantSel.addEventListener('change', () => this.update({ variant: variantSel.value as Variant }));
    rules.append(h('div', { class: 'field' }, h('label', { for: variantId, text: t('home.variant') }), variantSel));

    const rid = nextId('c960r');
    const rnd = h('input', { type: 'checkbox', id: rid });
    rnd.checked = f.c960Random;
    rnd.addEventListener('change', () => this.update({ c960Random: rnd.checked }));
    const nid = nextId('c960n');
    const num = h('input', { type: 'number', id: nid, min: 0, max: 959, step: 1, value: String(f.c960Number), inputmode: 'numeric' });
    num.addEventListener('input', () => this.update({ c960Number: Number(num.value) }));
    rules.append(h('div', { class: 'field c960' },
      h('div', { class: 'check' }, rnd, h('label', { for: rid, text: t('chess960.random') })),
      h('div', { class: 'c960-number' }, h('label', { for: nid, text: t('chess960.number') }), num)));

    const edId = nextId('edition');
    const edSel = h('select', { id: edId },
      ...(['2014', '2018', '2023'] as Edition[]).map((e) => { const o = h('option', { value: e, text: t(`edition.${e}` as Key) }); o.selected = e === f.edition; return o; }));
    edSel.addEventListener('change', () => this.update({ edition: edSel.value as Edition }));
    rules.append(h('div', { class: 'field' }, h('label', { for: edId, text: t('home.edition') }), edSel));

    const nameId = nextId('name');
    const name = h('input', { type: 'text', id: nameId, maxlength: 40, autocomplete: 'nickname', value: prefs.name });
    name.addEventListener('input', () => setName(name.value));
    rules.append(h('div', { class: 'field' }, h('label', { for: nameId, text: t('home.name') }), name));

    const rated = h('input', { type: 'checkbox', id: 'rated' });
    rated.checked = this.rated;
    rated.addEventListener('change', () => { this.rated = rated.checked; });
    rules.append(h('div', { class: 'field check', 'data-key': 'rated' }, rated, h('label', { for: 'rated', text: t('home.rated') })));

    const lobbyId = nextId('lobby');
    const lb = h('input', { type: 'checkbox', id: lobbyId, 'data-lobby': true });
    lb.checked = f.lobby === true;
    lb.addEventListener('change', () => this.update({ lobby: lb.checked }));
    rules.append(h('div', { class: 'field check', 'data-key': 'lobby' }, lb, h('label', { for: lobbyId, text: t('lobby.list') })));
    const tmId = nextId('touch');
    const tm = h('input', { type: 'checkbox', id: tmId });
    tm.checked = f.touchMove;
    tm.addEventListener('change', () => this.update({ touchMove: tm.checked }));
    rules.append(h('div', { class: 'field check' }, tm, h('label', { for: tmId, text: t('home.touchMove') })));
    form.append(rules);

    this.message = h('p', { class: 'form-message', role: 'alert' });
    const play = h('button', { type: 'submit', class: 'btn primary big', id: 'play', text: t('home.play') });
    form.append(this.message, play);
    form.addEventListener('submit', (e) => { e.preventDefault(); void this.submit(play); });
    return form;
  }

  private renderCustom(): HTMLElement {
    const f = this.form;
    const box = h('fieldset', { class: 'field custom-tc' }, h('legend', { text: t('tc.custom') }));
    const rebuild = (focus: string) => {
      const fresh = this.renderCustom();
      box.replaceWith(fresh);
      this.sync();
      fresh.querySelector<HTMLElement>(focus)?.focus();
    };
    f.periods.forEach((p, i) => {
      const last = i === f.periods.length - 1;
      const row = h('div', { class: 'period' }, h('span', { class: 'period-name', text: t('tc.period', { n: i + 1 }) }));
      const numField = (label: string, value: number | null, onInput: (v: number) => void, attrs: Record<string, string | number> = {}) => {
        const id = nextId('p');
        const input = h('input', { type: 'number', id, min: 0, step: 1, inputmode: 'numeric', value: value === null ? '' : String(value), ...attrs });
        input.addEventListener('input', () => { onInput(Number(input.value)); this.save(); this.updatePreview(); });
        return h('span', { class: 'num' }, h('label', { for: id, text: label }), input);
      };
      row.append(
        last
          ? h('span', { class: 'num' }, h('span', { class: 'label-like', text: t('tc.moves') }), h('span', { class: 'rest', text: t('tc.movesRest') }))
          : numField(t('tc.moves'), p.moves, (v) => { p.moves = v; }, { min: 1 }),
        numField(t('tc.minutes'), p.seconds / 60, (v) => { p.seconds = Math.round(v * 60); }, { min: 1, max: 600 }),
        numField(t('tc.increment'), p.increment, (v) => { p.increment = v; }, { max: 600 }),
      );
      if (f.periods.length > 1) {
        const rm = h('button', { type: 'button', class: 'btn small ghost', 'aria-label': t('tc.removePeriod', { n: i + 1 }), text: '✕' });
        rm.addEventListener('click', () => {
          f.periods.splice(i, 1);
          f.periods[f.periods.length - 1].moves = null;
          this.save();
          rebuild('.add-period');
        });
        row.append(rm);
      }
      box.append(row);
    });
    const add = h('button', { type: 'button', class: 'btn small add-period', text: t('tc.addPeriod') });
    add.addEventListener('click', () => {
      const lastP = f.periods[f.periods.length - 1];
      if (lastP.moves === null) lastP.moves = 40;
      f.periods.push({ moves: null, seconds: 1800, increment: lastP.increment });
      this.save();
      rebuild('.add-period');
    });
    box.append(add);

    const dRow = h('div', { class: 'delay-row' });
    const dKinds = ['none', 'bronstein', 'simple'] as const;
    dRow.append(radios('delay', t('tc.delay'), dKinds.map((k) => ({ value: k, label: [t(`tc.delay.${k}` as Key)] })),
      f.delayKind, (v) => this.update({ delayKind: v }), 'small'));
    const id = nextId('dsec');
    const d = h('input', { type: 'number', id, min: 1, max: 600, step: 1, value: String(f.delaySeconds), inputmode: 'numeric' });
    d.addEventListener('input', () => { f.delaySeconds = Number(d.value); this.save(); this.updatePreview(); });
    dRow.append(h('span', { class: 'num delay-seconds' }, h('label', { for: id, text: t('tc.delaySeconds') }), d));
    box.append(dRow, h('p', { class: 'hint tc-preview', 'aria-live': 'polite' }));
    return box;
  }

  private customCheck(): { tc: string; delay: Delay | null } | { error: string } {
    const f = this.form;
    const ps = f.periods;
    if (ps.some((p) => !(p.seconds >= 60))) return { error: t('tc.reason.minutes') };
    if (ps.slice(0, -1).some((p) => !(p.moves && p.moves >= 1))) return { error: t('tc.reason.moves') };
    let delay: Delay | null = null;
    if (f.delayKind !== 'none') {
      if (!(f.delaySeconds >= 1 && f.delaySeconds <= 600)) return { error: t('tc.reason.delay') };
      if (ps.some((p) => p.increment > 0)) return { error: t('tc.reason.delayInc') };
      delay = { kind: f.delayKind, ms: Math.round(f.delaySeconds * 1000) };
    }
    const periods = ps.map((p, i) => ({ ...p, moves: i === ps.length - 1 ? null : p.moves, increment: Math.max(0, Math.floor(p.increment || 0)) }));
    return { tc: formatTimeControl(periods), delay };
  }

  private updatePreview(): void {
    const el = this.root?.querySelector('.tc-preview');
    if (!el) return;
    const r = this.customCheck();
    el.textContent = 'error' in r ? t('tc.invalid', { reason: r.error }) : t('tc.pgn', { tc: r.tc + (r.delay ? ` (${r.delay.kind} ${r.delay.ms / 1000}s)` : '') });
  }

  private async submit(button: HTMLButtonElement): Promise<void> {
    const f = this.form;
    this.message.textContent = '';
    let tc = f.tc;
    let delay: Delay | null = null;
    if (tc === 'custom') {
      const r = this.customCheck();
      if ('error' in r) { this.message.textContent = t('tc.invalid', { reason: r.error }); return; }
      tc = r.tc; delay = r.delay;
    }
    if (f.variant === 'chess960' && !f.c960Random && !(Number.isInteger(f.c960Number) && f.c960Number >= 0 && f.c960Number <= 959)) {
      this.message.textContent = t('chess960.invalid');
      return;
    }
    const req: CreateRequest = {
      mode: f.mode,
      color: f.mode === 'local' ? 'white' : f.color,
      time_control: tc,
      delay,
      variant: f.variant,
      chess960_position: f.variant === 'chess960' && !f.c960Random ? f.c960Number : null,
      edition: f.edition,
      touch_move: f.touchMove,
    };
    if (f.mode === 'engine') req.engine = { level: f.level };
    if (f.mode === 'invite' && this.rated) req.rated = true;
    if (f.mode === 'invite' && f.lobby) req.lobby = true;
    const name = prefs.name.trim();
    if (name) req.name = name.slice(0, 40);
    button.disabled = true;
    button.textContent = t('home.creating');
    try {
      const res = await createGame(req);
      location.assign(res.url);
    } catch (e) {
      button.disabled = false;
      button.textContent = t('home.play');
      this.message.textContent = errorText(e instanceof ApiError ? e.code : 'network', e instanceof Error ? e.message : String(e), e instanceof ApiError ? e.field : null);
    }
  }

  private async loadGames(): Promise<void> {
    let games: GameSummary[];
    try {
      games = (await listGames('all', 60)).games;
    } catch {
      return;
    }
    // Re-render only on change, and never under the keyboard focus of someone reading the list.
    const key = JSON.stringify(games.map((g) => [g.id, g.status, g.ply, g.result]));
    if (key === this.gamesKey || (this.gamesKey && this.gamesBox.contains(document.activeElement))) return;
    this.gamesKey = key;
    clear(this.gamesBox);
    this.gamesBox.append(h('h2', { id: 'games-title', text: t('games.title') }));
    const live = games.filter((g) => g.status === 'active');
    const done = games.filter((g) => g.status === 'finished');
    this.gamesBox.append(this.table(t('games.live'), live, 'games-live'), this.table(t('games.finished'), done, 'games-finished'));
  }

  private table(caption: string, games: GameSummary[], id: string): HTMLElement {
    const sec = h('div', { class: 'games-section', id });
    sec.append(h('h3', { text: caption }));
    if (!games.length) { sec.append(h('p', { class: 'muted', text: t('games.none') })); return sec; }
    const tbody = h('tbody');
    for (const g of games) {
      const vs = t('games.vs', { white: playerName(g.players.white), black: playerName(g.players.black) });
      // A finished game without a termination was aborted (protocol §4.5): no result under the Laws.
      const term = g.termination ? t(`term.${g.termination.kind}` as Key, { color: g.termination.by ? t(`color.${g.termination.by}` as Key) : '' })
        : g.status === 'finished' ? t('games.aborted') : '';
      tbody.append(h('tr', {},
        h('td', {}, h('a', { href: `/game/${encodeURIComponent(g.id)}`, text: vs })),
        h('td', { text: (tcLabel(g.time_control_periods, g.delay, (n) => t('tc.delayLabel', { s: n })) ?? t('tc.untimed')) + (g.variant === 'chess960' ? ' · 960' : '') }),
        h('td', { class: 'num', text: String(Math.ceil(g.ply / 2)) }),
        h('td', { title: term }, h('span', { class: 'result', text: resultText(g) }), term ? h('span', { class: 'term', text: term }) : null),
      ));
    }
    sec.append(h('table', { class: 'games-table' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', text: t('games.players') }), h('th', { scope: 'col', text: t('games.time') }),
        h('th', { scope: 'col', class: 'num', text: t('games.moves') }), h('th', { scope: 'col', text: t('games.result') }))),
      tbody));
    return sec;
  }
}
