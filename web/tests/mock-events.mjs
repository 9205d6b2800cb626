// SPDX-License-Identifier: AGPL-3.0-or-later
// The events API of the mock server (docs/protocol.md, events), for the event pages' browser
// tests. It is NOT the real arbiter: a round is paired by a plain fold of the list (top half
// against bottom half, colours alternating), not by the Dutch system, and the standings carry
// one made-up tie-break (the sum of the opponents' points). Game links point to no game.
//
// Mock-only extra: POST /__mock/login/{name} logs the browser in as {name} (a cookie), since
// the mock has no accounts; POST /__mock/logout logs it out.

import { randomBytes } from 'node:crypto';

const events = new Map();
const POINTS = { '1-0': [1, 0], '0-1': [0, 1], '1/2-1/2': [0.5, 0.5], '+-': [1, 0], '-+': [0, 1], '--': [0, 0] };

/** The logged-in mock user from the cookie, or null. */
export function mockUser(cookies) {
  const name = cookies.arbiter_mock_user;
  return name && /^[A-Za-z0-9_-]{3,20}$/.test(name) ? name : null;
}

function view(e, user) {
  const me = user ? e.players.find((p) => p.name === user) : null;
  const current = e.rounds.at(-1);
  const mine = me && current?.games.find((g) => g.white === me.no || g.black === me.no);
  return {
    id: e.id, name: e.name, system: e.system, status: e.status, organiser: e.organiser, settings: e.settings,
    players: e.players, rounds: e.rounds.map((r) => ({ ...r, games: r.games.map((g) => ({ ...g, white_name: name(e, g.white), black_name: name(e, g.black) })) })), current_round: e.rounds.length, standings: standings(e),
    rating_changes: e.status === 'finished' ? e.players.map((p) => {
      const change = 10 * (score(e, p.no) - e.rounds.length / 2);
      return { no: p.no, name: p.name, rating_before: p.rating, rating_after: p.rating + change, glicko_change: change, fide_change: change / 2 };
    }) : null,
    you: user ? { registered: !!me, your_game: mine?.game_id ?? null, organiser: user.toLowerCase() === e.organiser } : null,
  };
}

const name = (e, no) => e.players.find((p) => p.no === no)?.name ?? '';

function score(e, no) {
  let s = 0;
  for (const r of e.rounds) {
    for (const g of r.games) {
      if (!g.result) continue;
      if (g.white === no) s += POINTS[g.result][0];
      if (g.black === no) s += POINTS[g.result][1];
    }
    for (const b of r.byes) if (b.player === no) s += b.kind === 'half' ? 0.5 : b.kind === 'pairing' ? 1 : 0;
  }
  return s;
}

function standings(e) {
  if (!e.rounds.length) return [];
  const rows = e.players.map((p) => {
    const opp = e.rounds.flatMap((r) => r.games).filter((g) => g.white === p.no || g.black === p.no).map((g) => (g.white === p.no ? g.black : g.white));
    return { no: p.no, name: p.name, points: score(e, p.no), tiebreaks: [{ name: 'BH', value: opp.reduce((a, o) => a + score(e, o), 0) }] };
  });
  rows.sort((a, b) => b.points - a.points || b.tiebreaks[0].value - a.tiebreaks[0].value || a.no - b.no);
  return rows.map((r, i) => ({ rank: i + 1, ...r }));
}

function pair(e) {
  const n = e.rounds.length + 1;
  const byes = [];
  const active = [];
  for (const p of e.players) {
    if (p.withdrawn) continue;
    if (e.byeRequests.some((b) => b.no === p.no && b.round === n)) byes.push({ player: p.no, kind: 'half' });
    else active.push(p.no);
  }
  if (active.length % 2) byes.push({ player: active.pop(), kind: 'pairing' });
  const half = active.length / 2;
  const games = [];
  for (let i = 0; i < half; i++) {
    const [a, b] = [active[(i + n - 1) % active.length], active[(i + half + n - 1) % active.length]];
    const [white, black] = (i + n) % 2 ? [a, b] : [b, a];
    games.push({ board: i + 1, white, black, game_id: `m${randomBytes(4).toString('hex')}`, result: null });
  }
  e.rounds.push({ round: n, games, byes });
}

function trf(e) {
  const lines = [`012 ${e.name}`, `062 ${e.players.length}`, `XXR ${e.settings.rounds ?? e.rounds.length}`];
  for (const p of e.players) lines.push(`001 ${String(p.no).padStart(4)}      ${p.name.padEnd(33)} ${String(p.rating).padStart(4)}`);
  return lines.join('\n') + '\n';
}

/**
 * Answers `/api/events…` and `/__mock/login…`; returns false for any other path.
 * `h` = { json, fail, readBody, cookies }: the mock server's own helpers.
 */
