// SPDX-License-Identifier: AGPL-3.0-or-later
// A mock of `arbiter serve` for the browser tests: serves web/dist and speaks docs/protocol.md.
// Rules come from chessops (GPL-3.0-or-later, a devDependency only); it is NOT the real arbiter:
// the "engine" plays pseudo-random legal moves, dead positions are detected by material only,
// and fivefold repetition is counted without the 2014 "consecutive" reading. Good enough to
// drive every screen of the app.
//
//   node tests/mock-server.mjs [--port 8080]      (PORT env works too; 0 = any free port)
//
// Mock-only extras (not in the protocol): POST /__mock/drop/{id} closes every socket of a game,
// to test reconnection; the events API and POST /__mock/login/{name}: tests/mock-events.mjs.
// MOCK_ENGINE_MS sets the engine's thinking time (default 300 ms).

import http from 'node:http';
import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, normalize, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import { Chess, normalizeMove } from 'chessops/chess';
import { parseFen, makeFen } from 'chessops/fen';
import { makeSan, parseSan } from 'chessops/san';
import { parseUci, makeUci, makeSquare, parseSquare } from 'chessops/util';
import { handleEvents, mockUser } from './mock-events.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const DIST = join(here, '..', 'dist');
const ENGINE_MS = Number(process.env.MOCK_ENGINE_MS ?? 300);
const CSP = "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self'; style-src 'self'; script-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const ELO = { 1: 1350, 2: 1650, 3: 1950, 4: 2250, 5: 2450, 6: 2600, 7: null };

// Article numbers per edition (docs/protocol.md §4.6).
const ARTICLES = {
  '2014': { checkmate: '5.1 a', resignation: '5.1 b', stalemate: '5.2 a', dead_position: '5.2 b', agreement: '5.2 c',
    threefold_repetition: '9.2', fifty_moves: '9.3', fivefold_repetition: '9.6 a', seventyfive_moves: '9.6 b',
    timeout: '6.9', timeout_draw: '6.9', illegal_move: '7.5 b', claim: '9.5 c' },
  '2018': { checkmate: '5.1.1', resignation: '5.1.2', stalemate: '5.2.1', dead_position: '5.2.2', agreement: '5.2.3',
    threefold_repetition: '9.2', fifty_moves: '9.3', fivefold_repetition: '9.6.1', seventyfive_moves: '9.6.2',
    timeout: '6.9', timeout_draw: '6.9', illegal_move: '7.5.5', claim: '9.5.3' },
};
ARTICLES['2023'] = ARTICLES['2018'];

const games = new Map();
const opposite = (c) => (c === 'white' ? 'black' : 'white');
const newId = () => randomBytes(6).toString('base64url').replace(/[-_]/g, 'x').slice(0, 8);

// ------------------------------------------------------------------ time control

function parseTc(tc) {
  if (tc === '-') return null;
  const periods = [];
  const parts = String(tc).split(':');
  for (const [i, part] of parts.entries()) {
    const m = /^(?:(\d+)\/)?(\d+)(?:\+(\d+))?$/.exec(part);
    if (!m) throw new Error(`time_control: cannot read period ${i + 1}`);
    const p = { moves: m[1] ? Number(m[1]) : null, seconds: Number(m[2]), increment: m[3] ? Number(m[3]) : 0 };
    if (p.seconds < 1) throw new Error(`time_control: period ${i + 1} has no seconds`);
    if ((i < parts.length - 1) !== (p.moves !== null)) throw new Error('time_control: only the last period may lack a move count');
    periods.push(p);
  }
  return periods;
}

// ------------------------------------------------------------------ Chess960

const KNIGHTS = ['NN---', 'N-N--', 'N--N-', 'N---N', '-NN--', '-N-N-', '-N--N', '--NN-', '--N-N', '---NN'];
function chess960Fen(n) {
  const rank = Array(8).fill(null);
  let q = n;
  rank[2 * (q % 4) + 1] = 'B'; q = Math.floor(q / 4);
  rank[2 * (q % 4)] = 'B'; q = Math.floor(q / 4);
  const empties = () => rank.map((p, i) => (p ? -1 : i)).filter((i) => i >= 0);
  rank[empties()[q % 6]] = 'Q'; q = Math.floor(q / 6);
  const e = empties();
  [...KNIGHTS[q]].forEach((c, i) => { if (c === 'N') rank[e[i]] = 'N'; });
  const rest = empties();
  rank[rest[0]] = 'R'; rank[rest[1]] = 'K'; rank[rest[2]] = 'R';
  const files = 'abcdefgh';
  const castling = `${files[rest[2]].toUpperCase()}${files[rest[0]].toUpperCase()}${files[rest[2]]}${files[rest[0]]}`;
  const white = rank.join('');
  return `${white.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${white} w ${castling} - 0 1`;
}

