// SPDX-License-Identifier: AGPL-3.0-or-later
// Accounts (docs/protocol.md §8): who is logged in, the header's log-in / sign-up form and
// log-out button. The session cookie is HttpOnly: JS only asks /api/account who it is.

import { h, clear } from './dom';
import { t } from './i18n';
import { ApiError } from './api';
import { errorText } from './errors';

export interface User { name: string; url: string }

async function call(method: string, path: string, body?: unknown): Promise<{ user: User | null }> {
  const res = await fetch(path, {
    method, credentials: 'same-origin',
    headers: body === undefined ? { Accept: 'application/json' } : { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(data?.error?.code ?? 'internal', data?.error?.message ?? res.statusText, res.status, data?.error?.field ?? null);
  return data;
}

let me: Promise<User | null> | null = null;
/** The logged-in user (asked once per page load). */
export function currentUser(): Promise<User | null> {
  me ??= call('GET', '/api/account').then((r) => r.user).catch(() => null);
  return me;
}

export const changePassword = (current: string, next: string) => call('POST', '/api/account/password', { current, new: next });

/** The header's account area: a log-in / sign-up form, or the user's name and a log-out button. */
export function accountWidget(): HTMLElement {
  const box = h('div', { class: 'account', id: 'account' });
  void currentUser().then((user) => render(box, user));
  return box;
}

function render(box: HTMLElement, user: User | null): void {
  clear(box);
  if (user) {
    const out = h('button', { type: 'button', id: 'logout', text: t('account.logout') });
    out.addEventListener('click', async () => { await call('POST', '/api/account/logout', {}); location.reload(); });
    box.append(h('a', { href: user.url, id: 'account-name', text: user.name }), out);
    return;
  }
  const open = h('button', { type: 'button', id: 'login-open', 'aria-expanded': 'false', text: t('account.login') });
  const form = h('form', { class: 'account-form', id: 'login-form', hidden: true });
  const name = h('input', { id: 'login-name', autocomplete: 'username', required: true, minlength: 3, maxlength: 20 });
  const pass = h('input', { id: 'login-password', type: 'password', autocomplete: 'current-password', required: true, minlength: 8, maxlength: 128 });
  const msg = h('p', { class: 'form-message', role: 'alert', id: 'login-message' });
  const login = h('button', { type: 'submit', id: 'login-submit', text: t('account.login') });
  const signup = h('button', { type: 'button', id: 'signup-submit', text: t('account.signup') });
  const send = async (path: string) => {
    msg.textContent = '';
    try {
      await call('POST', path, { name: name.value.trim(), password: pass.value });
      location.reload();
    } catch (e) {
      const code = e instanceof ApiError ? e.code : 'network';
      msg.textContent = errorText(code, e instanceof Error ? e.message : String(e), e instanceof ApiError ? e.field : null, 'account');
    }
  };
  form.addEventListener('submit', (e) => { e.preventDefault(); void send('/api/account/login'); });
  signup.addEventListener('click', () => { if (form.reportValidity()) void send('/api/account/signup'); });
  open.addEventListener('click', () => {
    form.hidden = !form.hidden;
    open.setAttribute('aria-expanded', String(!form.hidden));
    if (!form.hidden) name.focus();
  });
  form.append(
    h('label', { for: 'login-name', text: t('account.name') }), name,
    h('label', { for: 'login-password', text: t('account.password') }), pass,
    h('p', { class: 'hint', text: t('account.rules') }),
    login, signup, msg);
  box.append(open, form);
}
