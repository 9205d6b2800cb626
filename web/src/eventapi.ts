// SPDX-License-Identifier: AGPL-3.0-or-later
// Events (docs/protocol.md, events): the types of the event API and its HTTP calls. Swiss
// events pair by the Dutch system (FIDE Handbook C.04.3), round-robins by the Berger tables
// (C.05 Annex 1); standings carry the event's tie-breaks (C.07); a player absent past the
// default time loses (FIDE Laws Art. 6.7).

import { call } from './api';
import type { Edition } from './protocol';

export type EventSystem = 'swiss' | 'round_robin';
export type EventStatus = 'registration' | 'running' | 'finished';
/** A game's result as the organiser enters it: over the board, or by forfeit (`+-`, `-+`, `--`). */
export type EventResult = '1-0' | '0-1' | '1/2-1/2' | '+-' | '-+' | '--';
export const RESULTS: EventResult[] = ['1-0', '0-1', '1/2-1/2', '+-', '-+', '--'];

/** What an organiser sends to create an event (`POST /api/events`). */
export interface CreateEvent {
  name: string;
  system: EventSystem;
  /** Swiss only; a round-robin's rounds follow from its players. */
  rounds?: number;
  /** Round-robin only: every pair meets twice. */
  double?: boolean;
  initial_s: number;
  increment_s: number;
  edition: Edition;
  /** Art. 6.7.1: the time after the start of the session a player may arrive. */
  default_time_s: number;
  touch_move: boolean;
  /** Epoch milliseconds. */
  start_at: number;
  auto_pair: boolean;
  rated: boolean;
}

/** A line of `GET /api/events`. */
export interface EventSummary {
  id: string;
  name: string;
  system: EventSystem;
  status: EventStatus;
  players: number;
  round: number;
  start_at: number;
}

/** A player is named by the server either by starting number or by name. */
export type PlayerRef = number | string | null;

export interface EventPlayer { no: number; name: string; rating: number | null; withdrawn: boolean }
export interface EventGame {
  board: number; white: PlayerRef; black: PlayerRef; game_id: string | null; result: string | null;
  white_name?: string; black_name?: string | null;
}
/** `kind`: "half" (requested, C.04.1), "pairing" (pairing-allocated, `U`), "zero" (absent). */
export interface EventBye { player: PlayerRef; kind: string; name?: string }
export interface EventRound { round: number; games: EventGame[]; byes: EventBye[] }
export interface Standing { rank: number; no: number; name: string; points: number; tiebreaks: { name: string; value: number | string }[] }
/** At the end: each player's Glicko-2 rating before and after, and the FIDE (B.02) change. */
export interface RatingChange {
  no: number; name: string;
  rating_before: number | null; rating_after: number | null;
  glicko_change: number | null; fide_change: number | null;
}

/** `GET /api/events/{id}`. */
export interface EventView {
  id: string;
  name: string;
  system: EventSystem;
  status: EventStatus;
  organiser: string;
  settings: Partial<CreateEvent> & { tiebreaks?: string[] };
  players: EventPlayer[];
  rounds: EventRound[];
  current_round: number;
  /** The next round could not be paired by the rules: the arbiter pairs it by hand. */
  pairing_problem?: { round: number; message: string } | null;
  standings: Standing[];
  rating_changes?: RatingChange[] | null;
  you: { registered: boolean; no?: number | null; your_game: string | null; byes?: number[]; organiser: boolean } | null;
}

/** Every action answers with the rule it applied ("C.04.3", "6.7", …) and perhaps a message. */
export interface ActionAnswer { rule?: string; message?: string; [k: string]: unknown }

const base = (id: string) => `/api/events/${encodeURIComponent(id)}`;

export const createEvent = (req: CreateEvent) => call<{ id: string }>('POST', '/api/events', req);
export const listEvents = () => call<{ events: EventSummary[] } | EventSummary[]>('GET', '/api/events')
  .then((r) => (Array.isArray(r) ? r : r.events));
export const getEvent = (id: string) => call<EventView>('GET', base(id));
export const trfUrl = (id: string) => `${base(id)}/trf`;
export const eventPgnUrl = (id: string) => `${base(id)}/pgn`;

/** The actions of players and of the organiser, by their path under `/api/events/{id}/`. */
export type Action = 'register' | 'withdraw' | 'bye' | 'start' | 'pair' | 'result' | 'forfeit' | 'late_entry' | 'end';
export const act = (id: string, action: Action, body: Record<string, unknown> = {}) =>
  call<ActionAnswer>('POST', `${base(id)}/${action}`, body);
