// SPDX-License-Identifier: AGPL-3.0-or-later
// The game page /game/{id}: board, clocks, move list, draw offers and claims, resignation,
// result with its Article, keyboard entry, accessible mode, reconnection.

import { Chessground } from '@lichess-org/chessground';
import type { Api as CgApi } from '@lichess-org/chessground/api';
import type { Key as CgKey } from '@lichess-org/chessground/types';
import { h, clear, pieceIcon, setText } from './dom';
import { num, t, tn, type Key } from './i18n';
import { ApiError, getGame, pgnUrl } from './api';
import { GameSocket } from './socket';
import {
  opposite, type ClientAction, type Color, type GameEvent, type LegalMove, type PromotionRole,
  type ServerMessage, type State,
} from './protocol';
import { formatSan, material, readPlacement, type Notation } from './notation';
import { prefs, setAutoFlip, setNotation } from './prefs';
import { play, type SoundKind } from './sound';
import { colorName, isEnPassant, sayMove, sayTime } from './speech';
import { runCommand, type A11yContext } from './a11y';
import { tcLabel } from './timecontrol';
import { playerName } from './home';
import { ambiguousCandidates, errorText } from './errors';
import type { Page } from './main';
import { icon } from './icons';
import { Replay, navKey } from './replay';
import { Postgame } from './postgame';
import { AnalysisPanel } from './analysis';

type ClaimKind = 'threefold' | 'fifty';

const PROMOTION_ROLES: PromotionRole[] = ['q', 'r', 'b', 'n'];
const PROMO_KEY: Record<PromotionRole, Key> = { q: 'piece.queen', r: 'piece.rook', b: 'piece.bishop', n: 'piece.knight' };

