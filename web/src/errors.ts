// SPDX-License-Identifier: AGPL-3.0-or-later
// Error codes of docs/protocol.md turned into user text.

import { hasKey, t } from './i18n';

export function errorText(code: string, message: string): string {
  const key = `err.${code}`;
  if (hasKey(key)) return t(key, { message });
  return t('err.generic', { message: message || code });
}
