// SPDX-License-Identifier: AGPL-3.0-or-later
// Types of docs/protocol.md (version 1). Keep in step with that document: the server's test
// crates/server/tests/protocol_ts.rs type-checks every message a game sends against these.

export type Color = 'white' | 'black';
export type Seat = Color | 'both' | null;
export type Mode = 'engine' | 'invite' | 'local';
export type Edition = '2014' | '2018' | '2023';
export type Variant = 'standard' | 'chess960';
export type PromotionRole = 'q' | 'r' | 'b' | 'n';
export type Status = 'waiting' | 'active' | 'finished';

export type TerminationKind =
  | 'checkmate' | 'stalemate' | 'dead_position' | 'resignation' | 'agreement'
  | 'threefold_repetition' | 'fifty_moves' | 'fivefold_repetition' | 'seventyfive_moves'
  | 'timeout' | 'timeout_draw' | 'both_flags' | 'illegal_move'
  | 'arbiter_decision' | 'forfeit' | 'adjudication';

export interface Delay { kind: 'bronstein' | 'simple'; ms: number }

/** A period of the time control as the server read it (whole seconds); null moves: the last. */
export interface Period { moves: number | null; seconds: number; increment: number }

export interface Player {
  kind: 'human' | 'engine';
  name: string | null;
  engine_level: number | null;
  engine_elo: number | null;
  joined: boolean;
  online: boolean;
}

export interface LegalMove {
  uci: string;
  san: string;
  from: string;
  to: string;
  promotion?: PromotionRole;
  castle?: 'short' | 'long';
  rook?: string;
}

export interface MoveRecord {
  ply: number;
  color: Color;
  uci: string;
  san: string;
  from: string;
  to: string;
  promotion?: PromotionRole;
  clock_ms: number | null;
  spent_ms: number | null;
}

export interface Clocks {
  white_ms: number;
  black_ms: number;
  running: Color | null;
  server_time: number;
  delay_left_ms: number;
  moves_to_control: { white: number | null; black: number | null };
}

export interface Termination {
  kind: TerminationKind;
  article: string;
  winner: Color | null;
  by: Color | null;
}

export interface Live {
  seq: number;
  status: Status;
  fen: string;
  turn: Color;
  ply: number;
  check: boolean;
  last_move: { from: string; to: string } | null;
  legal_moves: LegalMove[];
  touched: string | null;
  draw_offer: Color | null;
  clocks: Clocks | null;
  result: string;
  termination: Termination | null;
}

export interface State extends Live {
  id: string;
  mode: Mode;
  variant: Variant;
  chess960_position: number | null;
  initial_fen: string;
  edition: Edition;
  time_control: string;
  time_control_periods: Period[];
  delay: Delay | null;
  touch_move: boolean;
  players: { white: Player; black: Player };
  moves: MoveRecord[];
  seat: Seat;
  invite_url: string | null;
  created_at: number;
  rematch_offer?: Color;
  rematch?: string;
}

export interface GameSummary {
  id: string;
  mode: Mode;
  status: Status;
  variant: Variant;
  chess960_position: number | null;
  edition: Edition;
  time_control: string;
  time_control_periods: Period[];
  delay: Delay | null;
  players: { white: Player; black: Player };
  result: string;
  termination: Termination | null;
  ply: number;
  created_at: number;
  updated_at: number;
}

export interface CreateRequest {
  mode: Mode;
  engine?: { level: number };
  color: Color | 'random';
  time_control: string;
  delay: Delay | null;
  variant: Variant;
  chess960_position: number | null;
  edition: Edition;
  touch_move: boolean;
  name?: string;
  /** Rated (invitations with a clock, from accounts; §8). */
  rated?: boolean;
  /** Listed in the lobby of open seeks (invitations only, §3.8). */
  lobby?: boolean;
}

export interface SeatResponse {
  id: string;
  seat: Seat;
  url: string;
  invite_url?: string | null;
  state: State;
}

export type GameEvent =
  | { kind: 'join'; color: Color; players: { white: Player; black: Player } }
  | { kind: 'move'; move: MoveRecord }
  | { kind: 'touch'; color: Color; square: string }
  | { kind: 'draw_offer'; by: Color }
  | { kind: 'draw_declined'; by: Color }
  | { kind: 'claim_rejected'; by: Color; claim: 'threefold' | 'fifty'; move: string | null; penalty_ms: number; article: string }
  | { kind: 'penalty'; to: Color; ms: number; reason: string; article: string }
  | { kind: 'end'; result: string; termination: Termination; intended_move: string | null }
  | { kind: 'aborted'; by?: Color }
  | { kind: 'rematch_offer'; by: Color }
  | { kind: 'rematch'; game: string };

export type ServerMessage =
  | { type: 'state'; state: State }
  | { type: 'event'; seq: number; event: GameEvent; live?: Live }
  | { type: 'ready'; seq: number; clocks: Clocks | null }
  | { type: 'thinking'; ply: number; clocks: Clocks | null }
  | { type: 'recording'; seq: number; clocks: Clocks }
  | { type: 'pong'; id: number; server_time: number }
  | { type: 'presence'; white: boolean; black: boolean }
  | { type: 'error'; code: string; message: string; reply_to?: number };

export type ClientAction =
  | { type: 'move'; uci: string }
  | { type: 'move'; text: string }
  | { type: 'offer_draw'; color?: Color }
  | { type: 'accept_draw'; color?: Color }
  | { type: 'decline_draw'; color?: Color }
  | { type: 'claim'; claim: 'threefold' | 'fifty'; move?: string; color?: Color }
  | { type: 'resign'; color?: Color }
  | { type: 'touch'; square: string; color?: Color }
  | { type: 'abort'; color?: Color };

/** Engine strength levels: the table of docs/protocol.md §3.1. */
export const ENGINE_LEVELS: { level: number; elo: number | null }[] = [
  { level: 1, elo: 1350 }, { level: 2, elo: 1650 }, { level: 3, elo: 1950 },
  { level: 4, elo: 2250 }, { level: 5, elo: 2450 }, { level: 6, elo: 2600 },
  { level: 7, elo: null },
];

export const opposite = (c: Color): Color => (c === 'white' ? 'black' : 'white');