// ------------------------------------------------------------------ game model

const fenOf = (pos) => makeFen(pos.toSetup());
const repKey = (pos) => fenOf(pos).split(' ').slice(0, 4).join(' ');

function legalMoves(g) {
  const pos = g.pos;
  const out = [];
  if (g.status !== 'active') return out;
  for (const [from, dests] of pos.allDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      const target = pos.board.get(to);
      const f = makeSquare(from);
      const t = makeSquare(to);
      if (piece.role === 'king' && target && target.color === piece.color && target.role === 'rook') {
        const short = to % 8 > from % 8;
        const kingTo = (short ? 'g' : 'c') + f[1];
        out.push({ uci: g.variant === 'standard' ? f + kingTo : f + t, san: makeSan(pos, { from, to }), from: f, to: kingTo, castle: short ? 'short' : 'long', rook: t });
      } else if (piece.role === 'pawn' && (t[1] === '8' || t[1] === '1')) {
        for (const r of ['queen', 'rook', 'bishop', 'knight']) {
          const p = r === 'knight' ? 'n' : r[0];
          out.push({ uci: f + t + p, san: makeSan(pos, { from, to, promotion: r }), from: f, to: t, promotion: p });
        }
      } else out.push({ uci: f + t, san: makeSan(pos, { from, to }), from: f, to: t });
    }
  }
  if (g.touched) {
    const sq = g.touched;
    const p = pos.board.get(parseSquare(sq));
    const restricted = p && p.color === pos.turn ? out.filter((m) => m.from === sq) : out.filter((m) => m.to === sq && !m.castle);
    if (restricted.length) return restricted;
  }
  return out;
}

function clockNow(g, now = Date.now()) {
  const c = g.clock;
  if (!c) return null;
  const out = { white_ms: c.white, black_ms: c.black, running: null, server_time: now, delay_left_ms: 0,
    moves_to_control: { white: null, black: null } };
  for (const col of ['white', 'black']) {
    const p = g.periods[c.period[col]];
    out.moves_to_control[col] = p.moves === null ? null : p.moves - c.movesInPeriod[col];
  }
  if (c.running && g.status === 'active') {
    const elapsed = now - c.since;
    const delay = g.delay ? g.delay.ms : 0;
    out[`${c.running}_ms`] = Math.max(0, c[c.running] - Math.max(0, elapsed - delay));
    out.delay_left_ms = Math.max(0, delay - elapsed);
    out.running = c.running;
  }
  return out;
}

function live(g) {
  const pos = g.pos;
  const last = g.moves[g.moves.length - 1];
  return {
    seq: g.seq, status: g.status, fen: fenOf(pos), turn: pos.turn, ply: g.moves.length,
    check: pos.isCheck(), last_move: last ? { from: last.from, to: last.to } : null,
    legal_moves: legalMoves(g), touched: g.touched, draw_offer: g.draw_offer,
    clocks: clockNow(g), result: g.result, termination: g.termination,
  };
}

function state(g, seat) {
  return {
    ...live(g), id: g.id, mode: g.mode, variant: g.variant, chess960_position: g.chess960_position,
    initial_fen: g.initial_fen, edition: g.edition, time_control: g.time_control, time_control_periods: g.periods ?? [], delay: g.delay,
    touch_move: g.touch_move, players: g.players, moves: g.moves, seat: seatName(seat),
    invite_url: g.mode === 'invite' ? `/join/${g.id}` : null, created_at: g.created_at,
  };
}

function summary(g) {
  return { id: g.id, mode: g.mode, status: g.status, variant: g.variant, chess960_position: g.chess960_position,
    edition: g.edition, time_control: g.time_control, time_control_periods: g.periods ?? [], delay: g.delay, players: g.players, result: g.result,
    termination: g.termination, ply: g.moves.length, created_at: g.created_at, updated_at: g.updated_at };
}

const seatName = (set) => (!set ? null : set.size === 2 ? 'both' : [...set][0]);

function send(ws, msg) { if (ws.readyState === 1) ws.send(JSON.stringify(msg)); }

function emit(g, event) {
  g.seq++;
  g.updated_at = Date.now();
  const msg = { type: 'event', seq: g.seq, event, live: live(g) };
  g.events.push(msg);
  for (const ws of g.sockets) send(ws, msg);
}

