// SPDX-License-Identifier: AGPL-3.0-or-later
// Time controls (docs/protocol.md §3.1). The browser never reads a TimeControl text: it builds the
// tag string from periods (the presets, the custom builder) and the server, which reads it with
// arbiter-pgn's parser, answers errors and echoes the periods it read (`time_control_periods`).

import type { Delay, Period } from './protocol';

export type { Period };

/**
 * The class of a game under the FIDE Laws (Appendices A.1 and B.1; 2023: A.1, A.2): what the
 * server applies (its penalties, the quickplay finish), the same in the 2014, 2018 and 2023
 * editions. Not the rating class of an account (protocol §8: bullet, blitz, rapid, classical by
 * time + 40 × increment, as Lichess), which the profile page names.
 */
export type LawsClass = 'blitz' | 'rapid' | 'standard';

const fischer = (minutes: number, increment: number): Period[] => [{ moves: null, seconds: minutes * 60, increment }];

/** The home page's time-control presets; each is labelled with its class by {@link lawsClass}. */
export const PRESETS: Period[][] = [
  fischer(1, 0), fischer(2, 1), fischer(3, 0), fischer(3, 2), fischer(5, 0), fischer(5, 3),
  fischer(10, 0), fischer(10, 5), fischer(15, 10), fischer(30, 0), fischer(30, 20), fischer(90, 30),
  [{ moves: 40, seconds: 5400, increment: 30 }, { moves: null, seconds: 1800, increment: 30 }],
];

/**
 * The class the Laws give a time control, as the server computes it
 * (`arbiter_laws::TimeClass::of`, crates/laws/src/class.rs): the time allotted plus 60 × the
 * increment (A.1, B.1); over several periods, the time of every period that starts within the
 * first 60 moves plus the increment of each of those moves; a delay counts like an increment.
 * 10 minutes or less is blitz, less than 60 minutes rapid, else (and with no clock) standard.
 *
 * ```ts
 * lawsClass([{ moves: null, seconds: 600, increment: 0 }]); // 'blitz' (10+0: 10 minutes, B.1)
 * lawsClass([{ moves: null, seconds: 1800, increment: 20 }]); // 'rapid' (30+20: 50 minutes, A.1)
 * ```
 */
export function lawsClass(periods: Period[], delayMs = 0): LawsClass {
  if (periods.length === 0) return 'standard';
  let totalMs = 0;
  let moveNo = 0;
  let index = 0;
  for (;;) {
    const p = periods[index];
    totalMs += p.seconds * 1000;
    const inWindow = Math.min(p.moves ?? Infinity, 60 - moveNo);
    totalMs += inWindow * (p.increment * 1000 + delayMs);
    moveNo += inWindow;
    if (moveNo >= 60 || p.moves === null) break;
    if (index + 1 < periods.length) index += 1;
  }
  if (totalMs <= 600_000) return 'blitz';
  if (totalMs < 3_600_000) return 'rapid';
  return 'standard';
}

/** The PGN TimeControl tag of the periods (what the server is sent). */
export function formatTimeControl(periods: Period[]): string {
  return periods.map((p) => `${p.moves ? `${p.moves}/` : ''}${p.seconds}${p.increment ? `+${p.increment}` : p.moves ? '' : '+0'}`).join(':');
}

/** Whole minutes as a number ("5", "90"); any other time exactly, as m:ss ("0:03", "1:40"). */
function minutes(seconds: number): string {
  if (seconds % 60 === 0) return String(seconds / 60);
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * Short human label in minutes: "5+3", "40/90+30, 30+30", "0:30+0" (30 s); null for untimed (no
 * periods). `delayText` spells out the delay, given in seconds.
 *
 * ```ts
 * tcLabel([{ moves: null, seconds: 100, increment: 0 }]); // "1:40+0"
 * ```
 */
export function tcLabel(periods: Period[], delay?: Delay | null, delayText: (s: number) => string = (s) => `delay ${s} s`): string | null {
  if (periods.length === 0) return null;
  const label = periods.map((p) => `${p.moves ? `${p.moves}/` : ''}${minutes(p.seconds)}+${p.increment}`).join(', ');
  // "d3" would read as a square: the delay is spelt out ("delay 3 s").
  return delay ? `${label} ${delayText(Math.round(delay.ms / 100) / 10)}` : label;
}
