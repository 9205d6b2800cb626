// SPDX-License-Identifier: AGPL-3.0-or-later
// Sounds made with WebAudio: no sound files. Move, capture, check, game end, low time.

export type SoundKind = 'move' | 'capture' | 'check' | 'end' | 'lowtime' | 'notify';

let ctx: AudioContext | null = null;
let enabled = true;
try { enabled = localStorage.getItem('arbiter.sound') !== 'off'; } catch { /* ignore */ }

export const soundOn = (): boolean => enabled;
export function setSound(on: boolean): void {
  enabled = on;
  try { localStorage.setItem('arbiter.sound', on ? 'on' : 'off'); } catch { /* ignore */ }
}

/** Browsers start audio only after a user gesture: call this from one. */
export function unlockAudio(): void {
  if (!ctx) {
    const AC = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!AC) return;
    ctx = new AC();
  }
  if (ctx.state === 'suspended') void ctx.resume();
}

function tone(freq: number, start: number, dur: number, type: OscillatorType, gain: number): void {
  if (!ctx) return;
  const osc = ctx.createOscillator();
  const g = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  g.gain.setValueAtTime(0.0001, start);
  g.gain.exponentialRampToValueAtTime(gain, start + 0.008);
  g.gain.exponentialRampToValueAtTime(0.0001, start + dur);
  osc.connect(g).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + dur + 0.02);
}

/** A short knock: filtered noise burst, like a piece set down on wood. */
function knock(start: number, freq: number, gain: number): void {
  if (!ctx) return;
  const len = Math.floor(ctx.sampleRate * 0.06);
  const buf = ctx.createBuffer(1, len, ctx.sampleRate);
  const data = buf.getChannelData(0);
  let seed = 12345;
  for (let i = 0; i < len; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = ((seed / 0x7fffffff) * 2 - 1) * Math.pow(1 - i / len, 3);
  }
  const src = ctx.createBufferSource();
  src.buffer = buf;
  const filter = ctx.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = freq;
  filter.Q.value = 1.2;
  const g = ctx.createGain();
  g.gain.value = gain;
  src.connect(filter).connect(g).connect(ctx.destination);
  src.start(start);
  tone(freq / 2, start, 0.08, 'sine', gain * 0.35);
}

export function play(kind: SoundKind): void {
  if (!enabled || !ctx || ctx.state !== 'running') return;
  const now = ctx.currentTime + 0.01;
  switch (kind) {
    case 'move': knock(now, 900, 0.9); break;
    case 'capture': knock(now, 650, 1.1); knock(now + 0.07, 500, 0.7); break;
    case 'check': knock(now, 900, 0.8); tone(880, now + 0.05, 0.18, 'triangle', 0.12); break;
    case 'end': [523.25, 659.25, 783.99].forEach((f, i) => tone(f, now + i * 0.12, 0.5, 'sine', 0.14)); break;
    case 'lowtime': tone(1046.5, now, 0.12, 'square', 0.05); tone(1046.5, now + 0.2, 0.12, 'square', 0.05); break;
    case 'notify': tone(740, now, 0.15, 'sine', 0.12); tone(988, now + 0.12, 0.2, 'sine', 0.1); break;
  }
}