function presence(g) {
  const on = { white: false, black: false };
  for (const ws of g.sockets) for (const c of ws.seat ?? []) on[c] = true;
  for (const c of ['white', 'black']) if (g.players[c].kind === 'engine') on[c] = true;
  g.players.white.online = on.white;
  g.players.black.online = on.black;
  for (const ws of g.sockets) send(ws, { type: 'presence', ...on });
}

function startClock(g, color) {
  if (!g.clock) return;
  g.clock.running = color;
  g.clock.since = Date.now();
  scheduleFlag(g);
}

function scheduleFlag(g) {
  clearTimeout(g.flagTimer);
  const c = g.clock;
  if (!c || !c.running || g.status !== 'active') return;
  const left = c[c.running] + (g.delay ? g.delay.ms : 0) - (Date.now() - c.since);
  g.flagTimer = setTimeout(() => checkFlag(g), Math.max(0, left) + 5);
}

function checkFlag(g) {
  const now = clockNow(g);
  if (!now || g.status !== 'active' || !now.running) return;
  const col = now.running;
  if (now[`${col}_ms`] > 0) { scheduleFlag(g); return; }
  g.clock[col] = 0;
  const opp = opposite(col);
  const draw = g.pos.hasInsufficientMaterial(opp);
  finish(g, draw ? '1/2-1/2' : opp === 'white' ? '1-0' : '0-1', draw ? 'timeout_draw' : 'timeout', draw ? null : opp, col);
}

function finish(g, result, kind, winner, by, intended = null) {
  if (g.clock && g.clock.running) {
    const now = clockNow(g);
    g.clock.white = now.white_ms;
    g.clock.black = now.black_ms;
    g.clock.running = null;
  }
  clearTimeout(g.flagTimer);
  clearTimeout(g.engineTimer);
  g.status = 'finished';
  g.result = result;
  g.draw_offer = null;
  g.touched = null;
  g.termination = { kind, article: ARTICLES[g.edition][kind], winner, by };
  emit(g, { kind: 'end', result, termination: g.termination, intended_move: intended });
}

/** Make a move already checked for legality. Returns nothing; emits move (and end) events. */
function makeMove(g, move, uciOut) {
  const pos = g.pos;
  const color = pos.turn;
  const san = makeSan(pos, move);
  const from = makeSquare(move.from);
  let to = makeSquare(move.to);
  const piece = pos.board.get(move.from);
  const target = pos.board.get(move.to);
  if (piece.role === 'king' && target && target.color === color && target.role === 'rook') to = (move.to % 8 > move.from % 8 ? 'g' : 'c') + from[1];
  let clockMs = null;
  let spent = null;
  if (g.clock) {
    const c = g.clock;
    const now = Date.now();
    spent = now - c.since;
    const used = Math.max(0, spent - (g.delay ? g.delay.ms : 0));
    c[color] = Math.max(0, c[color] - used);
    c.movesInPeriod[color]++;
    let period = g.periods[c.period[color]];
    if (period.moves !== null && c.movesInPeriod[color] >= period.moves && c.period[color] < g.periods.length - 1) {
      c.period[color]++;
      c.movesInPeriod[color] = 0;
      period = g.periods[c.period[color]];
      c[color] += period.seconds * 1000;
    }
    c[color] += period.increment * 1000;
    clockMs = c[color];
  }
  pos.play(move);
  if (g.draw_offer && g.draw_offer !== color) g.draw_offer = null; // a move declines the opponent's offer
  g.touched = null;
  const key = repKey(pos);
  g.reps.set(key, (g.reps.get(key) ?? 0) + 1);
  const rec = { ply: g.moves.length + 1, color, uci: uciOut, san, from, to, clock_ms: clockMs, spent_ms: spent };
  if (move.promotion) rec.promotion = move.promotion === 'knight' ? 'n' : move.promotion[0];
  g.moves.push(rec);
  if (g.clock) startClock(g, pos.turn);
  emit(g, { kind: 'move', move: rec });

  if (pos.isCheckmate()) return finish(g, color === 'white' ? '1-0' : '0-1', 'checkmate', color, null);
  if (pos.isStalemate()) return finish(g, '1/2-1/2', 'stalemate', null, null);
  if (pos.isInsufficientMaterial()) return finish(g, '1/2-1/2', 'dead_position', null, null);
  if (pos.halfmoves >= 150) return finish(g, '1/2-1/2', 'seventyfive_moves', null, null);
  if (g.reps.get(key) >= 5) return finish(g, '1/2-1/2', 'fivefold_repetition', null, null);
  scheduleEngine(g);
}

