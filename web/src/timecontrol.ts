// SPDX-License-Identifier: AGPL-3.0-or-later
// PGN TimeControl strings (docs/protocol.md §3.1): presets, the custom builder, short labels.

import type { Delay } from './protocol';

export interface Period { moves: number | null; seconds: number; increment: number }

export type Category = 'bullet' | 'blitz' | 'rapid' | 'classical';

export const PRESETS: { tc: string; category: Category }[] = [
  { tc: '60+0', category: 'bullet' }, { tc: '120+1', category: 'bullet' },
  { tc: '180+0', category: 'blitz' }, { tc: '180+2', category: 'blitz' },
  { tc: '300+0', category: 'blitz' }, { tc: '300+3', category: 'blitz' },
  { tc: '600+0', category: 'rapid' }, { tc: '600+5', category: 'rapid' }, { tc: '900+10', category: 'rapid' },
  { tc: '1800+0', category: 'classical' }, { tc: '1800+20', category: 'classical' },
  { tc: '5400+30', category: 'classical' }, { tc: '40/5400+30:1800+30', category: 'classical' },
];

export function parseTimeControl(tc: string): Period[] | null {
  if (tc === '-' || tc === '') return null;
  const periods: Period[] = [];
  for (const part of tc.split(':')) {
    const m = /^(?:(\d+)\/)?(\d+)(?:\+(\d+))?$/.exec(part);
    if (!m) return null;
    periods.push({ moves: m[1] ? Number(m[1]) : null, seconds: Number(m[2]), increment: m[3] ? Number(m[3]) : 0 });
  }
  return periods;
}

export function formatTimeControl(periods: Period[]): string {
  return periods.map((p) => `${p.moves ? `${p.moves}/` : ''}${p.seconds}${p.increment ? `+${p.increment}` : p.moves ? '' : '+0'}`).join(':');
}

function minutes(seconds: number): string {
  if (seconds % 60 === 0) return String(seconds / 60);
  if (seconds < 60) return ['¼', '½', '¾'][[15, 30, 45].indexOf(seconds)] ?? `${(seconds / 60).toFixed(1)}`;
  return (seconds / 60).toFixed(1).replace(/\.0$/, '');
}

/** Short human label in minutes: "5+3", "40/90+30, 30+30"; null for untimed. */
export function tcLabel(tc: string, delay?: Delay | null): string | null {
  const periods = parseTimeControl(tc);
  if (!periods) return null;
  const label = periods.map((p) => `${p.moves ? `${p.moves}/` : ''}${minutes(p.seconds)}+${p.increment}`).join(', ');
  return delay ? `${label} d${Math.round(delay.ms / 100) / 10}` : label;
}

/** FIDE-like category by estimated game time (Appendix A/B: time + 60 × increment). */
export function category(tc: string): Category | null {
  const p = parseTimeControl(tc);
  if (!p) return null;
  const est = p[0].seconds + 60 * p[0].increment;
  if (est < 180) return 'bullet';
  if (est <= 600) return 'blitz';
  if (est < 3600) return 'rapid';
  return 'classical';
}
