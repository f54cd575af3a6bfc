import { sanitizeSvg } from './svg-sanitize';

export interface BarDatum {
  label: string;
  /** Percent 0–100, NaN for an empty bar. */
  value: number;
  /** 95 % interval, drawn as a whisker when present. */
  low?: number;
  high?: number;
  /** Sample count shown under the label. */
  count?: number;
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const r1 = (v: number) => Math.round(v * 10) / 10;

/**
 * A vertical bar chart of percentages with optional interval whiskers and a dashed reference line
 * (e.g. 50 %), as standalone SVG text; sanitised before it leaves.
 */
export function percentBarChart(opts: {
  title: string;
  bars: BarDatum[];
  reference?: number;
  yLabel: string;
}): string {
  const W = 640;
  const H = 300;
  const left = 48;
  const right = 12;
  const top = 28;
  const bottom = 64;
  const plotW = W - left - right;
  const plotH = H - top - bottom;
  const y = (v: number) => top + plotH - (Math.max(0, Math.min(100, v)) / 100) * plotH;
  const slot = plotW / Math.max(1, opts.bars.length);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(opts.title)}">`,
    `<rect x="0" y="0" width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${W / 2}" y="18" text-anchor="middle" font-size="14" font-family="sans-serif" fill="#222222">${esc(opts.title)}</text>`,
  ];
  for (const tick of [0, 25, 50, 75, 100]) {
    parts.push(
      `<line x1="${left}" y1="${r1(y(tick))}" x2="${W - right}" y2="${r1(y(tick))}" stroke="#e5e5e5" stroke-width="1"/>`,
      `<text x="${left - 6}" y="${r1(y(tick) + 4)}" text-anchor="end" font-size="10" font-family="sans-serif" fill="#555555">${tick}%</text>`,
    );
  }
  opts.bars.forEach((b, i) => {
    const cx = left + slot * i + slot / 2;
    const bw = Math.max(4, slot * 0.6);
    if (Number.isFinite(b.value)) {
      parts.push(
        `<rect x="${r1(cx - bw / 2)}" y="${r1(y(b.value))}" width="${r1(bw)}" height="${r1(top + plotH - y(b.value))}" fill="#228be6"><title>${esc(`${b.label}: ${b.value.toFixed(1)}%`)}</title></rect>`,
      );
      if (b.low !== undefined && b.high !== undefined && Number.isFinite(b.low) && Number.isFinite(b.high)) {
        parts.push(
          `<line x1="${r1(cx)}" y1="${r1(y(b.low))}" x2="${r1(cx)}" y2="${r1(y(b.high))}" stroke="#1c1c1c" stroke-width="1.5"/>`,
        );
      }
    }
    parts.push(
      `<text x="${r1(cx)}" y="${top + plotH + 16}" text-anchor="middle" font-size="10" font-family="sans-serif" fill="#333333">${esc(b.label)}</text>`,
    );
    if (b.count !== undefined) {
      parts.push(
        `<text x="${r1(cx)}" y="${top + plotH + 30}" text-anchor="middle" font-size="9" font-family="sans-serif" fill="#777777">n=${b.count}</text>`,
      );
    }
  });
  if (opts.reference !== undefined) {
    parts.push(
      `<line x1="${left}" y1="${r1(y(opts.reference))}" x2="${W - right}" y2="${r1(y(opts.reference))}" stroke="#e8590c" stroke-width="1" stroke-dasharray="4 3"/>`,
    );
  }
  parts.push(
    `<text x="12" y="${top + plotH / 2}" font-size="10" font-family="sans-serif" fill="#555555" transform="rotate(-90 12 ${top + plotH / 2})" text-anchor="middle">${esc(opts.yLabel)}</text>`,
    '</svg>',
  );
  return sanitizeSvg(parts.join(''));
}