function scheduleEngine(g) {
  if (g.status !== 'active' || g.players[g.pos.turn].kind !== 'engine') return;
  clearTimeout(g.engineTimer);
  g.engineTimer = setTimeout(() => {
    if (g.status !== 'active' || g.players[g.pos.turn].kind !== 'engine') return;
    const moves = legalMoves(g);
    if (!moves.length) return;
    // Deterministic "engine": mate if it can, else a pseudo-random move from the game id and ply.
    let pick = moves.find((m) => m.san.endsWith('#'));
    if (!pick) {
      let h = g.moves.length + 7;
      for (const ch of g.id) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
      pick = moves[h % moves.length];
    }
    const mv = parseUci(pick.uci);
    makeMove(g, g.variant === 'standard' ? normalizeMove(g.pos, mv) : mv, pick.uci);
  }, ENGINE_MS);
}

function createGame(body, origin) {
  const mode = body.mode;
  if (!['engine', 'invite', 'local'].includes(mode)) throw new Error('mode');
  const level = mode === 'engine' ? Number(body.engine?.level) : null;
  if (mode === 'engine' && !(level >= 1 && level <= 7)) throw new Error('engine.level');
  let color = body.color ?? 'random';
  if (!['white', 'black', 'random'].includes(color)) throw new Error('color');
  if (color === 'random') color = Math.random() < 0.5 ? 'white' : 'black';
  if (mode === 'local') color = 'white';
  const tc = body.time_control ?? '-';
  const periods = parseTc(tc);
  const delay = body.delay ?? null;
  if (delay && (!['bronstein', 'simple'].includes(delay.kind) || !(delay.ms >= 1 && delay.ms <= 600000))) throw new Error('delay');
  if (delay && periods?.some((p) => p.increment > 0)) throw new Error('delay: increments must be 0 with a delay');
  const variant = body.variant ?? 'standard';
  if (!['standard', 'chess960'].includes(variant)) throw new Error('variant');
  const edition = body.edition ?? '2014';
  if (!ARTICLES[edition]) throw new Error('edition');
  let n960 = null;
  let fen = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  if (variant === 'chess960') {
    n960 = body.chess960_position ?? Math.floor(Math.random() * 960);
    if (!(Number.isInteger(n960) && n960 >= 0 && n960 <= 959)) throw new Error('chess960_position');
    fen = chess960Fen(n960);
  }
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  // Like the real server (crates/server/src/display_name.rs): no invisible or format character.
  const hidden = typeof body.name === 'string' ? /\p{Cf}/u.exec(body.name) : null;
  if (hidden) throw new Error(`name: U+${hidden[0].codePointAt(0).toString(16).toUpperCase().padStart(4, '0')} (an invisible, format or direction character) is not allowed`);
  const name = typeof body.name === 'string' ? body.name.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 40) || null : null;
  const human = (nm, joined) => ({ kind: 'human', name: nm, engine_level: null, engine_elo: null, joined, online: false });
  const players = { white: null, black: null };
  players[color] = human(name, true);
  players[opposite(color)] = mode === 'engine'
    ? { kind: 'engine', name: null, engine_level: level, engine_elo: ELO[level], joined: true, online: true }
    : mode === 'local' ? human(null, true) : human(null, false);
  const id = newId();
  const g = {
    id, mode, variant, chess960_position: n960, initial_fen: fenOf(pos), edition, time_control: tc, periods, delay,
    touch_move: !!body.touch_move, players, pos, moves: [], status: mode === 'invite' ? 'waiting' : 'active',
    result: '*', termination: null, draw_offer: null, touched: null, seq: 0, events: [], sockets: new Set(),
    reps: new Map([[repKey(pos), 1]]), seats: new Map(), created_at: Date.now(), updated_at: Date.now(),
    clock: periods ? {
      white: (periods[0].seconds + periods[0].increment) * 1000, black: (periods[0].seconds + periods[0].increment) * 1000,
      running: null, since: 0, period: { white: 0, black: 0 }, movesInPeriod: { white: 0, black: 0 },
    } : null,
  };
  const token = randomBytes(16).toString('base64url');
  g.seats.set(token, new Set(mode === 'local' ? ['white', 'black'] : [color]));
  games.set(id, g);
  if (g.status === 'active') { startClock(g, 'white'); scheduleEngine(g); }
  void origin;
  return { g, token, seat: mode === 'local' ? 'both' : color };
}

