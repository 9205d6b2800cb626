// SPDX-License-Identifier: AGPL-3.0-or-later
// User preferences kept in localStorage: theme, accessible mode, notation, auto-flip.

import type { Notation } from './notation';
import { lang } from './i18n';

export type Theme = 'auto' | 'light' | 'dark';

function read<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  try {
    const v = localStorage.getItem(key);
    if (v && (allowed as readonly string[]).includes(v)) return v as T;
  } catch { /* ignore */ }
  return fallback;
}
function write(key: string, v: string): void {
  try { localStorage.setItem(key, v); } catch { /* ignore */ }
}

let chosenNotation: Notation | null = (() => {
  const n = read<Notation | ''>('arbiter.notation', ['en', 'ru', 'fig'], '');
  return n === '' ? null : n;
})();

export const prefs = {
  theme: read<Theme>('arbiter.theme', ['auto', 'light', 'dark'], 'auto'),
  a11y: read('arbiter.a11y', ['on', 'off'], 'off') === 'on',
  /** The move list's notation: the one chosen, else the language's (Russian letters in the Russian UI). */
  get notation(): Notation { return chosenNotation ?? (lang() === 'ru' ? 'ru' : 'en'); },
  autoFlip: read('arbiter.autoflip', ['on', 'off'], 'off') === 'on',
  name: (() => { try { return localStorage.getItem('arbiter.name') ?? ''; } catch { return ''; } })(),
};

export function setTheme(theme: Theme): void {
  prefs.theme = theme;
  write('arbiter.theme', theme);
  applyTheme();
}

export function applyTheme(): void {
  const dark = prefs.theme === 'dark' || (prefs.theme === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

export function setA11y(on: boolean): void {
  prefs.a11y = on;
  write('arbiter.a11y', on ? 'on' : 'off');
  document.documentElement.classList.toggle('a11y', on);
}

export function setNotation(n: Notation): void {
  chosenNotation = n;
  write('arbiter.notation', n);
}

export function setAutoFlip(on: boolean): void {
  prefs.autoFlip = on;
  write('arbiter.autoflip', on ? 'on' : 'off');
}

export function setName(name: string): void {
  prefs.name = name;
  write('arbiter.name', name);
}