export function formatClock(ms: number): string {
  const clamped = Math.max(0, ms);
  if (clamped < 10000) {
    const tenths = Math.floor(clamped / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.floor(clamped / 1000);
  const hh = Math.floor(total / 3600);
  const mm = Math.floor((total % 3600) / 60);
  const ss = String(total % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

interface PlayerView {
  root: HTMLElement;
  name: HTMLElement;
  presence: HTMLElement;
  material: HTMLElement;
  clock: HTMLElement;
  time: HTMLElement;
  sub: HTMLElement;
}

export class GamePage implements Page, A11yContext {
  private s: State | null = null;
  private loadError: string | null = null;
  private socket: GameSocket | null = null;
  private main!: HTMLElement;
  private cg: CgApi | null = null;
  private flipped = false;
  private claimPick: ClaimKind | null = null;
  /** A typed move sent and not yet answered: the server's refusal is worded with it. */
  private typed: string | null = null;
  private claimMenuOpen = false;
  private resignConfirm = false;
  private clockAt = 0;
  private raf = 0;
  private lowWarned: Record<Color, boolean> = { white: false, black: false };
  private catchingUp = true;
  private online = true;
  private wasOffline = false;
  private promoResolve: ((r: PromotionRole | null) => void) | null = null;
  private controlsKey = '';
  private movesKey = '';
  /** Earlier positions on view (move navigation); `replay.ply` null = the live game. */
  private replay: Replay;
  /** The ply the engine's search started for (`thinking`): its clock runs only then. */
  private thinkingPly: number | null = null;
  /** Half-moves already known when the connection went down (or at load): later ones are news. */
  private heardPly = 0;
  private firstReady = true;
  private focused = false;
  /** The accessible mode has said who plays what (intro). */
  private introduced = false;
  private onKey = (e: KeyboardEvent): void => this.keyNav(e);

  // view elements
  private el: Record<string, HTMLElement> = {};
  private players: Record<'top' | 'bottom', PlayerView> | null = null;

  // Abort, rematch (postgame.ts) and the analysis panel (analysis.ts).
  private post: Postgame;
  private analysis: AnalysisPanel | null = null;

  constructor(private id: string) {
    this.replay = new Replay(id);
    this.post = new Postgame({
      id,
      state: () => this.s,
      seat: () => this.seat,
      send: (a) => this.send(a),
      notice: (text) => this.notice(text),
      announce: (text, urgent) => this.announce(text, urgent),
      refresh: () => { this.controlsKey = ''; this.refreshControls(); },
    });
  }

  // ------------------------------------------------------------ lifecycle

  render(main: HTMLElement): void {
    this.main = main;
    cancelAnimationFrame(this.raf);
    this.cg?.destroy();
    this.cg = null;
    if (!this.s) {
      document.title = t('app.name');
      if (this.loadError) {
        main.append(h('section', { class: 'card narrow' },
          h('h1', { text: errorText(this.loadError, '') }),
          h('a', { href: '/', class: 'btn primary', text: t('game.backHome') })));
      } else {
        main.append(h('p', { class: 'card narrow', text: t('game.loading') }));
        void this.load();
      }
      return;
    }
    this.buildView();
    this.refreshAll();
    this.raf = requestAnimationFrame(this.tick);
    document.removeEventListener('keydown', this.onKey);
    document.addEventListener('keydown', this.onKey);
    if (!this.focused) {
      // After Play the keyboard lands on the board (or the command field), not on <body>.
      this.focused = true;
      (this.el.a11yInput ?? this.el.boardWrap)?.focus();
    }
    if (prefs.a11y && !this.introduced) {
      // Once the log is on the page (a live region must exist before its news): the colour and
      // the settings, as an arbiter would tell a blind player at the board (Appendix D).
      this.introduced = true;
      window.setTimeout(() => this.intro().forEach((l) => this.announce(l)), 100);
    }
  }

  destroy(): void {
    document.removeEventListener('keydown', this.onKey);
    this.socket?.close();
    cancelAnimationFrame(this.raf);
    this.cg?.destroy();
    this.analysis?.destroy();
  }

  private async load(): Promise<void> {
    try {
      this.s = await getGame(this.id);
      this.heardPly = this.s.moves.length;
      this.noteLive();
      this.post.onState(this.s);
      this.setClockRef();
    } catch (e) {
      this.loadError = e instanceof ApiError ? e.code : 'network';
    }
    clear(this.main);
    this.render(this.main);
    if (this.s && !this.socket) {
      this.socket = new GameSocket(this.id, {
        message: (m) => this.onMessage(m),
        status: (on) => this.onStatus(on),
        lastSeq: () => this.s?.seq ?? 0,
      });
    }
  }

  // ------------------------------------------------------------ derived state

  private get seat() { return this.s?.seat ?? null; }
  private get isLocal() { return this.seat === 'both'; }
  private get isPlayer() { return this.seat !== null; }

  /** The colour this browser acts for right now (side to move in local mode). */
  private actor(): Color | null {
    if (!this.s || !this.seat) return null;
    return this.seat === 'both' ? this.s.turn : this.seat;
  }

  private myTurn(): boolean {
    const s = this.s;
    return !!s && s.status === 'active' && !!this.seat && (this.seat === 'both' || this.seat === s.turn);
  }

  private orientation(): Color {
    let base: Color = this.seat === 'black' ? 'black' : 'white';
    if (this.isLocal && prefs.autoFlip && this.s) base = this.s.turn;
    return this.flipped ? opposite(base) : base;
  }

  private withColor<T extends ClientAction>(a: T, color?: Color): T {
    return this.isLocal ? { ...a, color: color ?? this.actor() ?? undefined } : a;
  }

  private send(a: ClientAction): boolean {
    const ok = this.socket?.send(a);
    if (!ok) {
      // Not sent: the board shows the server's position again (the move is taken back).
      this.notice(t('conn.notSent'));
      this.refreshBoard();
      return false;
    }
    return true;
  }

  /** The live position as the server last sent it, kept for the move navigation. */
  private noteLive(): void {
    const s = this.s;
    if (s) this.replay.record(s.moves.length, s.fen, s.check);
  }

  // ------------------------------------------------------------ socket

  private onStatus(on: boolean): void {
    this.online = on;
    if (!on) {
      if (!this.wasOffline) this.heardPly = this.s?.moves.length ?? 0;
      this.wasOffline = true;
      this.catchingUp = true;
      // A move sent but not answered may never have arrived: the board shows the server's
      // position until the catch-up after the reconnection says otherwise (issue 13, defect 1).
      this.cg?.cancelPremove();
      this.refreshBoard();
    }
    this.refreshConn();
  }

  private onMessage(msg: ServerMessage): void {
    switch (msg.type) {
      case 'state': {
        const prevStatus = this.s?.status;
        this.s = msg.state;
        this.noteLive();
        this.post.onState(msg.state);
        this.setClockRef();
        if (prevStatus === 'waiting' && msg.state.status === 'active') play('notify');
        this.refreshAll();
        break;
      }
      case 'event': {
        const s = this.s;
        if (!s || msg.seq <= s.seq) return;
        if (msg.seq > s.seq + 1) { this.socket?.resync(); return; }
        const fenBefore = s.fen;
        if (msg.event.kind === 'move') { s.moves.push(msg.event.move); this.typed = null; }
        if (msg.event.kind === 'join') s.players = msg.event.players;
        // A catch-up sends the live state on its last event only (protocol §4.1).
        if (msg.live) { Object.assign(s, msg.live); this.noteLive(); }
        else s.seq = msg.seq;
        this.setClockRef();
        this.onEvent(msg.event, fenBefore);
        if (msg.live) this.refreshAll();
        if (msg.event.kind === 'move' && this.myTurn() && this.cg && !this.isLocal) this.cg.playPremove();
        break;
      }
      case 'ready': {
        this.catchingUp = false;
        if (this.s && msg.clocks) { this.s.clocks = msg.clocks; this.setClockRef(); }
        const reconnected = this.wasOffline;
        if (reconnected) {
          this.wasOffline = false;
          this.announce(t('conn.restored'));
          if (this.el.notice?.textContent === t('conn.notSent') || this.el.notice?.textContent === t('conn.reconnecting')) this.notice('');
        }
        // Moves that came during the catch-up (or before the page opened, such as the engine's
        // first move as White) are read out once.
        const s = this.s;
        const last = s?.moves[s.moves.length - 1];
        const news = this.firstReady || (reconnected && !!s && s.moves.length > this.heardPly);
        if (s && last && news && (prefs.a11y || this.seat !== last.color) && this.seat !== 'both') {
          this.announce(t('a11y.played', { who: this.who(last.color), move: sayMove(last.san) }));
        }
        if (s) this.heardPly = s.moves.length;
        this.firstReady = false;
        // The board, move list, clocks and notices show the server's state again.
        this.refreshAll();
        break;
      }
      case 'thinking':
        // The engine was given the position: its clock runs from now (the wait for a free
        // engine before was not charged, protocol §4.3).
        if (this.s && msg.ply === this.s.moves.length) {
          this.thinkingPly = msg.ply;
          if (msg.clocks) { this.s.clocks = msg.clocks; this.setClockRef(); }
        }
        break;
      case 'recording':
        // An action's commit is slow: its clocks stand (none running) until its event comes, so
        // that no clock counts down past the move and then steps back (protocol §4.3).
        if (this.s && msg.seq > this.s.seq) { this.s.clocks = msg.clocks; this.setClockRef(); }
        break;
      case 'presence':
        if (this.s) {
          this.s.players.white.online = msg.white;
          this.s.players.black.online = msg.black;
          this.refreshPlayers();
        }
        break;
      case 'error': {
        const typed = this.typed;
        this.typed = null;
        if (typed !== null && msg.code === 'promotion_needed') {
          // The server read a pawn move to the last rank: the piece is the player's to name.
          void this.askPromotion(this.s!.turn).then((role) => {
            if (role) this.sendText(`${typed}=${role.toUpperCase()}`);
            else this.focusEntry();
          });
          break;
        }
        const text = typed !== null && msg.code === 'illegal_move' ? t('input.noMatch', { text: typed })
          : msg.code === 'ambiguous_move' ? this.ambiguousText(msg.message, typed) : errorText(msg.code, msg.message);
        this.notice(text);
        this.announce(text, true);
        this.refreshBoard();
        break;
      }
      case 'pong':
        break;
    }
  }

  private who(c: Color): string {
    return this.seat === c ? t('a11y.you') : colorName(c);
  }

  /** A live event; `fenBefore`: the position it happened in (an en passant capture is read out as one). */
  private onEvent(ev: GameEvent, fenBefore: string): void {
    const quiet = this.catchingUp;
    this.post.onEvent(ev, !quiet);
    switch (ev.kind) {
      case 'move': {
        const san = ev.move.san;
        const kind: SoundKind = /[+#]$/.test(san) ? 'check' : san.includes('x') ? 'capture' : 'move';
        if (!quiet) play(kind);
        const mine = this.seat === ev.move.color;
        if (!quiet && (prefs.a11y || !mine)) this.announce(t('a11y.played', { who: this.who(ev.move.color), move: sayMove(san, isEnPassant(san, ev.move.to, fenBefore)) }));
        this.claimPick = null;
        break;
      }
      case 'join':
        if (!quiet) play('notify');
        this.announce(t('ev.joined', { name: playerName(ev.players[ev.color]), color: colorName(ev.color) }));
        // The game begins: the accessible mode says again who plays what, under which settings.
        if (!quiet && prefs.a11y) this.intro().forEach((l) => this.announce(l));
        break;
      case 'touch':
        if (!quiet && this.seat !== ev.color) this.announce(t('ev.touched', { color: colorName(ev.color), square: ev.square }));
        break;
      case 'draw_offer':
        if (!quiet && this.seat !== ev.by && this.seat !== 'both') play('notify');
        this.announce(t('ev.drawOffer', { color: colorName(ev.by) }), true);
        break;
      case 'draw_declined': {
        // Shown, not only read out (issue 13, defect 8).
        const text = t('ev.drawDeclined', { color: colorName(ev.by) });
        this.notice(text, 'info');
        this.announce(text);
        break;
      }
      case 'claim_rejected': {
        const text = t('ev.claimRejected', { time: sayTime(ev.penalty_ms), color: colorName(opposite(ev.by)), ofColor: t(`color.${opposite(ev.by)}.of`), article: ev.article });
        this.notice(text);
        this.announce(text, true);
        this.claimPick = null;
        break;
      }
      case 'penalty': {
        const text = t('ev.penalty', { time: sayTime(ev.ms), color: colorName(ev.to), ofColor: t(`color.${ev.to}.of`), article: ev.article });
        this.notice(text);
        this.announce(text, true);
        break;
      }
      case 'end':
        if (!quiet) play('end');
        this.notice('');
        this.claimPick = null;
        this.announce(this.resultSentence(), true);
        break;
      case 'aborted':
        if (ev.by) break; // aborted by a player: postgame.ts says so
        // No first move in time: no result (docs/protocol.md §4.5).
        this.notice(t('ev.aborted'));
        this.announce(t('ev.aborted'), true);
        break;
    }
  }

  // ------------------------------------------------------------ view construction

  private buildView(): void {
    const s = this.s!;
    document.title = `${playerName(s.players.white)} – ${playerName(s.players.black)} · ${t('app.name')}`;
    const root = h('div', { class: 'game', 'data-mode': s.mode });
    root.append(h('h1', { class: 'sr-only', id: 'game-title', text: `${playerName(s.players.white)} – ${playerName(s.players.black)}` }));

    // Accessible command field and announcement log.
    const log = h('div', { class: prefs.a11y ? 'a11y-log' : 'sr-only', role: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions', 'aria-label': t('a11y.announcements') });
    // A re-render (another language, the accessible mode switched) keeps what was announced.
    if (this.el.log) log.append(...this.el.log.childNodes);
    const urgent = h('div', { class: 'sr-only', role: 'alert' });
    this.el.log = log;
    this.el.urgent = urgent;
    if (prefs.a11y) {
      const input = h('input', { type: 'text', id: 'a11y-command', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', 'aria-describedby': 'a11y-hint' });
      const form = h('form', { class: 'a11y-form' },
        h('label', { for: 'a11y-command', text: t('a11y.command') }),
        h('div', { class: 'input-row' }, input, h('button', { type: 'submit', class: 'btn', text: t('game.send') })),
        h('p', { id: 'a11y-hint', class: 'hint', text: t('a11y.commandHint') }));
      form.addEventListener('submit', (e) => {
        e.preventDefault();
        const text = input.value;
        input.value = '';
        runCommand(text, this);
      });
      // In the empty command field the arrow keys step through the moves, read out.
      input.addEventListener('keydown', (e) => {
        const key = navKey(e);
        if (key && !input.value) { e.preventDefault(); this.navigate(key); }
      });
      root.append(h('section', { class: 'a11y-panel card', 'aria-label': t('a11y.region') },
        h('h2', { text: t('a11y.region') }), form, log));
      this.el.a11yInput = input;
    } else root.append(log);
    root.append(urgent);

    this.el.conn = h('div', { class: 'conn-notice', role: 'status', hidden: true });
    root.append(this.el.conn);

    // Board.
    const boardEl = h('div', { class: 'cg-wrap' });
    this.el.promo = h('div', { class: 'promotion', hidden: true });
    const boardWrap = h('div', { class: 'board-wrap', role: 'region', 'aria-label': t('game.board') }, boardEl, this.el.promo);
    if (prefs.a11y) boardWrap.setAttribute('aria-hidden', 'true');
    else { boardWrap.tabIndex = 0; boardWrap.setAttribute('aria-describedby', 'nav-hint'); }
    this.el.boardWrap = boardWrap;
    root.append(h('div', { class: 'board-area' }, boardWrap));

    // Players and clocks.
    this.players = { top: this.playerView('top'), bottom: this.playerView('bottom') };
    root.append(this.players.top.root, this.players.bottom.root);

    // Side panel.
    const panel = h('section', { class: 'panel', 'aria-label': t('game.controls') });
    this.el.info = h('p', { class: 'game-info' });
    this.el.status = h('p', { class: 'status-line', role: 'status' });
    this.el.notice = h('p', { class: 'notice', role: 'alert' });
    this.el.result = h('div', { class: 'result-banner', hidden: true });
    this.el.waiting = h('div', { class: 'waiting', hidden: true });
    this.el.offer = h('div', { class: 'offer-banner', hidden: true });
    this.el.moves = h('ol', { class: 'move-list', 'aria-labelledby': 'moves-title' });
    const movesBox = h('div', { class: 'moves' }, h('h2', { id: 'moves-title', class: 'sr-only', text: t('game.moves') }), this.el.moves);
    this.el.movesBox = movesBox;
    this.el.moves.addEventListener('click', (e) => {
      const ply = (e.target as HTMLElement).closest<HTMLElement>('.mv')?.dataset.ply;
      if (ply) void this.view(Number(ply) >= this.s!.moves.length ? null : Number(ply));
    });
    this.el.viewing = h('div', { class: 'viewing-banner', hidden: true, role: 'status' });
    const navBtn = (id: string, key: 'first' | 'prev' | 'next' | 'last', glyph: string, label: Key) => {
      const b = h('button', { type: 'button', class: 'btn small ghost', id, 'aria-label': t(label), title: t(label), text: glyph });
      b.addEventListener('click', () => this.navigate(key));
      return b;
    };
    this.el.nav = h('div', { class: 'move-nav', role: 'group', 'aria-label': t('replay.nav') },
      navBtn('nav-first', 'first', '«', 'replay.first'), navBtn('nav-prev', 'prev', '‹', 'replay.prev'),
      navBtn('nav-next', 'next', '›', 'replay.next'), navBtn('nav-last', 'last', '»', 'replay.last'));
    this.el.navHint = h('p', { id: 'nav-hint', class: 'sr-only', text: t('replay.hint') });
    this.el.controls = h('div', { class: 'controls', role: 'group', 'aria-label': t('game.controls') });
    panel.append(this.el.info, this.el.status, this.el.waiting, this.el.result, this.el.offer, this.el.notice, this.el.viewing, movesBox, this.el.nav, this.el.navHint, this.el.controls);
    root.append(panel);

    // Keyboard move entry (the accessible mode has its own field), for a player of a game not over.
    if (!prefs.a11y && this.isPlayer && s.status !== 'finished') {
      const input = h('input', { type: 'text', id: 'move-input', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', 'aria-describedby': 'move-hint', placeholder: 'Nf3 · e2e4 · 0-0' });
      const entry = h('form', { class: 'move-entry' },
        h('label', { for: 'move-input', text: t('game.moveInput') }),
        h('div', { class: 'input-row' }, input, h('button', { type: 'submit', class: 'btn', text: t('game.send') })),
        h('p', { id: 'move-hint', class: 'hint', text: t('game.moveInputHint') }));
      entry.addEventListener('submit', (e) => {
        e.preventDefault();
        const text = input.value;
        if (this.typedMoveResult(text)) input.value = '';
      });
      this.el.entry = entry;
      root.append(entry);
    }

    // Tools.
    root.append(this.buildTools());

    this.main.append(root);
    this.controlsKey = '';
    this.movesKey = '';

    this.cg = Chessground(boardEl, {
      fen: s.fen,
      orientation: this.orientation(),
      coordinates: true,
      autoCastle: s.variant === 'standard',
      viewOnly: !this.isPlayer,
      disableContextMenu: true,
      animation: { enabled: true, duration: 180 },
      highlight: { lastMove: true, check: true },
      movable: { free: false, showDests: true, rookCastle: true, events: { after: (o, d, meta) => void this.onBoardMove(o, d, meta.premove) } },
      premovable: { enabled: !this.isLocal, showDests: true, castle: true },
      draggable: { enabled: true, showGhost: true },
      events: { select: (key) => this.onSelect(key) },
    });
  }

  private playerView(pos: 'top' | 'bottom'): PlayerView {
    const name = h('span', { class: 'player-name' });
    const presence = h('span', { class: 'presence' });
    const mat = h('span', { class: 'material' });
    const time = h('span', { class: 'time' });
    const sub = h('span', { class: 'clock-sub' });
    const clock = h('div', { class: 'clock', role: 'timer' }, h('span', { class: 'run-mark', 'aria-hidden': 'true' }), time, sub);
    const root = h('div', { class: `player player-${pos}` },
      h('div', { class: 'player-id' }, h('span', { class: 'player-color' }), name, presence),
      mat, clock);
    return { root, name, presence, material: mat, clock, time, sub };
  }

  private buildTools(): HTMLElement {
    const s = this.s!;
    const flip = h('button', { type: 'button', class: 'btn ghost small', id: 'flip' }, icon('flip'), t('game.flip'));
    flip.addEventListener('click', () => this.flip());
    const notationId = 'notation-select';
    const sel = h('select', { id: notationId },
      ...(['en', 'ru', 'fig'] as Notation[]).map((n) => { const o = h('option', { value: n, text: t(`notation.${n}` as Key) }); o.selected = prefs.notation === n; return o; }));
    sel.addEventListener('change', () => { setNotation(sel.value as Notation); this.movesKey = ''; this.refreshMoves(); });
    const tools = h('div', { class: 'tools' }, flip,
      h('label', { class: 'inline-field' }, h('span', { text: t('game.notation') }), sel),
      h('a', { class: 'btn ghost small', id: 'pgn', href: pgnUrl(s.id), download: `arbiter-${s.id}.pgn` }, icon('download'), t('game.pgn')));
    if (this.isLocal) {
      const cb = h('input', { type: 'checkbox', id: 'autoflip' });
      cb.checked = prefs.autoFlip;
      cb.addEventListener('change', () => { setAutoFlip(cb.checked); this.refreshBoard(); this.refreshPlayers(); });
      tools.append(h('span', { class: 'check' }, cb, h('label', { for: 'autoflip', text: t('game.autoFlip') })));
    }
    return tools;
  }

  // ------------------------------------------------------------ refresh

  private refreshAll(): void {
    if (!this.players) return;
    this.refreshBoard();
    this.refreshPlayers();
    this.refreshPanel();
    this.refreshMoves();
    this.refreshNav();
    this.refreshConn();
  }

  private dests(): Map<CgKey, CgKey[]> {
    const map = new Map<CgKey, CgKey[]>();
    const s = this.s!;
    const plain = new Set(s.legal_moves.filter((m) => !m.castle).map((m) => m.from + m.to));
    const add = (from: string, to: string) => {
      const list = map.get(from as CgKey) ?? [];
      if (!list.includes(to as CgKey)) list.push(to as CgKey);
      map.set(from as CgKey, list);
    };
    for (const m of s.legal_moves) {
      if (m.castle) {
        if (m.rook) add(m.from, m.rook);
        if (m.to !== m.from && !plain.has(m.from + m.to)) add(m.from, m.to);
      } else add(m.from, m.to);
    }
    return map;
  }

  private refreshBoard(): void {
    const s = this.s;
    if (!s || !this.cg) return;
    const ply = this.replay.ply;
    if (ply !== null) {
      // An earlier position on view: nothing can be moved; the live game goes on unseen.
      const pos = this.replay.position(ply);
      if (!pos) { void this.replay.ensure(ply).then(() => this.refreshBoard(), () => this.view(null)); return; }
      const turn: Color = pos.fen.split(' ')[1] === 'b' ? 'black' : 'white';
      const m = ply > 0 ? s.moves[ply - 1] : undefined;
      this.cg.cancelPremove();
      this.cg.cancelMove();
      this.cg.set({
        fen: pos.fen,
        orientation: this.orientation(),
        turnColor: turn,
        check: pos.check ? turn : false,
        lastMove: m ? [m.from as CgKey, m.to as CgKey] : undefined,
        movable: { color: undefined, dests: new Map() },
        highlight: { custom: new Map() },
        viewOnly: true,
      });
      this.cg.selectSquare(null);
      return;
    }
    const active = s.status === 'active';
    let movable: Color | undefined;
    if (active && this.seat) movable = this.seat === 'both' ? s.turn : this.seat;
    this.cg.set({
      fen: s.fen,
      orientation: this.orientation(),
      turnColor: s.turn,
      check: s.check ? s.turn : false,
      lastMove: s.last_move ? [s.last_move.from as CgKey, s.last_move.to as CgKey] : undefined,
      movable: { color: movable, dests: this.myTurn() ? this.dests() : new Map() },
      highlight: { custom: s.touched ? new Map([[s.touched as CgKey, 'touched']]) : new Map() },
      viewOnly: !this.isPlayer,
    });
    if (!active) this.cg.cancelPremove();
  }

  private refreshPlayers(): void {
    const s = this.s;
    if (!s || !this.players) return;
    const bottom = this.orientation();
    const mat = material(s.fen);
    for (const pos of ['top', 'bottom'] as const) {
      const c = pos === 'bottom' ? bottom : opposite(bottom);
      const v = this.players[pos];
      const p = s.players[c];
      v.root.dataset.color = c;
      clear(v.name);
      const shown = this.isLocal && p.kind === 'human' && !p.name ? colorName(c) : playerName(p);
      v.name.append(pieceIcon(c === 'white' ? 'w' : 'b', 'K', colorName(c)), h('span', { class: 'name-text', text: shown }));
      if (this.seat === c || this.seat === 'both') v.name.append(h('span', { class: 'you', text: ' ' + (this.seat === 'both' ? '' : t('player.you')) }));
      setText(v.presence, p.kind === 'human' && p.joined && !this.isLocal ? (p.online ? '● ' + t('player.online') : '○ ' + t('player.offline')) : '');
      v.presence.className = `presence ${p.online ? 'on' : 'off'}`;
      clear(v.material);
      const pieces = mat.surplus[c];
      const adv = c === 'white' ? mat.diff : -mat.diff;
      if (pieces.length || adv > 0) {
        // Read as text (an aria-label on a plain span is not, axe aria-prohibited-attr).
        v.material.append(h('span', { class: 'sr-only', text: t('game.material', { diff: adv > 0 ? `+${adv}` : '0' }) }));
        for (const r of pieces) v.material.append(pieceIcon(c === 'white' ? 'w' : 'b', r));
        if (adv > 0) v.material.append(h('span', { class: 'adv', 'aria-hidden': 'true', text: `+${adv}` }));
      }
      v.clock.setAttribute('aria-label', t(c === 'white' ? 'game.clockWhite' : 'game.clockBlack'));
      v.clock.hidden = !s.clocks;
    }
    this.renderClocks();
  }

  private refreshConn(): void {
    const el = this.el.conn;
    if (!el) return;
    const show = !this.online;
    el.hidden = !show;
    setText(el, show ? t('conn.reconnecting') : '');
  }

  /**
   * An ambiguous typed move with the candidates the server lists (protocol §4.7: "…: it could be
   * any of Rad1, Rhd1"), in the chosen notation; the fixed hint when it lists none.
   */
  private ambiguousText(message: string, typed: string | null): string {
    const moves = ambiguousCandidates(message);
    if (!moves.length || typed === null) return t('err.ambiguous_move');
    const turn = this.s?.turn ?? 'white';
    return t('input.ambiguous', { text: typed, moves: moves.map((m) => formatSan(m, prefs.notation, turn)).join(', ') });
  }

  private resultSentence(): string {
    const s = this.s!;
    const term = s.termination;
    if (!term) return '';
    const head = s.result === '1-0' ? t('result.whiteWins') : s.result === '0-1' ? t('result.blackWins') : t('result.draw');
    const body = t(`term.${term.kind}` as Key, { color: term.by ? colorName(term.by) : '' });
    return `${head}. ${body}. ${t('result.article', { edition: s.edition, article: term.article })}.`;
  }

  /** The game's settings in one line: "5+3 · Standard · FIDE 2014 · touch-move". */
  private infoText(): string {
    const s = this.s!;
    const variant = t(`variant.${s.variant}` as Key) + (s.variant === 'chess960' && s.chess960_position !== null ? ` #${s.chess960_position}` : '');
    return t('game.info', { tc: tcLabel(s.time_control_periods, s.delay, (n) => t('tc.delayLabel', { s: n })) ?? t('tc.untimed'), variant, edition: s.edition }) + (s.touch_move ? ` · ${t('game.touchMoveOn')}` : '');
  }

  private refreshPanel(): void {
    const s = this.s!;
    setText(this.el.info, this.infoText());

    // Status line.
    let status = '';
    if (s.status === 'active') {
      if (!this.isPlayer) status = t('game.spectator') + ' ' + t(s.turn === 'white' ? 'turn.white' : 'turn.black');
      else if (this.isLocal) status = t(s.turn === 'white' ? 'turn.white' : 'turn.black');
      else status = this.myTurn() ? t('game.yourTurn') : t('game.theirTurn');
      if (s.touched && this.myTurn()) status += ' · ' + t('game.touched', { square: s.touched });
      // The claim in words of its own (a result's "claimed by {color}" reads garbled here).
      if (this.claimPick) status = t('game.claimPick', { claim: t(this.claimPick === 'threefold' ? 'claim.threefold' : 'claim.fifty') });
    } else if (s.status === 'waiting') {
      status = this.isPlayer ? t('game.waiting') : t('player.open');
    } else if (!this.isPlayer) status = t('game.spectator');
    setText(this.el.status, status);
    this.el.status.classList.toggle('your-turn', this.myTurn() && !this.isLocal);

    // Waiting for the invited player.
    const waiting = this.el.waiting;
    const showWaiting = s.status === 'waiting' && this.isPlayer && !!s.invite_url;
    waiting.hidden = !showWaiting;
    if (showWaiting && !waiting.firstChild) {
      const link = location.origin + s.invite_url;
      const input = h('input', { type: 'text', id: 'invite-link', readonly: true, value: link });
      const copy = h('button', { type: 'button', class: 'btn primary', id: 'copy-invite', text: t('game.copy') });
      copy.addEventListener('click', async () => {
        let ok = false;
        try { await navigator.clipboard.writeText(link); ok = true; } catch {
          input.select();
          try { ok = document.execCommand('copy'); } catch { ok = false; }
        }
        if (ok) { copy.textContent = t('game.copied'); setTimeout(() => { copy.textContent = t('game.copy'); }, 2000); }
      });
      input.addEventListener('focus', () => input.select());
      waiting.append(h('h2', { text: t('game.waiting') }), h('p', { text: t('game.inviteText') }),
        h('label', { for: 'invite-link', text: t('game.inviteLink') }), h('div', { class: 'input-row' }, input, copy));
    }
    if (!showWaiting) clear(waiting);

    // No move entry once the game is over.
    if (this.el.entry && s.status === 'finished') { this.el.entry.remove(); delete this.el.entry; }

    // Result.
    const res = this.el.result;
    res.hidden = s.status !== 'finished';
    clear(res);
    if (s.status === 'finished' && !s.termination) {
      // Aborted (protocol §4.5): finished with `*` and no termination, not decided under the Laws.
      // Said from the snapshot too, so a reload or a later visit shows it.
      res.append(
        h('p', { class: 'score', text: '*' }),
        h('p', { class: 'result-head', text: t('result.aborted') }),
        h('p', { class: 'result-term', text: t('game.aborted') }),
      );
    } else if (s.termination) {
      const term = s.termination;
      const head = s.result === '1-0' ? t('result.whiteWins') : s.result === '0-1' ? t('result.blackWins') : t('result.draw');
      const score = s.result === '1/2-1/2' ? '½–½' : s.result.replace('-', '–');
      res.append(
        h('p', { class: 'score', text: score }),
        h('p', { class: 'result-head', text: head }),
        h('p', { class: 'result-term', text: t(`term.${term.kind}` as Key, { color: term.by ? colorName(term.by) : '' }) }),
        h('p', { class: 'result-article', text: t('result.article', { edition: s.edition, article: term.article }) }),
      );
    }

    // Pending draw offer.
    const offer = this.el.offer;
    const off = s.status === 'active' ? s.draw_offer : null;
    const answerer = off ? (this.isLocal ? opposite(off) : this.seat) : null;
    const canAnswer = !!off && !!answerer && answerer !== off && this.isPlayer;
    const offerKey = `${off}|${canAnswer}`;
    if (offer.dataset.key !== offerKey) {
      offer.dataset.key = offerKey;
      clear(offer);
      offer.hidden = !off;
      if (off) {
        if (canAnswer) {
          const acc = h('button', { type: 'button', class: 'btn primary', id: 'accept-draw', text: t('game.accept') });
          acc.addEventListener('click', () => this.acceptDraw());
          const dec = h('button', { type: 'button', class: 'btn', id: 'decline-draw', text: t('game.decline') });
          dec.addEventListener('click', () => this.declineDraw());
          offer.append(h('p', { text: t('game.drawOfferFrom', { color: colorName(off) }) }), h('div', { class: 'btn-row' }, acc, dec));
        } else offer.append(h('p', { text: this.seat === off ? t('game.drawOfferSent') : t('game.drawOfferFrom', { color: colorName(off) }) }));
      }
    }
    this.refreshControls();
  }

  private refreshControls(): void {
    const s = this.s!;
    const key = [s.status, this.seat, s.turn, s.draw_offer, this.claimMenuOpen, this.claimPick, this.resignConfirm, this.myTurn(), s.moves.length, this.post.key()].join('|');
    if (key === this.controlsKey) return;
    this.controlsKey = key;
    const focused = (document.activeElement as HTMLElement | null)?.id;
    const c = this.el.controls;
    clear(c);
    const btn = (id: string, label: string, onClick: () => void, cls = 'btn', disabled = false) => {
      const b = h('button', { type: 'button', class: cls, id, text: label, disabled });
      b.addEventListener('click', onClick);
      return b;
    };
    if (s.status === 'finished') {
      c.append(h('a', { class: 'btn primary', href: '/', id: 'new-game', text: t('game.newGame') }));
    } else if (s.status === 'active' && this.isPlayer) {
      const row = h('div', { class: 'btn-row' });
      const myOffer = s.draw_offer !== null && s.draw_offer === this.actor() && !this.isLocal;
      row.append(btn('offer-draw', '½ ' + t('game.offerDraw'), () => this.offerDraw(), 'btn', myOffer || s.draw_offer !== null));
      const claim = btn('claim', t('game.claim'), () => { this.claimMenuOpen = !this.claimMenuOpen; this.refreshControls(); document.getElementById('claim')?.focus(); }, 'btn', !this.myTurn());
      claim.setAttribute('aria-expanded', String(this.claimMenuOpen));
      claim.setAttribute('aria-controls', 'claim-menu');
      row.append(claim);
      row.append(btn('resign', t('game.resign'), () => { this.resignConfirm = true; this.refreshControls(); document.getElementById('resign-yes')?.focus(); }, 'btn danger-ghost'));
      c.append(row);
      if (this.claimMenuOpen && this.myTurn()) {
        const menu = h('div', { class: 'claim-menu', id: 'claim-menu' });
        menu.append(
          btn('claim-threefold', t('game.claimThreefold', { a: '9.2' }), () => this.claim('threefold')),
          btn('claim-fifty', t('game.claimFifty', { a: '9.3' }), () => this.claim('fifty')),
          btn('claim-threefold-move', t('game.claimThreefoldMove'), () => this.startClaimPick('threefold')),
          btn('claim-fifty-move', t('game.claimFiftyMove'), () => this.startClaimPick('fifty')),
          h('p', { class: 'hint', text: t('game.claimWarning') }));
        c.append(menu);
      }
      if (this.claimPick) {
        c.append(h('div', { class: 'claim-pick' }, btn('claim-cancel', t('game.cancel'), () => { this.claimPick = null; this.refreshPanel(); this.refreshBoard(); })));
      }
      if (this.resignConfirm) {
        c.append(h('div', { class: 'confirm', role: 'group', 'aria-labelledby': 'resign-q' },
          h('p', { id: 'resign-q', text: t('game.resignConfirm') + (this.isLocal ? ` (${colorName(s.turn)})` : '') }),
          h('div', { class: 'btn-row' },
            btn('resign-yes', t('game.resignYes'), () => { this.resignConfirm = false; this.resign(); }, 'btn danger'),
            btn('resign-no', t('game.resignNo'), () => { this.resignConfirm = false; this.refreshControls(); document.getElementById('resign')?.focus(); }))));
      }
    }
    const extra = this.post.controls();
    if (extra.length > 0) c.append(h('div', { class: 'btn-row postgame' }, ...extra));
    if (s.status === 'finished' && (!this.analysis || !this.analysis.el.isConnected)) {
      this.analysis?.destroy();
      this.analysis = new AnalysisPanel(this.id, (ply) => void this.view(ply));
      c.after(this.analysis.el);
    }
    if (focused) {
      const again = document.getElementById(focused);
      if (again && c.contains(again) && document.activeElement !== again) again.focus();
    }
  }

  private refreshMoves(): void {
    const s = this.s;
    if (!s) return;
    const key = `${s.moves.length}|${prefs.notation}|${this.replay.ply}`;
    if (key === this.movesKey) return;
    this.movesKey = key;
    const ol = this.el.moves;
    clear(ol);
    if (!s.moves.length) {
      ol.append(h('li', { class: 'empty muted', text: t('game.noMoves') }));
      return;
    }
    for (let i = 0; i < s.moves.length; i += 2) {
      const li = h('li', { class: 'move-row' }, h('span', { class: 'move-no', text: `${i / 2 + 1}.` }));
      for (const m of [s.moves[i], s.moves[i + 1]]) {
        if (!m) continue;
        const last = m.ply === s.moves.length;
        const viewed = m.ply === (this.replay.ply ?? s.moves.length);
        const span = h('span', { class: `mv${last ? ' current' : ''}${viewed ? ' viewed' : ''}`, 'data-ply': m.ply, 'data-uci': m.uci, text: formatSan(m.san, prefs.notation, m.color) });
        if (viewed) span.setAttribute('aria-current', 'step');
        if (m.clock_ms !== null) span.title = formatClock(m.clock_ms);
        li.append(span);
      }
      ol.append(li);
    }
    const box = this.el.movesBox;
    const viewed = this.replay.ply !== null ? ol.querySelector<HTMLElement>('.mv.viewed') : null;
    if (viewed) viewed.scrollIntoView({ block: 'nearest' });
    else if (this.replay.ply === null) box.scrollTop = box.scrollHeight;
  }

  // ------------------------------------------------------------ move navigation

  /** Show the position after `ply` half-moves, or the live game (null). */
  private async view(ply: number | null): Promise<void> {
    const s = this.s;
    if (!s) return;
    if (ply !== null && (ply < 0 || ply >= s.moves.length)) ply = null;
    if (ply !== null) {
      try { await this.replay.ensure(ply); } catch { this.notice(t('replay.unavailable')); return; }
    }
    this.replay.ply = ply;
    this.analysis?.select(ply ?? s.moves.length);
    this.refreshBoard();
    this.refreshMoves();
    this.refreshNav();
    const spoken = this.analysis?.spoken(ply ?? s.moves.length);
    this.announce(this.viewSentence() + (spoken ? ` ${spoken}.` : ''));
  }

  /** The accessible mode's `eval`: the evaluation of the position on view, once analysed (§3.9). */
  evaluation(): string {
    const s = this.s;
    const ply = this.replay.ply ?? s?.moves.length ?? 0;
    return this.analysis?.spoken(ply) ?? t('analysis.unavailable');
  }

  /** A navigation key: first, previous, next or last position. */
  navigate(key: 'first' | 'prev' | 'next' | 'last'): void {
    const s = this.s;
    if (!s) return;
    void this.view(Replay.target(this.replay.ply, s.moves.length, key));
  }

  private keyNav(e: KeyboardEvent): void {
    const key = navKey(e);
    if (!key || !this.s || e.defaultPrevented) return;
    const target = e.target as HTMLElement | null;
    if (target?.closest('input, textarea, select, [contenteditable], .promotion, [role="radiogroup"]')) return;
    e.preventDefault();
    this.navigate(key);
  }

  private viewSentence(): string {
    const s = this.s!;
    const ply = this.replay.ply;
    if (ply === null) return t('replay.live');
    if (ply === 0) return t('replay.atStart');
    const m = s.moves[ply - 1];
    return t('replay.at', { n: Math.ceil(ply / 2), who: colorName(m.color), move: sayMove(m.san) });
  }

  private refreshNav(): void {
    const s = this.s;
    const banner = this.el.viewing;
    if (!s || !banner) return;
    const ply = this.replay.ply;
    const total = s.moves.length;
    const at = ply ?? total;
    for (const [id, off] of [['nav-first', at === 0], ['nav-prev', at === 0], ['nav-next', ply === null], ['nav-last', ply === null]] as const) {
      const b = document.getElementById(id) as HTMLButtonElement | null;
      if (b) b.disabled = off;
    }
    const key = `${ply}|${total}|${s.status}`;
    if (banner.dataset.key === key) return;
    banner.dataset.key = key;
    clear(banner);
    banner.hidden = ply === null;
    if (ply === null) return;
    const m = ply > 0 ? s.moves[ply - 1] : null;
    const where = m ? t('replay.viewing', { n: `${Math.ceil(ply / 2)}${m.color === 'white' ? '.' : '…'} ${formatSan(m.san, prefs.notation, m.color)}` }) : t('replay.atStart');
    const live = h('button', { type: 'button', class: 'btn small primary', id: 'back-live', text: s.status === 'active' ? t('replay.backLive') : t('replay.toEnd') });
    live.addEventListener('click', () => { void this.view(null); this.el.boardWrap?.focus(); });
    banner.append(h('span', { class: 'viewing-text', text: where }), live);
  }

  // ------------------------------------------------------------ clocks

  private setClockRef(): void {
    this.clockAt = performance.now() - (this.socket?.lag() ?? 0);
  }

  /** The time each side has now, as the server's clock would show it. */
  clockTimes(): { white: number; black: number } | null {
    const c = this.s?.clocks;
    if (!c) return null;
    const out = { white: c.white_ms, black: c.black_ms };
    // An engine's clock stands still until its search starts (`thinking`): the server does not
    // charge the wait for a free engine, so counting it would make the clock jump back.
    const waitingEngine = c.running && this.s?.players[c.running].kind === 'engine' && this.thinkingPly !== this.s.moves.length;
    if (c.running && this.s?.status === 'active' && !waitingEngine) {
      const elapsed = performance.now() - this.clockAt;
      const key = c.running;
      out[key] = Math.max(0, out[key] - Math.max(0, elapsed - c.delay_left_ms));
    }
    return out;
  }

  private tick = (): void => {
    this.renderClocks();
    this.raf = requestAnimationFrame(this.tick);
  };

  private lowThreshold(): number {
    const first = this.s?.time_control_periods[0];
    const initial = first ? first.seconds * 1000 : 0;
    return Math.min(60000, Math.max(10000, initial * 0.125));
  }

  private renderClocks(): void {
    const s = this.s;
    if (!s || !this.players || !s.clocks) return;
    const times = this.clockTimes()!;
    const c = s.clocks;
    const threshold = this.lowThreshold();
    for (const pos of ['top', 'bottom'] as const) {
      const v = this.players[pos];
      const color = v.root.dataset.color as Color;
      const ms = times[color];
      setText(v.time, formatClock(ms));
      v.clock.dataset.ms = String(Math.round(ms));
      const running = c.running === color && s.status === 'active';
      v.clock.classList.toggle('running', running);
      v.clock.classList.toggle('low', ms < threshold && s.status === 'active');
      const subParts: string[] = [];
      if (running && c.delay_left_ms > 0) {
        const left = Math.max(0, c.delay_left_ms - (performance.now() - this.clockAt));
        if (left > 0) subParts.push(t('game.delayLeft', { s: num(left / 1000, 1) }));
      }
      const mtc = c.moves_to_control[color];
      if (mtc !== null && mtc !== undefined) subParts.push(tn('game.movesToControl', mtc));
      if (ms < threshold && s.status === 'active') subParts.unshift(t('game.lowTime'));
      setText(v.sub, subParts.join(' · '));
      setText(v.clock.querySelector('.run-mark')!, running ? '▶' : '');
      // Low-time warning for the seats this browser holds.
      const mine = this.seat === color || this.seat === 'both';
      if (mine && s.status === 'active') {
        if (ms < threshold && !this.lowWarned[color] && ms > 0) {
          this.lowWarned[color] = true;
          play('lowtime');
          this.announce(t('a11y.lowTime', { time: sayTime(ms) }), true);
        } else if (ms > threshold * 1.5) this.lowWarned[color] = false;
      }
    }
  }

  // ------------------------------------------------------------ actions

  private onSelect(key: CgKey): void {
    const s = this.s;
    if (!s || !s.touch_move || !this.myTurn() || s.touched) return;
    const piece = readPlacement(s.fen).get(key);
    if (!piece || piece.color !== s.turn) return;
    if (!s.legal_moves.some((m) => m.from === key)) return;
    this.send(this.withColor({ type: 'touch', square: key }));
  }

  private candidates(orig: string, dest: string): LegalMove[] {
    return this.s!.legal_moves.filter((m) => m.from === orig && (m.castle ? m.rook === dest || m.to === dest : m.to === dest));
  }

  private async onBoardMove(orig: string, dest: string, premove: boolean): Promise<void> {
    let cands = this.candidates(orig, dest);
    if (cands.length > 1 && cands.some((m) => m.castle)) cands = cands.filter((m) => !m.castle || m.rook === dest);
    if (!cands.length) { this.refreshBoard(); return; }
    let move = cands[0];
    if (cands.length > 1 && cands.every((m) => m.promotion)) {
      const role = premove ? 'q' : await this.askPromotion(this.s!.turn);
      if (!role) { this.refreshBoard(); return; }
      move = cands.find((m) => m.promotion === role) ?? cands[0];
      if (this.cg) this.cg.setPieces(new Map([[dest as CgKey, { role: ({ q: 'queen', r: 'rook', b: 'bishop', n: 'knight' } as const)[role], color: this.s!.turn, promoted: true }]]));
    }
    this.playMove(move);
  }

  private playMove(move: LegalMove): void {
    if (this.claimPick) {
      const kind = this.claimPick;
      this.claimPick = null;
      this.claimMenuOpen = false;
      this.send(this.withColor({ type: 'claim', claim: kind, move: move.uci }));
      this.refreshPanel();
      return;
    }
    this.send({ type: 'move', uci: move.uci });
  }

  /**
   * A move typed into a field, sent as text: the server reads it in any notation (protocol §5.1)
   * and answers what it cannot read. Returns true when it was sent.
   */
  private typedMoveResult(text: string): boolean {
    const s = this.s;
    if (!s || !text.trim()) return false;
    if (!this.myTurn()) {
      const why = this.cannotAct() ?? t('input.notYourTurn');
      this.notice(why);
      this.announce(why, true);
      return false;
    }
    this.notice('');
    if (this.replay.ply !== null) void this.view(null);
    return this.sendText(text.trim());
  }

  private sendText(text: string): boolean {
    let sent: boolean;
    if (this.claimPick) {
      const kind = this.claimPick;
      this.claimPick = null;
      this.claimMenuOpen = false;
      sent = this.send(this.withColor({ type: 'claim', claim: kind, move: text }));
      this.refreshPanel();
    } else {
      this.typed = text;
      sent = this.send({ type: 'move', text });
    }
    this.focusEntry();
    return sent;
  }

  private focusEntry(): void {
    (this.el.a11yInput as HTMLInputElement | undefined ?? document.getElementById('move-input'))?.focus();
  }

  private askPromotion(color: Color): Promise<PromotionRole | null> {
    const box = this.el.promo;
    this.promoResolve?.(null);
    clear(box);
    return new Promise((resolve) => {
      const previous = document.activeElement as HTMLElement | null;
      const done = (r: PromotionRole | null) => {
        this.promoResolve = null;
        box.hidden = true;
        clear(box);
        box.removeAttribute('role');
        resolve(r);
        if (previous && document.contains(previous)) previous.focus();
      };
      this.promoResolve = done;
      box.hidden = false;
      box.setAttribute('role', 'dialog');
      box.setAttribute('aria-modal', 'true');
      box.setAttribute('aria-labelledby', 'promo-title');
      const buttons = PROMOTION_ROLES.map((r) => {
        const b = h('button', { type: 'button', class: 'promo-choice', 'data-role': r },
          pieceIcon(color === 'white' ? 'w' : 'b', r.toUpperCase()), h('span', { class: 'promo-label', text: t(PROMO_KEY[r]) }));
        b.addEventListener('click', (e) => { e.stopPropagation(); done(r); });
        return b;
      });
      const panel = h('div', { class: 'promo-panel' }, h('h2', { id: 'promo-title', text: t('promo.title') }), h('div', { class: 'promo-choices' }, ...buttons),
        h('button', { type: 'button', class: 'btn small ghost promo-cancel', text: t('game.cancel') }));
      panel.querySelector('.promo-cancel')!.addEventListener('click', (e) => { e.stopPropagation(); done(null); });
      box.append(panel);
      box.onclick = (e) => { if (e.target === box) done(null); };
      box.onkeydown = (e) => {
        const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
        if (e.key === 'Escape') { e.preventDefault(); done(null); }
        else if (e.key === 'ArrowRight' || e.key === 'ArrowDown') { e.preventDefault(); buttons[(i + 1) % 4].focus(); }
        else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') { e.preventDefault(); buttons[(i + 3) % 4].focus(); }
        else if ('qrbnфлск'.includes(e.key.toLowerCase()) && e.key.length === 1) {
          const map: Record<string, PromotionRole> = { q: 'q', r: 'r', b: 'b', n: 'n', 'ф': 'q', 'л': 'r', 'с': 'b', 'к': 'n' };
          e.preventDefault();
          done(map[e.key.toLowerCase()]);
        } else if (e.key === 'Tab') {
          // keep focus inside the dialog
          const all = [...buttons, panel.querySelector<HTMLButtonElement>('.promo-cancel')!];
          const j = all.indexOf(document.activeElement as HTMLButtonElement);
          e.preventDefault();
          all[(j + (e.shiftKey ? all.length - 1 : 1)) % all.length].focus();
        }
      };
      buttons[0].focus();
    });
  }

  // A11yContext and buttons.

  /** The position the accessible commands read: the one on view, or the live one. */
  state(): State | null {
    const s = this.s;
    const ply = this.replay.ply;
    const pos = ply !== null ? this.replay.position(ply) : undefined;
    if (!s || ply === null || !pos) return s;
    const m = ply > 0 ? s.moves[ply - 1] : undefined;
    return { ...s, fen: pos.fen, check: pos.check, moves: s.moves.slice(0, ply), legal_moves: [], turn: pos.fen.split(' ')[1] === 'b' ? 'black' : 'white', last_move: m ? { from: m.from, to: m.to } : null };
  }

  typedMove(text: string): void { this.typedMoveResult(text); }

  cannotAct(): string | null {
    const s = this.s;
    if (!s) return null;
    if (!this.isPlayer) return t('err.not_a_player');
    if (s.status !== 'active') return t('err.game_not_active');
    return null;
  }

  /** Says why an action cannot be taken (and returns true), or returns false. */
  private refused(): boolean {
    const why = this.cannotAct();
    if (why) { this.notice(why); this.announce(why, true); }
    return why !== null;
  }

  intro(): string[] {
    const s = this.s;
    if (!s) return [];
    const out: string[] = [];
    if (this.seat === 'both') out.push(t('a11y.bothSides'));
    else if (this.seat) out.push(t('a11y.youAre', { color: t(this.seat === 'white' ? 'event.asWhite' : 'event.asBlack') }));
    else out.push(t('game.spectator'));
    const now = s.status === 'active' ? t(s.turn === 'white' ? 'turn.white' : 'turn.black')
      : s.status === 'waiting' ? (this.isPlayer ? t('game.waiting') : t('player.open'))
        : this.resultSentence().replace(/\.$/, '');
    out.push(t('a11y.gameStart', { tc: this.infoText(), turn: now }));
    return out;
  }

  offerDraw(): void {
    if (!this.s || this.refused()) return;
    this.send(this.withColor({ type: 'offer_draw' }));
  }

  acceptDraw(): void {
    if (this.refused()) return;
    const off = this.s?.draw_offer;
    if (!off) { this.announce(t('err.no_draw_offer')); return; }
    this.send(this.withColor({ type: 'accept_draw' }, opposite(off)));
  }

  declineDraw(): void {
    if (this.refused()) return;
    const off = this.s?.draw_offer;
    if (!off) { this.announce(t('err.no_draw_offer')); return; }
    this.send(this.withColor({ type: 'decline_draw' }, opposite(off)));
  }

  resign(): void {
    if (!this.s || this.refused()) return;
    this.send(this.withColor({ type: 'resign' }));
    this.refreshControls();
  }

  claim(kind: ClaimKind, moveText?: string): void {
    const s = this.s;
    if (!s) return;
    this.claimMenuOpen = false;
    // The intended move as typed: the server reads it (protocol §5.1).
    if (moveText) this.send(this.withColor({ type: 'claim', claim: kind, move: moveText.trim() }));
    else this.send(this.withColor({ type: 'claim', claim: kind }));
    this.refreshPanel();
  }

  private startClaimPick(kind: ClaimKind): void {
    this.claimPick = kind;
    this.claimMenuOpen = false;
    this.refreshPanel();
    this.announce(this.el.status.textContent ?? '');
    document.getElementById('claim-cancel')?.focus();
  }

  flip(): void {
    this.flipped = !this.flipped;
    this.refreshBoard();
    this.refreshPlayers();
    this.announce(t('a11y.flipped'));
  }

  announce(text: string, urgent = false): void {
    if (!text) return;
    const log = this.el.log;
    if (!log) return;
    log.append(h('p', { text }));
    while (log.childElementCount > 60) log.firstElementChild?.remove();
    if (prefs.a11y) log.scrollTop = log.scrollHeight;
    if (urgent && !prefs.a11y && this.el.urgent) setText(this.el.urgent, text);
  }

  private noticeTimer = 0;

  /** A transient message (errors, rejected claims); clears itself after a while. */
  private notice(text: string, kind: 'error' | 'info' = 'error'): void {
    if (!this.el.notice) return;
    setText(this.el.notice, text);
    this.el.notice.classList.toggle('info', kind === 'info');
    clearTimeout(this.noticeTimer);
    if (text) this.noticeTimer = window.setTimeout(() => setText(this.el.notice, ''), 10000);
  }
}
