// SPDX-License-Identifier: AGPL-3.0-or-later
// The analysis panel of a finished game (§3.9): the evaluation graph (White's side, capped at
// ±10 pawns), the moves judged (inaccuracy, mistake, blunder), and the best line of the position
// chosen in the graph or the list, with a deeper look at it on request. Polls while the server works.

import { ApiError, analyse, analyseDeeper, getAnalysis } from './api';
import { clear, h } from './dom';
import { errorText } from './errors';
import { num, t, tn, type Key } from './i18n';
import { formatSan } from './notation';
import { prefs } from './prefs';
import { colorName, sayMove } from './speech';

/** An evaluation from White's side: centipawns, or mate in n (negative: Black mates; 0: mate on the board). */
export interface Eval { cp: number | null; mate: number | null }

export interface PositionEval { ply: number; eval: Eval; best: string | null; line: string[]; nodes: number }

export interface MoveJudgement { ply: number; san: string; lost_cp: number; judgement: 'inaccuracy' | 'mistake' | 'blunder' | null }

/** A game's analysis (§3.9). */
export interface Analysis {
  status: 'running' | 'done';
  done: number;
  total: number;
  nodes_per_position: number;
  positions: PositionEval[];
  moves: MoveJudgement[];
  deep: Record<string, PositionEval>;
  deep_pending: number[];
  thresholds: number[];
}

const CAP = 1000;
const SVG = 'http://www.w3.org/2000/svg';

/** An evaluation in words and figures: "+0.35", "#-2", "#" (mate on the board). */
export function evalText(e: Eval): string {
  if (e.mate !== null) return e.mate === 0 ? '#' : `#${e.mate}`;
  const cp = e.cp ?? 0;
  return (cp >= 0 ? '+' : '−') + num(Math.abs(cp) / 100, 2);
}

/**
 * An evaluation in words for the accessible mode: "White is better by 0.35 pawns", "Black mates
 * in 2 moves", "equal"; Russian "перевес белых: 0,35 пешки", "чёрные ставят мат в 2 хода".
 */
export function evalWords(e: Eval): string {
  if (e.mate !== null) {
    if (e.mate === 0) return t('a11y.mate');
    return tn('analysis.mates', Math.abs(e.mate), { color: colorName(e.mate > 0 ? 'white' : 'black') });
  }
  const cp = e.cp ?? 0;
  if (cp === 0) return t('analysis.equal');
  const side = cp > 0 ? 'white' : 'black';
  return t('analysis.better', { color: colorName(side), ofColor: t(`color.${side}.of`), p: num(Math.abs(cp) / 100, 2) });
}

/** A line of SAN moves from position `ply` (White to move at even plies) in the user's notation. */
export function lineText(moves: string[], ply: number): string {
  return moves.map((m, i) => formatSan(m, prefs.notation, (ply + i) % 2 === 0 ? 'white' : 'black')).join(' ');
}

function capped(e: Eval): number {
  if (e.mate !== null && e.mate !== 0) return e.mate > 0 ? CAP : -CAP;
  return Math.max(-CAP, Math.min(CAP, e.cp ?? 0));
}

export class AnalysisPanel {
  readonly el: HTMLElement;
  private body: HTMLElement;
  private report: Analysis | null = null;
  private selected = 0;
  private timer = 0;
  private started = false;

  /** `onPick(ply)`: the user chose position `ply` in the graph or the list (the replay follows). */
  constructor(private id: string, private onPick: (ply: number) => void = () => {}) {
    this.el = h('section', { class: 'card analysis', id: 'analysis', 'aria-labelledby': 'analysis-title' });
    this.body = h('div', { class: 'analysis-body', 'aria-live': 'polite' });
    const start = h('button', { type: 'button', class: 'btn', id: 'analyse', text: t('analysis.start') });
    start.addEventListener('click', () => void this.start(start));
    this.el.append(h('h2', { id: 'analysis-title', text: t('analysis.title') }), start, this.body);
    // Nothing is fetched until asked: the POST returns an analysis made before, if any.
  }

  destroy(): void { clearTimeout(this.timer); }

  private async start(button: HTMLButtonElement): Promise<void> {
    if (this.started) return;
    this.started = true;
    button.hidden = true;
    try {
      this.show(await analyse(this.id));
    } catch (e) {
      this.started = false;
      button.hidden = false;
      this.body.textContent = errorText(e instanceof ApiError ? e.code : 'network', e instanceof Error ? e.message : String(e));
    }
  }

