// SPDX-License-Identifier: AGPL-3.0-or-later
// The events page, "/events": the list of events and, for a logged-in organiser, the form that
// creates a Swiss (Dutch system, FIDE Handbook C.04.3) or a round-robin (C.05) with its time
// control, edition of the Laws, default time (Art. 6.7.1), touch-move (Art. 4) and start time.

import { h } from './dom';
import { t, type Key } from './i18n';
import type { Page } from './main';
import { currentUser } from './account';
import { ApiError } from './api';
import { eventErrorText } from './errors';
import { createEvent, listEvents, type CreateEvent, type EventSummary, type EventSystem } from './eventapi';
import type { Edition } from './protocol';

const fmtTime = (ms: number) => new Date(ms).toLocaleString();
const codeOf = (e: unknown) => (e instanceof ApiError ? e.code : 'network');

/**
 * A wide table in a box that scrolls sideways on a narrow screen, so that the page itself
 * reflows (WCAG 1.4.10): focusable, and named, to be scrolled by keyboard.
 */
export function scroller(table: HTMLElement, name: string): HTMLElement {
  return h('div', { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': t('table.scroll', { name }) }, table);
}

/** The table of events: every column has its header, each name links to the event's page. */
export function eventsTable(events: EventSummary[]): HTMLElement {
  if (!events.length) return h('p', { id: 'events-none', text: t('events.none') });
  const col = (k: Key) => h('th', { scope: 'col', text: t(k) });
  return scroller(h('table', { class: 'events-table', id: 'events-table' },
    h('caption', { text: t('events.list') }),
    h('thead', {}, h('tr', {}, col('events.name'), col('events.system'), col('events.status'), col('events.players'), col('events.round'), col('events.start'))),
    h('tbody', {}, ...events.map((e) => h('tr', { 'data-id': e.id },
      h('th', { scope: 'row' }, h('a', { href: `/event/${encodeURIComponent(e.id)}`, text: e.name })),
      h('td', { text: t(`system.${e.system}` as Key) }),
      h('td', { text: t(`status.${e.status}` as Key) }),
      h('td', { text: String(e.players) }),
      h('td', { text: String(e.round) }),
      h('td', {}, h('time', { datetime: new Date(e.start_at).toISOString(), text: fmtTime(e.start_at) })))))), t('events.list'));
}

/** `datetime-local`'s value for a moment (local time, minutes). */
function localInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60000);
  return d.toISOString().slice(0, 16);
}

/** A labelled field: the label names the input for screen readers. */
function field(id: string, label: string, input: HTMLInputElement | HTMLSelectElement): HTMLElement {
  input.id = id;
  return h('div', { class: 'field' }, h('label', { for: id, text: label }), input);
}

function check(id: string, label: string, checked: boolean): [HTMLElement, HTMLInputElement] {
  const input = h('input', { type: 'checkbox', id });
  input.checked = checked;
  return [h('div', { class: 'field check' }, input, h('label', { for: id, text: label })), input];
}

/** The edition of the Laws an event is played under when none is sent (protocol §9.1). */
export const EVENT_EDITION: Edition = '2023';

/** The create-event form; on success the browser goes to the new event's page. */
export function createForm(): HTMLFormElement {
  const name = h('input', { required: true, maxlength: 80, autocomplete: 'off' });
  const system = h('select', {}, h('option', { value: 'swiss', text: t('system.swiss') }), h('option', { value: 'round_robin', text: t('system.round_robin') }));
  const rounds = h('input', { type: 'number', min: 1, max: 30, value: 5, required: true });
  const [doubleBox, double] = check('ev-double', t('events.double'), false);
  // At least a minute: a game needs time on the clock (the server refuses 0).
  const minutes = h('input', { type: 'number', min: 1, max: 600, step: 'any', value: 3, required: true });
  const increment = h('input', { type: 'number', min: 0, max: 180, value: 2, required: true });
  // The API's default edition for events is 2023 (protocol §9.1), not the games' 2014.
  const edition = h('select', {}, ...(['2014', '2018', '2023'] as Edition[]).map((e) => {
    const o = h('option', { value: e, text: e === EVENT_EDITION ? t('edition.default', { edition: e }) : e });
    o.selected = e === EVENT_EDITION;
    return o;
  }));
  const defaultTime = h('input', { type: 'number', min: 10, max: 3600, value: 60, required: true });
  const startAt = h('input', { type: 'datetime-local', value: localInput(Date.now() + 3600_000), required: true });
  const [touchBox, touch] = check('ev-touch', t('home.touchMove'), false);
  const [autoBox, auto] = check('ev-auto', t('events.autoPair'), true);
  const [ratedBox, rated] = check('ev-rated', t('events.rated'), false);
  const msg = h('p', { class: 'form-message', role: 'alert', id: 'ev-message' });
  const roundsField = field('ev-rounds', t('events.rounds'), rounds);
  const shown = () => {
    const swiss = system.value === 'swiss';
    roundsField.hidden = !swiss;
    rounds.required = swiss;
    doubleBox.hidden = swiss;
  };
  system.addEventListener('change', shown);
  const form = h('form', { class: 'event-form', id: 'event-form', 'aria-labelledby': 'event-form-title' },
    h('h2', { id: 'event-form-title', text: t('events.create') }),
    field('ev-name', t('events.name'), name),
    field('ev-system', t('events.system'), system),
    roundsField, doubleBox,
    field('ev-minutes', t('events.minutes'), minutes),
    field('ev-increment', t('events.increment'), increment),
    field('ev-edition', t('home.edition'), edition),
    field('ev-default-time', t('events.defaultTime'), defaultTime),
    field('ev-start', t('events.startAt'), startAt),
    touchBox, autoBox, ratedBox,
    h('button', { type: 'submit', id: 'ev-create', text: t('events.submit') }), msg);
  shown();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    msg.textContent = '';
    if (!(Number(minutes.value) >= 1)) { msg.textContent = t('events.minutesMin'); minutes.focus(); return; }
    const sys = system.value as EventSystem;
    const start = new Date(startAt.value).getTime();
    const req: CreateEvent = {
      name: name.value.trim(), system: sys,
      initial_s: Math.round(Number(minutes.value) * 60), increment_s: Number(increment.value),
      edition: edition.value as Edition, default_time_s: Number(defaultTime.value),
      touch_move: touch.checked, start_at: Number.isFinite(start) ? start : Date.now(),
      auto_pair: auto.checked, rated: rated.checked,
      ...(sys === 'swiss' ? { rounds: Number(rounds.value) } : { double: double.checked }),
    };
    try {
      const { id } = await createEvent(req);
      msg.textContent = t('events.created');
      location.assign(`/event/${encodeURIComponent(id)}`);
    } catch (err) {
      msg.textContent = eventErrorText(codeOf(err), err instanceof Error ? err.message : String(err));
    }
  });
  return form;
}

export class EventsPage implements Page {
  render(main: HTMLElement): void {
    document.title = `${t('events.title')} · ${t('app.name')}`;
    const list = h('div', { class: 'events-list', 'aria-live': 'polite' });
    const side = h('div', { class: 'events-create' });
    main.append(h('section', { class: 'events', 'aria-labelledby': 'events-title' },
      h('h1', { id: 'events-title', text: t('events.title') }), list, side));
    void listEvents().then((events) => list.append(eventsTable(events)))
      .catch((e) => list.append(h('p', { role: 'alert', text: eventErrorText(codeOf(e), String(e)) })));
    void currentUser().then((user) => side.append(user ? createForm() : h('p', { id: 'events-login', text: t('events.loginToCreate') })));
  }
}
