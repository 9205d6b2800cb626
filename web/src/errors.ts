// SPDX-License-Identifier: AGPL-3.0-or-later
// Error codes of docs/protocol.md turned into user text.

import { hasKey, t } from './i18n';

/**
 * An error in the user's words. The server's `message` is English for developers (protocol §3): it
 * is shown only through keys that take it. An `invalid_request` naming its `field` has the field's
 * own text, looked up under `err.{context}.{field}` (context `account`: the sign-up and log-in
 * form), then `err.invalid.{field}`.
 *
 * ```ts
 * errorText('invalid_request', 'name: 3 to 20 letters…', 'name', 'account'); // "User name: 3 to 20 letters, …"
 * ```
 */
export function errorText(code: string, message: string, field?: string | null, context?: 'account'): string {
  if (code === 'invalid_request' && field) {
    for (const key of [context ? `err.${context}.${field}` : '', `err.invalid.${field}`]) {
      if (key && hasKey(key)) return t(key, { message });
    }
  }
  const key = `err.${code}`;
  if (hasKey(key)) return t(key, { message });
  return t('err.generic', { message: message || code });
}

/**
 * An error of the events API (docs/protocol.md §9) in words: its own text where the code means
 * something else for events (not_found, login_required) or names the field it refused
 * (invalid_request: "user: no account …"), else as any other error.
 */
export function eventErrorText(code: string, message: string): string {
  if (code === 'invalid_request') {
    const field = /^(\w+):/.exec(message)?.[1];
    const byField = `err.event.invalid.${field}`;
    if (field && hasKey(byField)) return t(byField, { message: message.slice(field.length + 1).trim() });
  }
  const key = `err.event.${code}`;
  if (hasKey(key)) return t(key, { message });
  return errorText(code, message);
}

/**
 * The candidates an `ambiguous_move` error lists in its message, in SAN ("ambiguous move Rd1: it
 * could be any of Rad1, Rhd1" → Rad1, Rhd1); none when the message lists none.
 *
 * ```ts
 * ambiguousCandidates('ambiguous move Rd1: it could be any of Rad1, Rhd1'); // ['Rad1', 'Rhd1']
 * ```
 */
export function ambiguousCandidates(message: string): string[] {
  const list = /any of (.+?)\.?$/.exec(message)?.[1] ?? '';
  return list.split(/,\s*/).filter((m) => /^[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN])?[+#]?$|^O-O(-O)?[+#]?$/.test(m));
}
