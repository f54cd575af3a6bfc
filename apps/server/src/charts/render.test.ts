import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodePng } from '../test/png';
import { waveCandles } from './fixture';
import type { ChartModel } from './model';
import { svgToPng } from './png';
import { renderChartSvg } from './render-svg';

const GOLDEN = path.join(import.meta.dirname, 'golden');
/** `UPDATE_GOLDEN=1 npx vitest run apps/server/src/charts` rewrites the stored files after a deliberate change. */
function golden(name: string, actual: string): string {
  const file = path.join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN) writeFileSync(file, actual);
  return readFileSync(file, 'utf8');
}

const candles = waveCandles(120, Date.UTC(2026, 0, 5, 8, 0), 3_600_000);
const wave = (warmUp: number, f: (i: number) => number) =>
  new Float64Array(candles.time.length).map((_, i) => (i < warmUp ? NaN : f(i)));

/** A model with every kind of element: overlay, fixed-range pane with guides, histogram pane, levels, marker. */
const model: ChartModel = {
  symbol: 'EURUSD',
  timeframe: '1h',
  subtitle: 'Swing <template> & co',
  candles,
  digits: 5,
  overlays: [
    {
      label: 'EMA 21',
      values: wave(20, (i) => 1.085 + 0.003 * Math.sin(i / 12)),
      colour: 'rgb(41, 98, 255)',
      width: 1.5,
    },
  ],
  panes: [
    {
      title: 'RSI 14',
      lines: [
        {
          label: 'RSI',
          values: wave(14, (i) => 50 + 30 * Math.sin(i / 7)),
          colour: 'rgb(126, 87, 194)',
          width: 1,
        },
      ],
      histograms: [],
      guides: [
        { value: 70, dashed: true },
        { value: 30, dashed: true },
      ],
      range: [0, 100],
    },
    {
      title: 'MACD 12 26 9',
      lines: [],
      histograms: [
        { label: 'Histogram', values: wave(26, (i) => 0.001 * Math.sin(i / 5)), colour: 'rgb(38, 166, 154)' },
      ],
      guides: [{ value: 0, dashed: false }],
    },
  ],
  levels: [
    { kind: 'entry', label: 'Entry', price: 1.086 },
    { kind: 'stop', label: 'SL', price: 1.08 },
    { kind: 'target', label: 'TP', price: 1.094 },
  ],
  markerTime: candles.time[100]! + 1_000,
};

describe('chart renderer', () => {
  it('draws a fixed candle set to the stored SVG, byte for byte', () => {
    const svg = renderChartSvg(model, { width: 1600, height: 900, theme: 'light' });
    expect(svg).toBe(golden('wave-light.svg', svg));
    // What the golden file holds: one body per candle, the header, escaped text, the three labelled levels.
    const wicks =
      svg.match(/<path d="[^"]*" stroke="#(089981|f23645)" stroke-width="1" fill="none"\/>/g) ?? [];
    expect(wicks.join('').match(/M/g)).toHaveLength(120);
    expect(svg).toContain('EURUSD · 1h');
    expect(svg).toContain('2026-01-05 08:00 – 2026-01-10 07:00 UTC');
    expect(svg).toContain('Swing &lt;template&gt; &amp; co');
    for (const label of [
      '>Entry<',
      '>SL<',
      '>TP<',
      '>1.08600<',
      '>1.08000<',
      '>1.09400<',
      '>RSI 14<',
      '>MACD 12 26 9<',
    ])
      expect(svg).toContain(label);
  });

  it('draws the same model in the dark palette to its own stored SVG', () => {
    const svg = renderChartSvg(model, { width: 1600, height: 900, theme: 'dark' });
    expect(svg).toBe(golden('wave-dark.svg', svg));
  });

  it('makes a PNG of the asked size whose pixels differ between light and dark', () => {
    const light = decodePng(svgToPng(renderChartSvg(model, { width: 1600, height: 900, theme: 'light' })));
    const dark = decodePng(svgToPng(renderChartSvg(model, { width: 1600, height: 900, theme: 'dark' })));
    expect([light.width, light.height]).toEqual([1600, 900]);
    expect([dark.width, dark.height]).toEqual([1600, 900]);
    const pixel = (img: typeof light, x: number, y: number) => [
      ...img.pixels.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4),
    ];
    // The background corner: white in light, #131722 in dark.
    expect(pixel(light, 2, 2)).toEqual([255, 255, 255, 255]);
    expect(pixel(dark, 2, 2)).toEqual([0x13, 0x17, 0x22, 255]);
    let differing = 0;
    for (let i = 0; i < light.pixels.length; i += 4) if (light.pixels[i] !== dark.pixels[i]) differing++;
    expect(differing / (1600 * 900)).toBeGreaterThan(0.5);
    // Text was drawn with the bundled font: the header's pixels are not all background.
    let inked = 0;
    for (let x = 12; x < 180; x++) for (let y = 10; y < 32; y++) if (pixel(light, x, y)[0]! < 128) inked++;
    expect(inked).toBeGreaterThan(50);
  });

  it('renders other sizes and an empty series without failing', () => {
    const png = decodePng(svgToPng(renderChartSvg(model, { width: 800, height: 450, theme: 'light' })));
    expect([png.width, png.height]).toEqual([800, 450]);
    const empty = waveCandles(0, 0, 60_000);
    const svg = renderChartSvg(
      { ...model, candles: empty, overlays: [], panes: [], levels: [] },
      { width: 640, height: 360, theme: 'dark' },
    );
    expect(svg).toContain('No data');
    expect(decodePng(svgToPng(svg)).width).toBe(640);
  });
});
