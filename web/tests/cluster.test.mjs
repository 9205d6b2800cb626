// SPDX-License-Identifier: AGPL-3.0-or-later
// A page on a cluster (issue 18): three `arbiter serve` nodes (the real binary, ARBITER_SERVER) on
// one PostgreSQL database (ARBITER_CLUSTER_DATABASE, a scratch database tests/browser.rs makes)
// and one NATS bus (ARBITER_TEST_NATS), behind one address as a reverse proxy would put them: the
// front here sends each connection to the first node that accepts it (n0 while it lives). The
// page plays a game on n0; n0 is killed with SIGKILL mid-game; the page's socket drops and
// reconnects, as the web app does, to the same address, which now reaches another node; that
// node takes the game over once n0's lease lapses; the page catches up and plays on, and the
// stored game is exactly the moves played. Run by tests/browser.rs (browser_cluster_failover…).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeBrowser, withPages, shot, clickMove, waitPlies, startFromHome, waitPiece } from './helpers.mjs';

after(closeBrowser);

const SERVER_BIN = process.env.ARBITER_SERVER;
const DATABASE = process.env.ARBITER_CLUSTER_DATABASE;
const NATS = process.env.ARBITER_TEST_NATS;
const skip = (!SERVER_BIN && 'needs ARBITER_SERVER (the real server binary)')
  || ((!DATABASE || !NATS) && 'needs ARBITER_CLUSTER_DATABASE and ARBITER_TEST_NATS (tests/browser.rs sets them from ARBITER_TEST_POSTGRES and ARBITER_TEST_NATS)');
/** A lease's time to live: n0's games move about this long after it dies. */
const LEASE_MS = 3000;

/** Node `i` of the cluster; resolves once it serves. */
function startNode(i, dir, prefix) {
  return new Promise((resolve, reject) => {
    const child = spawn(SERVER_BIN, ['--listen', '127.0.0.1:0', '--data-dir', dir, '--create-per-minute', '0',
      '--max-connections-per-address', '0', '--max-spectators-per-address', '0', `--node-id=n${i}`,
      `--database=${DATABASE}`, `--bus=${NATS}`, `--bus-prefix=${prefix}`, `--lease-ms=${LEASE_MS}`],
    { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`node n${i} did not start: ${log}`)); }, 30000);
    child.stderr.on('data', (d) => {
      log += d;
      const m = /serving http:\/\/([0-9.]+):([0-9]+)\//.exec(log);
      if (m) { clearTimeout(timer); resolve({ child, host: m[1], port: Number(m[2]), name: `n${i}`, log: () => log }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`node n${i} exited (${code}): ${log}`)); });
  });
}

function kill(node) {
  return new Promise((resolve) => {
    if (node.child.exitCode !== null || node.child.signalCode !== null) { resolve(); return; }
    node.child.removeAllListeners('exit');
    node.child.on('exit', () => resolve());
    node.child.kill('SIGKILL');
  });
}

/**
 * The cluster's one address: each connection goes to the first node, in order, that accepts it
 * (a reverse proxy's failover). `used` counts the connections each node took.
 */
function startFront(nodes) {
  const used = new Map();
  const sockets = new Set();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    client.pause();
    const attempt = (i) => {
      if (i >= nodes.length || client.destroyed) { client.destroy(); return; }
      const up = connect(nodes[i].port, nodes[i].host);
      let open = false;
      up.on('connect', () => {
        open = true;
        used.set(nodes[i].name, (used.get(nodes[i].name) ?? 0) + 1);
        client.pipe(up);
        up.pipe(client);
        client.resume();
      });
      up.on('error', () => { if (!open) attempt(i + 1); else client.destroy(); });
      up.on('close', () => { if (open) client.destroy(); });
      client.on('close', () => up.destroy());
    };
    attempt(0);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({
      url: `http://127.0.0.1:${server.address().port}`,
      used,
      close: () => { for (const s of sockets) s.destroy(); server.close(); },
    }));
  });
}

test('[cluster] the page reconnects to another node when its node is killed, and plays on', { skip }, async () => {
  const prefix = `browser_${process.pid}_${Date.now()}`;
  const dirs = [0, 1, 2].map((i) => mkdtempSync(join(tmpdir(), `arbiter-cluster-n${i}-`)));
  const nodes = [];
  let front = null;
  try {
    for (const [i, dir] of dirs.entries()) nodes.push(await startNode(i, dir, prefix));
    front = await startFront(nodes);
    // The nodes hear each other on the bus (every half second).
    await new Promise((r) => setTimeout(r, 1500));
    await withPages('cluster-failover', async (open) => {
      const page = await open();
      await startFromHome(page, { mode: 'local', tc: '300+0', base: front.url });
      const id = page.url().split('/').pop();
      await clickMove(page, 'e2', 'e4');
      await waitPlies(page, 1);
      await clickMove(page, 'e7', 'e5');
      await waitPlies(page, 2);
      assert.deepEqual([...front.used.keys()], ['n0'], 'every connection so far went to n0');

      // n0 dies: the page's socket drops.
      await kill(nodes[0]);
      const killed = Date.now();
      await page.waitForSelector('.conn-notice:not([hidden])');
      // Back through the same address, on another node, once n0's lease has lapsed there.
      await page.waitForSelector('.conn-notice[hidden]', { state: 'attached', timeout: 30000 });
      const back = Date.now() - killed;
      await page.waitForFunction(() => !/Reconnecting|Not sent/.test(document.querySelector('.notice')?.textContent ?? ''));
      assert.ok((front.used.get('n1') ?? 0) > 0, `the page reached n1 after the kill: ${[...front.used]}`);
      assert.equal(await page.locator('.move-list .mv').count(), 2, 'the moves before the kill are shown');
      assert.match(await page.locator('.status-line').textContent(), /White to move/);

      // Play on.
      await clickMove(page, 'g1', 'f3');
      await waitPlies(page, 3);
      await clickMove(page, 'b8', 'c6');
      await waitPlies(page, 4);
      assert.equal(await waitPiece(page, 'c6', 'black knight'), 'black knight');
      await shot(page, 'cluster-failover');
      // The stored game, read through the front (from a node alive): exactly the moves played.
      let body = '';
      for (let i = 0; i < 20; i++) {
        const res = await page.request.get(`${front.url}/api/games/${id}`);
        body = await res.text();
        if (res.ok() && JSON.parse(body).moves.length === 4) break;
        await page.waitForTimeout(250);
      }
      assert.deepEqual(JSON.parse(body).moves.map((m) => m.san), ['e4', 'e5', 'Nf3', 'Nc6'], body);
      assert.deepEqual((await page.locator('.move-list .mv').allTextContents()).map((x) => x.trim()), ['e4', 'e5', 'Nf3', 'Nc6']);
      const problems = page.problems.filter((p) => !/ERR_CONNECTION|WebSocket connection|503/.test(p));
      assert.deepEqual(problems, [], `console errors: ${page.problems.join(' | ')}`);
      console.log(`cluster: the page played on ${back} ms after n0 was killed (lease ${LEASE_MS} ms); connections per node ${JSON.stringify([...front.used])}`);
    });
  } catch (e) {
    for (const n of nodes) console.error(`--- ${n.name}'s log:\n${n.log().slice(-3000)}`);
    throw e;
  } finally {
    front?.close();
    for (const n of nodes) await kill(n);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});
