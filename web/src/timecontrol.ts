// SPDX-License-Identifier: AGPL-3.0-or-later
// Time controls (docs/protocol.md §3.1). The browser never reads a TimeControl text: it builds the
// tag string from periods (the presets, the custom builder) and the server, which reads it with
// arbiter-pgn's parser, answers errors and echoes the periods it read (`time_control_periods`).

import type { Delay, Period } from './protocol';

export type { Period };

export type Category = 'bullet' | 'blitz' | 'rapid' | 'classical';

const fischer = (minutes: number, increment: number): Period[] => [{ moves: null, seconds: minutes * 60, increment }];

export const PRESETS: { periods: Period[]; category: Category }[] = [
  { periods: fischer(1, 0), category: 'bullet' }, { periods: fischer(2, 1), category: 'bullet' },
  { periods: fischer(3, 0), category: 'blitz' }, { periods: fischer(3, 2), category: 'blitz' },
  { periods: fischer(5, 0), category: 'blitz' }, { periods: fischer(5, 3), category: 'blitz' },
  { periods: fischer(10, 0), category: 'rapid' }, { periods: fischer(10, 5), category: 'rapid' }, { periods: fischer(15, 10), category: 'rapid' },
  { periods: fischer(30, 0), category: 'classical' }, { periods: fischer(30, 20), category: 'classical' },
  { periods: fischer(90, 30), category: 'classical' },
  { periods: [{ moves: 40, seconds: 5400, increment: 30 }, { moves: null, seconds: 1800, increment: 30 }], category: 'classical' },
];

/** The PGN TimeControl tag of the periods (what the server is sent). */
export function formatTimeControl(periods: Period[]): string {
  return periods.map((p) => `${p.moves ? `${p.moves}/` : ''}${p.seconds}${p.increment ? `+${p.increment}` : p.moves ? '' : '+0'}`).join(':');
}

function minutes(seconds: number): string {
  if (seconds % 60 === 0) return String(seconds / 60);
  if (seconds < 60) return ['¼', '½', '¾'][[15, 30, 45].indexOf(seconds)] ?? `${(seconds / 60).toFixed(1)}`;
  return (seconds / 60).toFixed(1).replace(/\.0$/, '');
}

/** Short human label in minutes: "5+3", "40/90+30, 30+30"; null for untimed (no periods). */
export function tcLabel(periods: Period[], delay?: Delay | null, delayText: (s: number) => string = (s) => `delay ${s} s`): string | null {
  if (periods.length === 0) return null;
  const label = periods.map((p) => `${p.moves ? `${p.moves}/` : ''}${minutes(p.seconds)}+${p.increment}`).join(', ');
  // "d3" would read as a square: the delay is spelt out ("delay 3 s").
  return delay ? `${label} ${delayText(Math.round(delay.ms / 100) / 10)}` : label;
}

/** FIDE-like category by estimated game time (Appendix A/B: time + 60 × increment). */
export function category(periods: Period[]): Category | null {
  const p = periods[0];
  if (!p) return null;
  const est = p.seconds + 60 * p.increment;
  if (est < 180) return 'bullet';
  if (est <= 600) return 'blitz';
  if (est < 3600) return 'rapid';
  return 'classical';
}