  private poll(): void {
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => {
      void getAnalysis(this.id).then((r) => this.show(r)).catch(() => this.poll());
    }, 1000);
  }

  private show(r: Analysis): void {
    this.report = r;
    if (r.status === 'running' || r.deep_pending.length > 0) this.poll();
    clear(this.body);
    if (r.status === 'running') {
      this.body.append(h('p', { id: 'analysis-progress', text: t('analysis.progress', { done: r.done, total: r.total }) }));
    }
    this.body.append(this.graph(r), this.judged(r), this.line(r));
  }

  /** Selects position `ply` (from the replay or the graph). */
  select(ply: number): void {
    if (ply === this.selected) return;
    this.selected = ply;
    if (this.report) this.show(this.report);
  }

  /** The user picked position `ply` here: select it and move the replay there. */
  private pick(ply: number): void {
    this.select(ply);
    this.onPick(ply);
  }

  /**
   * Position `ply`'s evaluation in words for the accessible mode, with the judgement of the move
   * that led to it: "evaluation +0.30, mistake". Null while it is not analysed.
   */
  spoken(ply: number): string | null {
    const r = this.report;
    const p = r ? r.deep[String(ply)] ?? r.positions[ply] : undefined;
    if (!r || !p) return null;
    const j = r.moves.find((m) => m.ply === ply)?.judgement;
    return t('analysis.evalSpoken', { e: evalWords(p.eval) }) + (j ? `, ${t(`analysis.${j}` as Key)}` : '')
      + (p.best ? `, ${t('analysis.bestSpoken', { move: sayMove(p.best) })}` : '');
  }

  private graph(r: Analysis): Element {
    const w = 600, hgt = 120;
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 ${w} ${hgt}`);
    svg.setAttribute('class', 'eval-graph');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', t('analysis.graph'));
    const n = Math.max(1, r.total - 1);
    const x = (ply: number) => (ply / n) * w;
    const y = (e: Eval) => hgt / 2 - (capped(e) / CAP) * (hgt / 2);
    const mid = document.createElementNS(SVG, 'line');
    for (const [k, v] of Object.entries({ x1: 0, y1: hgt / 2, x2: w, y2: hgt / 2, class: 'eval-axis' })) mid.setAttribute(k, String(v));
    svg.append(mid);
    if (r.positions.length > 0) {
      const pts = r.positions.map((p) => `${x(p.ply).toFixed(1)},${y(p.eval).toFixed(1)}`);
      const area = document.createElementNS(SVG, 'polygon');
      area.setAttribute('points', `0,${hgt} ${pts.join(' ')} ${x(r.positions[r.positions.length - 1].ply).toFixed(1)},${hgt}`);
      area.setAttribute('class', 'eval-area');
      svg.append(area);
      const line = document.createElementNS(SVG, 'polyline');
      line.setAttribute('points', pts.join(' '));
      line.setAttribute('class', 'eval-line');
      svg.append(line);
    }
    for (const m of r.moves) {
      if (!m.judgement) continue;
      const p = r.positions[m.ply];
      if (!p) continue;
      const dot = document.createElementNS(SVG, 'circle');
      for (const [k, v] of Object.entries({ cx: x(p.ply), cy: y(p.eval), r: 4, class: `eval-mark ${m.judgement}` })) dot.setAttribute(k, String(v));
      svg.append(dot);
    }
    const sel = document.createElementNS(SVG, 'line');
    for (const [k, v] of Object.entries({ x1: x(this.selected), y1: 0, x2: x(this.selected), y2: hgt, class: 'eval-cursor' })) sel.setAttribute(k, String(v));
    svg.append(sel);
    svg.addEventListener('click', (e) => {
      const box = svg.getBoundingClientRect();
      const ply = Math.round(((e.clientX - box.left) / Math.max(1, box.width)) * n);
      this.pick(Math.max(0, Math.min(r.total - 1, ply)));
    });
    return svg;
  }

  private judged(r: Analysis): HTMLElement {
    const list = h('ol', { class: 'judged', id: 'judged', 'aria-label': t('analysis.mistakes') });
    for (const m of r.moves) {
      if (!m.judgement) continue;
      const moveNo = `${Math.ceil(m.ply / 2)}${m.ply % 2 === 1 ? '.' : '…'}`;
      const b = h('button', { type: 'button', class: `judged-move ${m.judgement}`, 'data-ply': m.ply,
        text: `${moveNo} ${lineText([m.san], m.ply - 1)} — ${t(`analysis.${m.judgement}` as Key)} (−${num(m.lost_cp / 100, 2)})` });
      b.addEventListener('click', () => this.pick(m.ply - 1));
      list.append(h('li', {}, b));
    }
    if (!list.firstChild && r.status === 'done') return h('p', { id: 'judged', text: t('analysis.clean') });
    return list;
  }

  private line(r: Analysis): HTMLElement {
    const box = h('div', { class: 'best-line', id: 'best-line' });
    const p: PositionEval | undefined = r.deep[String(this.selected)] ?? r.positions[this.selected];
    if (!p) return box;
    const moveNo = this.selected === 0 ? t('analysis.start.position') : t('analysis.after', { ply: this.selected });
    box.append(h('p', { text: `${moveNo}: ${evalText(p.eval)}` + (p.best ? ` · ${t('analysis.best')} ${lineText([p.best], this.selected)}` : '') }));
    if (p.line.length > 0) box.append(h('p', { class: 'line', text: lineText(p.line, this.selected) }));
    box.append(h('p', { class: 'hint', text: t('analysis.nodes', { n: p.nodes }) }));
    if (!r.deep[String(this.selected)]) {
      const pending = r.deep_pending.includes(this.selected);
      const deeper = h('button', { type: 'button', class: 'btn', id: 'deeper', text: pending ? t('analysis.deepening') : t('analysis.deeper'), disabled: pending });
      deeper.addEventListener('click', () => {
        void analyseDeeper(this.id, this.selected).then((x) => this.show(x)).catch((e) => {
          box.append(h('p', { class: 'form-error', text: errorText(e instanceof ApiError ? e.code : 'network', String(e)) }));
        });
      });
      box.append(deeper);
    }
    return box;
  }
}