// ------------------------------------------------------------------ socket actions

function act(g, ws, msg) {
  const err = (code, message) => send(ws, { type: 'error', code, message, reply_to: msg.id });
  if (msg.type === 'hello') {
    const last = Number(msg.last_seq) || 0;
    if (last > 0 && last <= g.seq) for (const ev of g.events.slice(last)) send(ws, ev);
    else if (last !== g.seq || last === 0) send(ws, { type: 'state', state: state(g, ws.seat) });
    send(ws, { type: 'ready', seq: g.seq, clocks: clockNow(g) });
    presence(g);
    return;
  }
  if (msg.type === 'ping') return send(ws, { type: 'pong', id: msg.id, server_time: Date.now() });
  if (!ws.seat) return err('not_a_player', 'spectators cannot act');
  if (g.status !== 'active') return err('game_not_active', 'the game is not in progress');
  const turn = g.pos.turn;
  const actor = ws.seat.size === 2 ? (msg.type === 'move' ? turn : msg.color ?? turn) : [...ws.seat][0];
  if (!ws.seat.has(actor)) return err('not_a_player', 'not your seat');

  const parseMove = (uci) => {
    const mv = parseUci(String(uci ?? ''));
    if (!mv || mv.role) return null;
    const norm = g.variant === 'standard' ? normalizeMove(g.pos, mv) : mv;
    return g.pos.isLegal(norm) ? norm : null;
  };
  const allowedByTouch = (uci) => {
    if (!g.touched) return true;
    return legalMoves(g).some((m) => m.uci === uci || (m.castle && m.from + m.rook === uci));
  };

  // Typed text (protocol §5.1): the real server reads every notation with arbiter-pgn; this
  // stand-in reads UCI and SAN with English or Russian piece letters.
  const readText = (text) => {
    const t = String(text).trim().replace(/[+#!?]+$/, '').replace(/^Кр/, 'K').replace(/^К/, 'N').replace(/^Ф/, 'Q')
      .replace(/^Л/, 'R').replace(/^С/, 'B').replace(/[—–]/g, '-').replace(/^0-0-0$/, 'O-O-O').replace(/^0-0$/, 'O-O')
      .replace(/[асе]/g, (c) => ({ 'а': 'a', 'с': 'c', 'е': 'e' })[c]); // Cyrillic look-alikes of files
    const uci = /^[a-h][1-8]-?[a-h][1-8][qrbn]?$/.test(t) ? t.replace('-', '') : null;
    const san = uci ? null : parseSan(g.pos, t);
    return uci ?? (san ? makeUci(san) : null);
  };
  if (msg.type === 'move' && msg.uci === undefined && typeof msg.text === 'string') {
    const read = readText(msg.text);
    // Like the real server: text that is no move at all is unreadable; a move not legal here is illegal.
    // Like the real server: several legal moves fit a piece move without its file or rank.
    const bare = (san) => san.replace(/[+#]$/, '').replace(/^([KQRBN])[a-h]?[1-8]?(x?[a-h][1-8])$/, '$1$2');
    const typedSan = String(msg.text).trim().replace(/^К(?!р)/, 'N').replace(/[+#!?]+$/, '');
    const fits = read ? [] : legalMoves(g).filter((m) => /^[KQRBN]/.test(m.san) && bare(m.san) === bare(typedSan)).map((m) => m.san.replace(/[+#]$/, ''));
    if (fits.length > 1) return err('ambiguous_move', `ambiguous move ${typedSan}: it could be any of ${fits.join(', ')}`);
    if (!read) return /[a-hа-я][1-8]|^[0O]-[0O]/i.test(msg.text) ? err('illegal_move', `no legal move reads ${msg.text}`) : err('unreadable_move', `cannot read ${msg.text}`);
    msg = { ...msg, uci: legalMoves(g).find((m) => m.uci === read || (m.castle && m.from + m.rook === read))?.uci ?? read };
  }
  if (msg.type === 'claim' && typeof msg.move === 'string' && !parseMove(msg.move)) {
    const read = readText(msg.move);
    if (read) msg = { ...msg, move: legalMoves(g).find((m) => m.uci === read || (m.castle && m.from + m.rook === read))?.uci ?? read };
  }
  switch (msg.type) {
    case 'move': {
      if (actor !== turn) return err('not_your_turn', 'not your turn');
      const mv = parseMove(msg.uci);
      if (!mv) return err('illegal_move', `illegal move ${msg.uci}`);
      if (!allowedByTouch(msg.uci)) return err('touch_move_violation', 'you must move the touched piece');
      const canonical = legalMoves(g).find((m) => m.uci === msg.uci || (m.castle && m.from + m.rook === msg.uci))?.uci ?? msg.uci;
      return makeMove(g, mv, canonical);
    }
    case 'offer_draw':
      if (g.draw_offer) return err('bad_message', 'an offer is already pending');
      g.draw_offer = actor;
      emit(g, { kind: 'draw_offer', by: actor });
      if (g.players[opposite(actor)].kind === 'engine') {
        // The real engine weighs the position from move 20 on; this stand-in has no evaluation:
        // it declines before move 20 and accepts after.
        setTimeout(() => {
          if (g.status !== 'active' || g.draw_offer !== actor) return;
          if (g.pos.fullmoves >= 20) return finish(g, '1/2-1/2', 'agreement', null, null);
          g.draw_offer = null;
          emit(g, { kind: 'draw_declined', by: opposite(actor) });
        }, 300);
      }
      return;
    case 'accept_draw':
    case 'decline_draw': {
      const answerer = ws.seat.size === 2 ? (msg.color ?? (g.draw_offer && opposite(g.draw_offer))) : actor;
      if (!g.draw_offer || g.draw_offer === answerer) return err('no_draw_offer', 'no draw offer to answer');
      if (msg.type === 'decline_draw') { g.draw_offer = null; return emit(g, { kind: 'draw_declined', by: answerer }); }
      if (g.edition !== '2014' && g.moves.length < 2) return err('draw_not_allowed', 'both players must have moved (5.2.3)');
      return finish(g, '1/2-1/2', 'agreement', null, null);
    }
    case 'resign': {
      const opp = opposite(actor);
      if (g.edition === '2023' && g.pos.hasInsufficientMaterial(opp)) return finish(g, '1/2-1/2', 'resignation', null, actor);
      return finish(g, opp === 'white' ? '1-0' : '0-1', 'resignation', opp, actor);
    }
    case 'claim': {
      if (actor !== turn) return err('claim_not_your_move', 'only the player having the move may claim');
      const kind = msg.claim;
      if (kind !== 'threefold' && kind !== 'fifty') return err('bad_message', 'claim must be threefold or fifty');
      let mv = null;
      if (msg.move !== undefined && msg.move !== null) {
        mv = parseMove(msg.move);
        if (!mv) return err('illegal_move', `illegal intended move ${msg.move}`);
      }
      let correct;
      if (mv) {
        const after = g.pos.clone();
        after.play(mv);
        correct = kind === 'threefold' ? (g.reps.get(repKey(after)) ?? 0) + 1 >= 3 : after.halfmoves >= 100;
      } else correct = kind === 'threefold' ? g.reps.get(repKey(g.pos)) >= 3 : g.pos.halfmoves >= 100;
      if (correct) return finish(g, '1/2-1/2', kind === 'threefold' ? 'threefold_repetition' : 'fifty_moves', null, actor, mv ? msg.move : null);
      const est = g.periods ? g.periods[0].seconds + 60 * g.periods[0].increment : Infinity;
      const fast = g.edition === '2023' ? est < 3600 : est <= 600;
      const penalty = fast ? 60000 : 120000;
      const opp = opposite(actor);
      if (g.clock) { g.clock[opp] += penalty; scheduleFlag(g); }
      g.draw_offer = actor;
      emit(g, { kind: 'claim_rejected', by: actor, claim: kind, move: mv ? msg.move : null, penalty_ms: g.clock ? penalty : 0, article: ARTICLES[g.edition].claim });
      if (mv) makeMove(g, mv, msg.move);
      return;
    }
    case 'touch': {
      if (!g.touch_move) return err('touch_move_off', 'touch-move is off');
      if (actor !== turn) return err('not_your_turn', 'not your turn');
      if (g.touched) return;
      const sq = parseSquare(String(msg.square ?? ''));
      if (sq === undefined || !g.pos.board.get(sq)) return err('bad_message', 'no piece there');
      g.touched = makeSquare(sq);
      return emit(g, { kind: 'touch', color: actor, square: g.touched });
    }
    default:
      return err('bad_message', `unknown message ${msg.type}`);
  }
}

// ------------------------------------------------------------------ PGN

function pgn(g) {
  const clk = (ms) => {
    const s = Math.floor(ms / 1000);
    return `${Math.floor(s / 3600)}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  };
  const name = (p) => (p.kind === 'engine' ? `Arbiter level ${p.engine_level}` : p.name ?? 'Anonymous').replace(/["\\]/g, '');
  const d = new Date(g.created_at);
  const tags = [['Event', 'Arbiter game'], ['Site', '?'], ['Date', `${d.getUTCFullYear()}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${String(d.getUTCDate()).padStart(2, '0')}`],
    ['Round', '-'], ['White', name(g.players.white)], ['Black', name(g.players.black)], ['Result', g.result],
    ['TimeControl', g.time_control], ['Annotator', `Arbiter, FIDE Laws ${g.edition}`]];
  // Termination: the PGN standard's values; the FIDE detail in FideTermination.
  const standard = (k) => ({ timeout: 'time forfeit', timeout_draw: 'time forfeit', illegal_move: 'rules infraction' }[k] ?? 'normal');
  tags.push(['Termination', g.termination ? standard(g.termination.kind) : 'unterminated']);
  if (g.termination) tags.push(['FideTermination', `${g.termination.kind} (FIDE Laws ${g.edition}, Art. ${g.termination.article})`]);
  if (g.variant === 'chess960') tags.push(['Variant', 'Chess960'], ['SetUp', '1'], ['FEN', g.initial_fen]);
  let body = '';
  for (const m of g.moves) {
    if (m.color === 'white') body += `${Math.ceil(m.ply / 2)}. `;
    body += m.san + (m.clock_ms !== null ? ` {[%clk ${clk(m.clock_ms)}]} ` : ' ');
  }
  return tags.map(([k, v]) => `[${k} "${v}"]`).join('\n') + `\n\n${body}${g.result}\n`;
}

// ------------------------------------------------------------------ HTTP

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };

function cookies(req) {
  const out = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

function seatOf(g, req) {
  const token = cookies(req)[`arbiter_seat_${g.id}`];
  return token ? g.seats.get(token) ?? null : null;
}

function json(res, status, data, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(data));
}
const fail = (res, status, code, message, field) => json(res, status, { error: { code, message, ...(field ? { field } : {}) } });
const seatCookie = (id, token) => `arbiter_seat_${id}=${token}; Path=/api/games/${id}; HttpOnly; SameSite=Strict; Max-Age=2592000`;

function originOk(req) {
  const origin = req.headers.origin;
  return !origin || origin === `http://${req.headers.host}` || origin === `https://${req.headers.host}`;
}

async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const c of req) { size += c.length; if (size > 65536) throw new Error('body too large'); chunks.push(c); }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}

async function serveStatic(res, path) {
  const spa = path === '/' || /^\/events\/?$/.test(path) || /^\/(game|join|event|@)\/[A-Za-z0-9_-]+\/?$/.test(path);
  const file = spa ? 'index.html' : normalize(path).replace(/^[/\\]+/, '');
  if (file.includes('..')) return fail(res, 404, 'not_found', 'no such file');
  try {
    const data = await readFile(join(DIST, file));
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const headers = { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'same-origin' };
    if (type.startsWith('text/html')) { headers['Content-Security-Policy'] = CSP; headers['Cache-Control'] = 'no-cache'; }
    res.writeHead(200, headers);
    res.end(data);
  } catch {
    fail(res, 404, 'not_found', 'no such file');
  }
}

async function handle(req, res) {
  const url = new URL(req.url, 'http://x');
  const path = url.pathname;
  if (req.method === 'POST' && !originOk(req)) return fail(res, 403, 'forbidden_origin', 'foreign origin');

  // Accounts (protocol §8) are the real server's: here nobody is logged in.
  // Events (and a mock log-in for their pages): tests/mock-events.mjs.
  if (path === '/api/account' && req.method === 'GET') {
    const name = mockUser(cookies(req));
    return json(res, 200, { user: name ? { name, url: `/@/${name}` } : null });
  }
  if (await handleEvents(req, res, path, { json, fail, readBody, cookies })) return;

  if (path === '/api/games' && req.method === 'POST') {
    let body;
    try { body = await readBody(req); } catch (e) { return fail(res, 400, 'invalid_request', String(e.message)); }
    try {
      const { g, token, seat } = createGame(body);
      return json(res, 201, { id: g.id, seat, url: `/game/${g.id}`, invite_url: g.mode === 'invite' ? `/join/${g.id}` : null, state: state(g, g.seats.get(token)) },
        { 'Set-Cookie': seatCookie(g.id, token) });
    } catch (e) {
      return fail(res, 400, 'invalid_request', e.message, String(e.message).split(':')[0]);
    }
  }
  if (path === '/api/games' && req.method === 'GET') {
    const status = url.searchParams.get('status') ?? 'all';
    const limit = Math.min(200, Number(url.searchParams.get('limit') ?? 50));
    const list = [...games.values()].filter((g) => g.status !== 'waiting')
      .filter((g) => status === 'all' || (status === 'live' ? g.status === 'active' : g.status === 'finished'))
      .sort((a, b) => b.created_at - a.created_at).slice(0, limit).map(summary);
    return json(res, 200, { games: list });
  }
  let m = /^\/__mock\/drop\/([A-Za-z0-9]+)$/.exec(path);
  if (m && req.method === 'POST') {
    const g = games.get(m[1]);
    for (const ws of g?.sockets ?? []) ws.terminate();
    return json(res, 200, { dropped: true });
  }
  m = /^\/api\/games\/([A-Za-z0-9]+)(\/pgn|\/join)?$/.exec(path);
  if (m) {
    const g = games.get(m[1]);
    if (!g) return fail(res, 404, 'not_found', 'no such game');
    if (!m[2] && req.method === 'GET') return json(res, 200, state(g, seatOf(g, req)));
    if (m[2] === '/pgn' && req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'application/x-chess-pgn; charset=utf-8', 'Content-Disposition': `attachment; filename="arbiter-${g.id}.pgn"` });
      return res.end(pgn(g));
    }
    if (m[2] === '/join' && req.method === 'POST') {
      let body = {};
      try { body = await readBody(req); } catch { /* optional */ }
      if (g.mode !== 'invite') return fail(res, 409, 'not_invitation', 'not an invitation');
      if (seatOf(g, req)) return fail(res, 409, 'already_seated', 'you already hold a seat');
      const free = ['white', 'black'].find((c) => !g.players[c].joined);
      if (!free || g.status !== 'waiting') return fail(res, 409, 'seat_taken', 'the seat is taken');
      const token = randomBytes(16).toString('base64url');
      g.seats.set(token, new Set([free]));
      const name = typeof body.name === 'string' ? body.name.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 40) || null : null;
      g.players[free] = { kind: 'human', name, engine_level: null, engine_elo: null, joined: true, online: false };
      g.status = 'active';
      startClock(g, 'white');
      emit(g, { kind: 'join', color: free, players: g.players });
      return json(res, 200, { id: g.id, seat: free, url: `/game/${g.id}`, state: state(g, g.seats.get(token)) }, { 'Set-Cookie': seatCookie(g.id, token) });
    }
    return fail(res, 404, 'not_found', 'no such endpoint');
  }
  if (path.startsWith('/api/')) return fail(res, 404, 'not_found', 'no such endpoint');
  if (req.method !== 'GET' && req.method !== 'HEAD') return fail(res, 404, 'not_found', 'no such page');
  return serveStatic(res, path);
}

export function startMockServer(port = 0) {
  const server = http.createServer((req, res) => {
    handle(req, res).catch((e) => { console.error(e); if (!res.headersSent) fail(res, 500, 'internal', String(e)); });
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16384 });
  server.on('upgrade', (req, socket, head) => {
    // The lobby of open seeks (§3.8): always empty in the mock.
    if (new URL(req.url, 'http://x').pathname === '/api/lobby/ws') {
      wss.handleUpgrade(req, socket, head, (ws) => send(ws, { type: 'seeks', seeks: [] }));
      return;
    }
    const m = /^\/api\/games\/([A-Za-z0-9]+)\/ws$/.exec(new URL(req.url, 'http://x').pathname);
    const g = m && games.get(m[1]);
    if (!g || !originOk(req)) { socket.write('HTTP/1.1 403 Forbidden\r\n\r\n'); socket.destroy(); return; }
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.seat = seatOf(g, req);
      g.sockets.add(ws);
      ws.on('message', (data) => {
        let msg;
        try { msg = JSON.parse(String(data)); } catch { return send(ws, { type: 'error', code: 'bad_message', message: 'not JSON' }); }
        try { act(g, ws, msg); } catch (e) { console.error(e); send(ws, { type: 'error', code: 'bad_message', message: String(e), reply_to: msg.id }); }
      });
      ws.on('close', () => { g.sockets.delete(ws); presence(g); });
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const port = Number(i > 0 ? process.argv[i + 1] : process.env.PORT ?? 8080);
  const server = await startMockServer(port);
  console.log(`mock arbiter serve on http://127.0.0.1:${server.address().port}`);
}
