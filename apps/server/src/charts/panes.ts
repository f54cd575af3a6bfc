import type { ChartLine, SubPane } from './model';
import type { Palette } from './palette';
import { extent, niceTicks, yScale, type YScale } from './scale';
import { line, path, rectsPath, text } from './svg';

/** Where a pane sits and how bars map to x. */
export interface PaneFrame {
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** Centre x of bar i. */
  x(i: number): number;
  barWidth: number;
  from: number;
  to: number;
}

export function formatValue(v: number, digits: number): string {
  return v.toFixed(digits);
}

/** Horizontal grid lines with their labels on the right axis. */
export function grid(frame: PaneFrame, scale: YScale, ticks: number[], digits: number, p: Palette): string[] {
  const out: string[] = [];
  for (const t of ticks) {
    const y = scale.y(t);
    if (y < frame.top - 0.5 || y > frame.bottom + 0.5) continue;
    out.push(line(frame.left, y, frame.right, y, p.grid));
    out.push(text(frame.right + 6, y + 4, formatValue(t, digits), { size: 11, fill: p.mutedText }));
  }
  return out;
}

export function drawLines(frame: PaneFrame, scale: YScale, lines: ChartLine[]): string[] {
  return lines.map((l) => {
    const pts: Array<[number, number] | null> = [];
    for (let i = frame.from; i < frame.to; i++) {
      const v = l.values[i]!;
      if (l.restarts?.[i] === 1) pts.push(null);
      pts.push(Number.isFinite(v) ? [frame.x(i), scale.y(v)] : null);
    }
    return path(pts, l.colour, l.width);
  });
}

/** Decimals that tell apart the ticks of a pane whose values span `span`. */
function decimalsFor(span: number): number {
  if (!(span > 0)) return 2;
  return Math.min(6, Math.max(0, 2 - Math.floor(Math.log10(span))));
}

/** One oscillator pane: frame line, guides, histograms, lines, its title and its value axis. */
export function drawSubPane(frame: PaneFrame, pane: SubPane, p: Palette): string[] {
  const cols = [...pane.lines.map((l) => l.values), ...pane.histograms.map((h) => h.values)];
  let [lo, hi] = pane.range ?? extent(cols, frame.from, frame.to);
  if (pane.histograms.length) {
    lo = Math.min(lo, 0);
    hi = Math.max(hi, 0);
  }
  const pad = pane.range ? 0 : (hi - lo) * 0.08;
  const scale = yScale(lo - pad, hi + pad, frame.top + 4, frame.bottom - 4);
  const ticks = niceTicks(scale.min, scale.max, 3);
  const out: string[] = [line(frame.left, frame.top, frame.right, frame.top, p.axis)];
  out.push(...grid(frame, scale, ticks, decimalsFor(scale.max - scale.min), p));
  for (const g of pane.guides) {
    const y = scale.y(g.value);
    out.push(line(frame.left, y, frame.right, y, p.guide, 1, g.dashed ? '4 4' : undefined));
  }
  for (const h of pane.histograms) {
    const zero = scale.y(0);
    const bars: Array<[number, number, number, number]> = [];
    for (let i = frame.from; i < frame.to; i++) {
      const v = h.values[i]!;
      if (!Number.isFinite(v)) continue;
      const y = scale.y(v);
      bars.push([frame.x(i) - frame.barWidth / 2, Math.min(y, zero), frame.barWidth, Math.abs(zero - y)]);
    }
    out.push(rectsPath(bars, h.colour));
  }
  out.push(...drawLines(frame, scale, pane.lines));
  out.push(text(frame.left + 8, frame.top + 16, pane.title, { size: 12, fill: p.text }));
  return out;
}
