/** Small SVG writing helpers: fixed decimals so the same chart is the same bytes on every machine. */

export const f = (v: number): string => {
  const r = Math.round(v * 10) / 10;
  return Object.is(r, -0) ? '0' : String(r);
};

export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export interface TextOpts {
  size?: number;
  fill: string;
  anchor?: 'start' | 'middle' | 'end';
  weight?: 'bold';
}

export function text(x: number, y: number, content: string, o: TextOpts): string {
  const anchor = o.anchor && o.anchor !== 'start' ? ` text-anchor="${o.anchor}"` : '';
  const weight = o.weight ? ` font-weight="${o.weight}"` : '';
  return `<text x="${f(x)}" y="${f(y)}" font-size="${o.size ?? 12}" fill="${o.fill}"${anchor}${weight}>${esc(content)}</text>`;
}

export function line(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  stroke: string,
  width = 1,
  dash?: string,
): string {
  const d = dash ? ` stroke-dasharray="${dash}"` : '';
  return `<line x1="${f(x1)}" y1="${f(y1)}" x2="${f(x2)}" y2="${f(y2)}" stroke="${stroke}" stroke-width="${width}"${d}/>`;
}

export function rect(x: number, y: number, w: number, h: number, fill: string): string {
  return `<rect x="${f(x)}" y="${f(y)}" width="${f(Math.max(w, 0.1))}" height="${f(Math.max(h, 0.1))}" fill="${fill}"/>`;
}

/** A polyline through the finite points; a NaN breaks it, so warm-up bars leave no false segment. */
export function path(points: Array<[number, number] | null>, stroke: string, width: number): string {
  let d = '';
  let pen = false;
  for (const p of points) {
    if (!p || !Number.isFinite(p[1])) {
      pen = false;
      continue;
    }
    d += `${pen ? 'L' : 'M'}${f(p[0])} ${f(p[1])}`;
    pen = true;
  }
  if (!d) return '';
  return `<path d="${d}" fill="none" stroke="${stroke}" stroke-width="${width}" stroke-linejoin="round"/>`;
}

/**
 * Many same-coloured rectangles as one path (candle bodies, volume bars, histogram columns): a chart
 * of a few hundred bars stays a few dozen elements, which the PNG renderer parses and fills faster.
 */
export function rectsPath(rects: Array<[number, number, number, number]>, fill: string): string {
  if (rects.length === 0) return '';
  const d = rects
    .map(
      ([x, y, w, h]) =>
        `M${f(x)} ${f(y)}h${f(Math.max(w, 0.1))}v${f(Math.max(h, 0.1))}h${f(-Math.max(w, 0.1))}z`,
    )
    .join('');
  return `<path d="${d}" fill="${fill}"/>`;
}

/** Many same-coloured vertical segments (candle wicks) as one path. */
export function wicksPath(segments: Array<[number, number, number]>, stroke: string): string {
  if (segments.length === 0) return '';
  const d = segments.map(([x, y1, y2]) => `M${f(x)} ${f(y1)}V${f(y2)}`).join('');
  return `<path d="${d}" stroke="${stroke}" stroke-width="1" fill="none"/>`;
}
