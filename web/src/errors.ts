// SPDX-License-Identifier: AGPL-3.0-or-later
// Error codes of docs/protocol.md turned into user text.

import { hasKey, t } from './i18n';

export function errorText(code: string, message: string): string {
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
