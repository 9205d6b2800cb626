// SPDX-License-Identifier: AGPL-3.0-or-later
// `npm test`: builds nothing (web/dist is committed; run `npm run build` after changing src/),
// starts the mock server on a free port unless BASE_URL is set, and runs the browser tests
// with node's test runner.

import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';

const here = dirname(fileURLToPath(import.meta.url));
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`Chromium not found at ${chromium}: apt-get install -y chromium (or set CHROMIUM).`);
  process.exit(1);
}

const env = { ...process.env };
let server = null;
if (!env.BASE_URL) {
  const { startMockServer } = await import('./mock-server.mjs');
  server = await startMockServer(0);
  env.BASE_URL = `http://127.0.0.1:${server.address().port}`;
  env.ARBITER_MOCK = '1';
  console.log(`mock server on ${env.BASE_URL}`);
}

// accounts.test.mjs and events.test.mjs need a real server (and events.test.mjs the CLI,
// $ARBITER_CLI): crates/server/tests/browser.rs runs each of them on its own.
const args = ['--test', '--test-concurrency=1', ...process.argv.slice(2)];
if (process.argv.length <= 2) args.push(join(here, 'unit.test.mjs'), join(here, 'app.test.mjs'), join(here, 'play.test.mjs'), join(here, 'postgame.test.mjs'), join(here, 'events-ui.test.mjs'), join(here, 'access.test.mjs'));
const child = spawn(process.execPath, args, { env, stdio: 'inherit' });
child.on('exit', (code) => {
  server?.close();
  process.exit(code ?? 1);
});
