// SPDX-License-Identifier: AGPL-3.0-or-later
// Arbiter web app: boot, the page frame (header with language, theme, sound and accessible
// mode), and routing on location.pathname: "/", "/game/{id}", "/join/{id}", "/@/{name}",
// "/events", "/event/{id}".

import { h, clear } from './dom';
import { lang, setLang, t, type Lang } from './i18n';
import { applyTheme, prefs, setA11y, setTheme, type Theme } from './prefs';
import { setSound, soundOn, unlockAudio } from './sound';
import { getSquareStyle, setSquareStyle, type SquareStyle } from './speech';
import { HomePage } from './home';
import { icon } from './icons';
import { GamePage } from './game';
import { JoinPage } from './join';
import { ProfilePage } from './profile';
import { accountWidget } from './account';
import { EventsPage } from './events';
import { EventPage } from './event';

export interface Page {
  /** Build the page into `main`; called again after a language change. */
  render(main: HTMLElement): void;
  destroy?(): void;
}

let page: Page;
const main = h('main', { id: 'main', tabindex: '-1' });
const header = h('header', { class: 'site-header' });
const footer = h('footer', { class: 'site-footer' });

function option(value: string, label: string, selected: boolean): HTMLOptionElement {
  const o = h('option', { value, text: label });
  o.selected = selected;
  return o;
}

function renderHeader(): void {
  clear(header);
  const langSel = h('select', { id: 'set-lang', 'aria-label': t('settings.language') },
    option('en', 'English', lang() === 'en'), option('ru', 'Русский', lang() === 'ru'));
  langSel.addEventListener('change', () => {
    setLang(langSel.value as Lang);
    rerender();
    // The header is rebuilt: the keyboard stays on the language selector (not on <body>).
    document.getElementById('set-lang')?.focus();
  });

  const themeSel = h('select', { id: 'set-theme', 'aria-label': t('settings.theme') },
    ...(['auto', 'light', 'dark'] as Theme[]).map((th) => option(th, t(`theme.${th}`), prefs.theme === th)));
  themeSel.addEventListener('change', () => setTheme(themeSel.value as Theme));

  const sound = h('button', { type: 'button', class: 'toggle', id: 'set-sound', 'aria-pressed': String(soundOn()) },
    icon(soundOn() ? 'soundOn' : 'soundOff'), h('span', { text: t('settings.sound') }));
  sound.addEventListener('click', () => { setSound(!soundOn()); unlockAudio(); renderHeader(); document.getElementById('set-sound')?.focus(); });

  const a11y = h('button', { type: 'button', class: 'toggle', id: 'set-a11y', 'aria-pressed': String(prefs.a11y) },
    icon('a11y'), h('span', { text: t('settings.a11y') }));
  a11y.addEventListener('click', () => {
    setA11y(!prefs.a11y);
    rerender();
    document.getElementById('set-a11y')?.focus();
  });

  const squares = h('select', { id: 'set-squares', 'aria-label': t('settings.squares') },
    option('plain', t('squares.plain'), getSquareStyle() === 'plain'), option('anna', t('squares.anna'), getSquareStyle() === 'anna'));
  squares.addEventListener('change', () => setSquareStyle(squares.value as SquareStyle));

  header.append(
    h('a', { class: 'skip-link', href: '#main', text: t('nav.skip') }),
    h('a', { class: 'brand', href: '/' },
      h('img', { src: '/favicon.svg', alt: '', width: 28, height: 28 }),
      h('span', { class: 'brand-name', text: t('app.name') }),
      h('span', { class: 'brand-tagline', text: t('app.tagline') })),
    h('nav', { class: 'settings', 'aria-label': t('settings.language') + ', ' + t('settings.theme') },
      h('label', { class: 'setting' }, h('span', { class: 'setting-label', text: t('settings.language') }), langSel),
      h('label', { class: 'setting' }, h('span', { class: 'setting-label', text: t('settings.theme') }), themeSel),
      prefs.a11y ? h('label', { class: 'setting' }, h('span', { class: 'setting-label', text: t('settings.squares') }), squares) : null,
      sound, a11y),
    h('a', { class: 'nav-link', id: 'nav-events', href: '/events', text: t('nav.events') }),
    accountWidget(),
  );
}

function renderFooter(): void {
  clear(footer);
  footer.append(h('p', { text: t('footer.licence') }));
}

function rerender(): void {
  renderHeader();
  renderFooter();
  clear(main);
  page.render(main);
}

function route(): Page {
  const path = location.pathname;
  const game = /^\/game\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (game) return new GamePage(game[1]);
  const join = /^\/join\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (join) return new JoinPage(join[1]);
  const player = /^\/@\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (player) return new ProfilePage(player[1]);
  if (/^\/events\/?$/.test(path)) return new EventsPage();
  const event = /^\/event\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (event) return new EventPage(event[1]);
  return new HomePage();
}

function boot(): void {
  setLang(lang());
  applyTheme();
  setA11y(prefs.a11y);
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applyTheme);
  document.addEventListener('pointerdown', unlockAudio, { capture: true });
  document.addEventListener('keydown', unlockAudio, { capture: true });
  const app = document.getElementById('app') ?? document.body;
  clear(app);
  app.append(header, main, footer);
  page = route();
  rerender();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot);
else boot();
