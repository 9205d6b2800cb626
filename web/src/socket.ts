// SPDX-License-Identifier: AGPL-3.0-or-later
// The game WebSocket (docs/protocol.md §4): hello with the last seq, catch-up, pings for lag,
// reconnection with backoff and jitter.

import type { ClientAction, ServerMessage } from './protocol';

export interface SocketHandlers {
  message(msg: ServerMessage): void;
  /** Connection state changed: true once `ready` arrived, false when the socket closed. */
  status(online: boolean): void;
  lastSeq(): number;
}

const BACKOFF = [500, 1000, 2000, 4000, 8000];

export class GameSocket {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private pingTimer = 0;
  private reconnectTimer = 0;
  private nextId = 1;
  private pings = new Map<number, number>();
  private rtts: number[] = [];
  private closed = false;
  private ready = false;

  constructor(private gameId: string, private h: SocketHandlers) {
    this.open();
  }

  /** Estimated one-way lag in ms (half the median of recent round trips). */
  lag(): number {
    if (!this.rtts.length) return 0;
    const sorted = [...this.rtts].sort((a, b) => a - b);
    return Math.round(sorted[Math.floor(sorted.length / 2)] / 2);
  }

  isReady(): boolean { return this.ready; }

  send(action: ClientAction): number | null {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ ...action, id }));
    return id;
  }

  /** Ask for a catch-up (after a gap in seq). */
  resync(): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: 'hello', last_seq: this.h.lastSeq() }));
  }

  close(): void {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.reconnectTimer);
    this.ws?.close();
  }

  private open(): void {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(this.gameId)}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: 'hello', last_seq: this.h.lastSeq() }));
      this.ping();
      clearInterval(this.pingTimer);
      this.pingTimer = window.setInterval(() => this.ping(), 3000);
    };
    ws.onmessage = (e) => {
      let msg: ServerMessage;
      try { msg = JSON.parse(String(e.data)); } catch { return; }
      if (msg.type === 'pong') {
        const sent = this.pings.get(msg.id);
        if (sent !== undefined) {
          this.pings.delete(msg.id);
          this.rtts.push(performance.now() - sent);
          if (this.rtts.length > 9) this.rtts.shift();
        }
      }
      if (msg.type === 'ready') {
        this.attempt = 0;
        this.ready = true;
        this.h.status(true);
      }
      this.h.message(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      this.ready = false;
      if (this.closed) return;
      this.h.status(false);
      const base = BACKOFF[Math.min(this.attempt, BACKOFF.length - 1)];
      this.attempt++;
      this.reconnectTimer = window.setTimeout(() => this.open(), base * (0.75 + Math.random() * 0.5));
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  private ping(): void {
    if (this.ws?.readyState !== WebSocket.OPEN) return;
    const id = this.nextId++;
    this.pings.set(id, performance.now());
    if (this.pings.size > 20) this.pings.delete(this.pings.keys().next().value as number);
    this.ws.send(JSON.stringify({ type: 'ping', id, lag_ms: this.lag() }));
  }
}