export async function handleEvents(req, res, path, h) {
  const m = /^\/__mock\/login\/([A-Za-z0-9_-]{3,20})$/.exec(path);
  if (m && req.method === 'POST') {
    h.json(res, 200, { user: { name: m[1], url: `/@/${m[1]}` } }, { 'Set-Cookie': `arbiter_mock_user=${m[1]}; Path=/; SameSite=Strict` });
    return true;
  }
  if (path === '/__mock/logout' && req.method === 'POST') {
    h.json(res, 200, { user: null }, { 'Set-Cookie': 'arbiter_mock_user=; Path=/; Max-Age=0' });
    return true;
  }
  if (!path.startsWith('/api/events')) return false;
  const user = mockUser(h.cookies(req));
  if (path === '/api/events' && req.method === 'GET') {
    h.json(res, 200, { events: [...events.values()].map((e) => ({ id: e.id, name: e.name, system: e.system, status: e.status, players: e.players.length, round: e.rounds.length, start_at: e.settings.start_at })) });
    return true;
  }
  let body = {};
  if (req.method === 'POST') {
    if (!user) { h.fail(res, 401, 'login_required', 'log in first'); return true; }
    try { body = await h.readBody(req); } catch (e) { h.fail(res, 400, 'invalid_request', String(e.message)); return true; }
  }
  if (path === '/api/events' && req.method === 'POST') {
    if (typeof body.name !== 'string' || !body.name.trim()) { h.fail(res, 400, 'invalid_request', 'name: missing'); return true; }
    const id = randomBytes(5).toString('hex');
    const { name, system, ...settings } = body;
    events.set(id, { id, name: name.trim(), system, status: 'registration', organiser: user.toLowerCase(), settings, players: [], rounds: [], byeRequests: [] });
    h.json(res, 201, { id });
    return true;
  }
  const em = /^\/api\/events\/([a-f0-9]+)(?:\/([a-z_]+))?$/.exec(path);
  const e = em && events.get(em[1]);
  if (!e) { h.fail(res, 404, 'not_found', 'no such event'); return true; }
  const action = em[2];
  if (!action && req.method === 'GET') { h.json(res, 200, view(e, user)); return true; }
  if (action === 'trf' && req.method === 'GET') {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Disposition': `attachment; filename="event-${e.id}.trf"` });
    res.end(trf(e));
    return true;
  }
  if (action === 'pgn' && req.method === 'GET') {
    res.writeHead(200, { 'Content-Type': 'application/x-chess-pgn; charset=utf-8' });
    res.end(e.rounds.flatMap((r) => r.games.map((g) => `[Event "${e.name}"]\n[Round "${r.round}.${g.board}"]\n[Board "${g.board}"]\n[Result "${g.result ?? '*'}"]\n\n${g.result ?? '*'}\n`)).join('\n'));
    return true;
  }
  if (req.method !== 'POST') { h.fail(res, 404, 'not_found', 'no such endpoint'); return true; }
  const organiserOnly = ['start', 'pair', 'result', 'forfeit', 'late_entry', 'end'];
  if (organiserOnly.includes(action) && user.toLowerCase() !== e.organiser) { h.fail(res, 403, 'not_organiser', 'only the organiser may do this'); return true; }
  const me = e.players.find((p) => p.name === user);
  const ok = (rule) => h.json(res, 200, { rule });
  switch (action) {
    case 'register':
      if (e.status !== 'registration') return h.fail(res, 409, 'registration_closed', 'registration is closed'), true;
      if (!me) e.players.push({ no: e.players.length + 1, name: user, rating: 1500, withdrawn: false });
      return ok('C.04.2 A.2'), true;
    case 'withdraw':
      if (me) me.withdrawn = true;
      return ok('C.04.1'), true;
    case 'bye':
      if (!me || !Number.isInteger(body.round) || body.round <= e.rounds.length) return h.fail(res, 400, 'invalid_request', 'round: not a later round'), true;
      e.byeRequests.push({ no: me.no, round: body.round });
      return ok('C.04.1'), true;
    case 'start':
      if (e.status !== 'registration') return h.fail(res, 409, 'already_started', 'the event has started'), true;
      e.status = 'running';
      pair(e);
      return ok(e.system === 'swiss' ? 'C.04.3' : 'C.05'), true;
    case 'pair':
      if (e.rounds.at(-1)?.games.some((g) => !g.result)) return h.fail(res, 409, 'round_unfinished', 'a game of the round has not ended'), true;
      pair(e);
      return ok('C.04.3'), true;
    case 'result': {
      const g = e.rounds[body.round - 1]?.games.find((x) => x.board === body.board);
      if (!g || !(body.result in POINTS)) return h.fail(res, 400, 'invalid_request', 'round, board or result: no such game'), true;
      g.result = body.result;
      return ok('C.07'), true;
    }
    case 'forfeit': {
      const r = e.rounds[(body.round ?? e.rounds.length) - 1];
      const g = r?.games.find((x) => x.white === body.player || x.black === body.player);
      if (!g) return h.fail(res, 400, 'invalid_request', 'player: not paired in that round'), true;
      g.result = g.white === body.player ? '-+' : '+-';
      return ok('Art. 10.1'), true;
    }
    case 'late_entry':
      if (typeof body.user !== 'string' || !/^[A-Za-z0-9_-]{3,20}$/.test(body.user)) return h.fail(res, 400, 'invalid_request', 'user: not a user name'), true;
      e.players.push({ no: e.players.length + 1, name: body.user, rating: 1500, withdrawn: false });
      return ok('C.04.1'), true;
    case 'end':
      e.status = 'finished';
      return ok('C.07'), true;
    default:
      h.fail(res, 404, 'not_found', 'no such endpoint');
      return true;
  }
}
