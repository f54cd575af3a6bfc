import type { ChartModel, RenderOptions } from './model';
import { PALETTES, type Palette } from './palette';
import { drawLines, drawSubPane, formatValue, grid, type PaneFrame } from './panes';
import { extent, niceTicks, yScale, type YScale } from './scale';
import { line, rect, rectsPath, text, wicksPath } from './svg';
import { rangeLabel, tickIndexes, timeLabel } from './time-axis';

const HEADER = 44;
const AXIS_RIGHT = 86;
const AXIS_BOTTOM = 26;
const MARGIN = 12;
/** A sub-pane's height relative to the price pane's. */
const SUB_PANE_SHARE = 0.32;
const VOLUME_SHARE = 0.18;

/**
 * The whole chart as one SVG document. Bars are spaced evenly by index (closed markets leave no gap,
 * as on trading platforms); every number is written with one decimal, so output is byte-stable.
 */
export function renderChartSvg(model: ChartModel, opts: RenderOptions): string {
  const p = PALETTES[opts.theme];
  const { width, height } = opts;
  const n = model.candles.time.length;
  const left = MARGIN;
  const right = width - AXIS_RIGHT;
  const bodyTop = HEADER;
  const bodyBottom = height - AXIS_BOTTOM;
  const shares = [1, ...model.panes.map(() => SUB_PANE_SHARE)];
  const unit = (bodyBottom - bodyTop) / shares.reduce((a, b) => a + b, 0);
  const slot = n > 0 ? (right - left) / n : right - left;
  const frameAt = (top: number, bottom: number): PaneFrame => ({
    left,
    right,
    top,
    bottom,
    x: (i) => left + slot * (i + 0.5),
    barWidth: Math.max(1, slot * 0.7),
    from: 0,
    to: n,
  });

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans">`,
    rect(0, 0, width, height, p.background),
  ];
  out.push(...header(model, p, width));
  const priceFrame = frameAt(bodyTop, bodyTop + unit);
  out.push(...pricePane(model, priceFrame, p));
  let top = priceFrame.bottom;
  for (const pane of model.panes) {
    const frame = frameAt(top, top + unit * SUB_PANE_SHARE);
    out.push(...drawSubPane(frame, pane, p));
    top = frame.bottom;
  }
  out.push(...timeAxis(model, frameAt(bodyTop, bodyBottom), p));
  out.push(line(right, bodyTop, right, bodyBottom, p.axis));
  out.push('</svg>');
  return out.join('\n');
}

function header(model: ChartModel, p: Palette, width: number): string[] {
  const t = model.candles.time;
  const out = [
    text(MARGIN, 26, `${model.symbol} · ${model.timeframe}`, { size: 18, fill: p.text, weight: 'bold' }),
  ];
  if (t.length)
    out.push(text(MARGIN + 190, 26, rangeLabel(t[0]!, t[t.length - 1]!), { size: 13, fill: p.mutedText }));
  out.push(text(width - MARGIN, 26, model.subtitle, { size: 13, fill: p.mutedText, anchor: 'end' }));
  return out;
}

function priceScale(model: ChartModel, frame: PaneFrame): YScale {
  const c = model.candles;
  let [lo, hi] = extent([c.low, c.high], frame.from, frame.to);
  // Overlays and the trade's levels must be on the chart even when price never reached them.
  const [olo, ohi] = extent(
    model.overlays.map((o) => o.values),
    frame.from,
    frame.to,
  );
  if (model.overlays.length) {
    lo = Math.min(lo, olo);
    hi = Math.max(hi, ohi);
  }
  for (const l of model.levels) {
    lo = Math.min(lo, l.price);
    hi = Math.max(hi, l.price);
  }
  const pad = (hi - lo) * 0.06;
  const volumeRoom = (frame.bottom - frame.top) * VOLUME_SHARE * 0.6;
  return yScale(lo - pad, hi + pad, frame.top + 8, frame.bottom - volumeRoom);
}

