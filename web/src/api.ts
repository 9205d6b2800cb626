// SPDX-License-Identifier: AGPL-3.0-or-later
// HTTP calls of docs/protocol.md §3. Seat cookies are HttpOnly: the browser sends them, JS never sees them.

import type { CreateRequest, GameSummary, SeatResponse, State } from './protocol';
import type { Analysis } from './analysis';
import type { Seek } from './lobby';

export class ApiError extends Error {
  /** `field`: the request field an `invalid_request` names (protocol §3). */
  constructor(public code: string, message: string, public status: number, public field: string | null = null) {
    super(message);
  }
}

/** One JSON call; a non-2xx answer becomes an ApiError with the server's code and message. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { Accept: 'application/json' } : { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError('network', String(e), 0);
  }
  let data: unknown = null;
  try { data = await res.json(); } catch { /* empty or not JSON */ }
  if (!res.ok) {
    const err = (data as { error?: { code?: string; message?: string; field?: string } } | null)?.error;
    throw new ApiError(err?.code ?? 'internal', err?.message ?? res.statusText, res.status, err?.field ?? null);
  }
  return data as T;
}

export const createGame = (req: CreateRequest) => call<SeatResponse>('POST', '/api/games', req);
export const listGames = (status: 'live' | 'finished' | 'all' = 'all', limit = 50) =>
  call<{ games: GameSummary[] }>('GET', `/api/games?status=${status}&limit=${limit}`);
export const getGame = (id: string) => call<State>('GET', `/api/games/${encodeURIComponent(id)}`);
export const joinGame = (id: string, name?: string) =>
  call<SeatResponse>('POST', `/api/games/${encodeURIComponent(id)}/join`, name ? { name } : {});
export const pgnUrl = (id: string) => `/api/games/${encodeURIComponent(id)}/pgn`;
/** Every position of a game (protocol §3.4.1), for the replay. */
export const getPositions = (id: string) =>
  call<{ fens: string[]; checks: boolean[] }>('GET', `/api/games/${encodeURIComponent(id)}/positions`);

// Rematch (§3.7), lobby (§3.8), analysis (§3.9).
export const rematch = (id: string) =>
  call<SeatResponse | { offered: true }>('POST', `/api/games/${encodeURIComponent(id)}/rematch`, {});
export const listSeeks = () => call<{ seeks: Seek[] }>('GET', '/api/lobby');
export const analyse = (id: string) => call<Analysis>('POST', `/api/games/${encodeURIComponent(id)}/analysis`, {});
export const getAnalysis = (id: string) => call<Analysis>('GET', `/api/games/${encodeURIComponent(id)}/analysis`);
export const analyseDeeper = (id: string, ply: number) =>
  call<Analysis>('POST', `/api/games/${encodeURIComponent(id)}/analysis/${ply}`, {});