function pricePane(model: ChartModel, frame: PaneFrame, p: Palette): string[] {
  const c = model.candles;
  const scale = priceScale(model, frame);
  const out = grid(frame, scale, niceTicks(scale.min, scale.max, 8), model.digits, p);
  // Volume along the bottom of the price pane, on its own scale.
  const [, vmax] = extent([c.volume], frame.from, frame.to);
  const vh = (frame.bottom - frame.top) * VOLUME_SHARE;
  const volume: Record<'up' | 'down', Array<[number, number, number, number]>> = { up: [], down: [] };
  const bodies: Record<'up' | 'down', Array<[number, number, number, number]>> = { up: [], down: [] };
  const wicks: Record<'up' | 'down', Array<[number, number, number]>> = { up: [], down: [] };
  for (let i = frame.from; i < frame.to; i++) {
    const side = c.close[i]! >= c.open[i]! ? 'up' : 'down';
    const x = frame.x(i);
    const left = x - frame.barWidth / 2;
    const h = vmax > 0 ? (c.volume[i]! / vmax) * vh : 0;
    volume[side].push([left, frame.bottom - h, frame.barWidth, h]);
    wicks[side].push([x, scale.y(c.high[i]!), scale.y(c.low[i]!)]);
    const yo = scale.y(c.open[i]!);
    const yc = scale.y(c.close[i]!);
    bodies[side].push([left, Math.min(yo, yc), frame.barWidth, Math.max(Math.abs(yo - yc), 1)]);
  }
  out.push(rectsPath(volume.up, p.volumeUp), rectsPath(volume.down, p.volumeDown));
  out.push(wicksPath(wicks.up, p.up), wicksPath(wicks.down, p.down));
  out.push(rectsPath(bodies.up, p.up), rectsPath(bodies.down, p.down));
  out.push(...drawLines(frame, scale, model.overlays));
  out.push(...marker(model, frame, p));
  out.push(...levels(model, frame, scale, p));
  out.push(...legend(model, frame, p));
  return out;
}

function marker(model: ChartModel, frame: PaneFrame, p: Palette): string[] {
  const t = model.candles.time;
  if (model.markerTime === undefined || t.length === 0 || model.markerTime < t[0]!) return [];
  let i = t.length - 1;
  while (i > 0 && t[i]! > model.markerTime) i--;
  const x = frame.x(i);
  return [line(x, frame.top, x, frame.bottom, p.marker, 1, '2 4')];
}

function levels(model: ChartModel, frame: PaneFrame, scale: YScale, p: Palette): string[] {
  const out: string[] = [];
  for (const l of model.levels) {
    const colour = l.kind === 'entry' ? p.entry : l.kind === 'stop' ? p.stop : p.target;
    const y = scale.y(l.price);
    out.push(line(frame.left, y, frame.right, y, colour, 1.5, l.kind === 'entry' ? undefined : '6 4'));
    out.push(rect(frame.right + 1, y - 9, AXIS_RIGHT - 2, 18, colour));
    out.push(text(frame.right + 6, y + 4, formatValue(l.price, model.digits), { size: 11, fill: '#ffffff' }));
    out.push(
      text(frame.right - 8, y - 5, l.label, { size: 12, fill: colour, anchor: 'end', weight: 'bold' }),
    );
  }
  return out;
}

/** Names of the overlays in their colours, under the header. */
function legend(model: ChartModel, frame: PaneFrame, p: Palette): string[] {
  const out: string[] = [];
  let x = frame.left + 8;
  for (const o of model.overlays) {
    if (o.legend === false) continue;
    out.push(text(x, frame.top + 18, o.label, { size: 12, fill: o.colour, weight: 'bold' }));
    x += o.label.length * 8 + 18;
  }
  if (model.overlays.length === 0 && model.candles.time.length === 0)
    out.push(text(frame.left + 8, frame.top + 18, 'No data', { size: 12, fill: p.mutedText }));
  return out;
}

function timeAxis(model: ChartModel, frame: PaneFrame, p: Palette): string[] {
  const t = model.candles.time;
  const out = [line(frame.left, frame.bottom, frame.right, frame.bottom, p.axis)];
  for (const i of tickIndexes(t.length, 8)) {
    const x = frame.x(i);
    out.push(line(x, frame.top, x, frame.bottom, p.grid));
    out.push(
      text(x, frame.bottom + 17, timeLabel(t[i]!, model.timeframe), {
        size: 11,
        fill: p.mutedText,
        anchor: 'middle',
      }),
    );
  }
  return out;
}
