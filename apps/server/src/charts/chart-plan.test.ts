import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultIndicatorSettings, type IndicatorSettings } from '@tradedesk/contract';
import { ema, FX_SESSION_OFFSET_MS, vwap } from '@tradedesk/domain';
import { buildChartModel } from './chart-plan';
import { waveCandles } from './fixture';
import { renderChartSvg } from './render-svg';

const candles = waveCandles(270, Date.UTC(2026, 0, 2, 0, 0), 900_000);
const everything = (): IndicatorSettings => {
  const s = defaultIndicatorSettings();
  return {
    ...s,
    rsi: { ...s.rsi, enabled: true },
    macd: { ...s.macd, enabled: true },
    cmf: { ...s.cmf, enabled: true },
  };
};
const plan = (settings: IndicatorSettings) =>
  buildChartModel({
    symbol: 'EURUSD',
    timeframe: '15m',
    subtitle: 'Everything',
    digits: 5,
    candles,
    settings,
    visibleBars: 120,
    levels: [
      { kind: 'entry', label: 'Entry', price: 1.0862 },
      { kind: 'stop', label: 'SL', price: 1.0832 },
      { kind: 'target', label: 'TP', price: 1.0922 },
    ],
    markerTime: candles.time[230]!,
  });

describe('template to chart', () => {
  it('draws a fixed candle set with a template to the stored SVG', () => {
    const svg = renderChartSvg(plan(everything()), { width: 1600, height: 900, theme: 'light' });
    const file = path.join(import.meta.dirname, 'golden', 'template-light.svg');
    if (process.env.UPDATE_GOLDEN) writeFileSync(file, svg);
    expect(svg).toBe(readFileSync(file, 'utf8'));
    for (const t of [
      'EMA 21',
      'EMA 50',
      'EMA 100',
      'DMI 14 14',
      'Stoch RSI 3 3 14 14',
      'RSI 14 SMA 14',
      'MACD 12 26 9',
      'CMF 20',
    ])
      expect(svg).toContain(`>${t}<`);
  });

  it('computes over every fetched bar, then shows the last ones', () => {
    const m = plan(everything());
    expect(m.candles.time).toHaveLength(120);
    expect(m.candles.time[0]).toBe(candles.time[150]);
    // EMA 100 is settled on the first visible bar because 150 bars came before it.
    const full = ema(candles.close, 100);
    expect(m.overlays[2]!.values[0]).toBe(full[150]);
    expect(Number.isNaN(m.overlays[2]!.values[0]!)).toBe(false);
    expect(m.panes.map((p) => p.title.split(' ')[0])).toEqual(['DMI', 'Stoch', 'RSI', 'MACD', 'CMF']);
  });

  it('follows the template: disabled indicators, emptied numbers, colours, hidden lines and levels', () => {
    const s = defaultIndicatorSettings();
    const custom: IndicatorSettings = {
      ...s,
      emas: {
        ...s.emas,
        periods: [10, null],
        overrides: [{ 'Plot.color': 'rgb(1, 2, 3)', 'Plot.linewidth': 3 }, s.emas.overrides![1]!],
      },
      dmi: { ...s.dmi, di_length: null, overrides: { ...s.dmi.overrides, 'ADX.visible': false } },
      stoch_rsi: {
        ...s.stoch_rsi,
        overrides: { ...s.stoch_rsi.overrides, 'UpperLimit.value': 90, 'LowerLimit.value': null },
      },
      rsi: { ...s.rsi, enabled: true, overrides: { ...s.rsi.overrides, 'MiddleLimit.visible': true } },
    };
    const m = plan(custom);
    expect(m.overlays.map((o) => [o.label, o.colour, o.width])).toEqual([['EMA 10', 'rgb(1, 2, 3)', 3]]);
    const [dmiPane, stoch, rsi] = m.panes;
    expect(dmiPane!.title).toBe('DMI 14 14');
    expect(dmiPane!.lines.map((l) => l.label)).toEqual(['+DI', '-DI']);
    expect(stoch!.guides.map((g) => g.value)).toEqual([90, 20]);
    expect(rsi!.guides.map((g) => g.value)).toEqual([70, 30, 50]);
    expect(m.panes).toHaveLength(3);
    const off = plan({
      ...s,
      emas: { ...s.emas, enabled: false },
      dmi: { ...s.dmi, enabled: false },
      stoch_rsi: { ...s.stoch_rsi, enabled: false },
    });
    expect(off.overlays).toEqual([]);
    expect(off.panes).toEqual([]);
  });

  it('draws a session VWAP with the visible σ bands on the price pane, to its own stored SVG', () => {
    const s = defaultIndicatorSettings();
    const settings: IndicatorSettings = {
      ...s,
      dmi: { ...s.dmi, enabled: false },
      stoch_rsi: { ...s.stoch_rsi, enabled: false },
      vwap: {
        ...s.vwap,
        enabled: true,
        band_2_multiplier: null,
        overrides: { ...s.vwap.overrides, 'Band #1.visible': true, 'Band #2.visible': true },
      },
    };
    const m = plan(settings);
    // EMAs first, then band #1 and #2 (upper, lower), then the VWAP on top of them.
    expect(m.overlays.map((o) => o.label)).toEqual([
      'EMA 21',
      'EMA 50',
      'EMA 100',
      'Upper Band #1',
      'Lower Band #1',
      'Upper Band #2',
      'Lower Band #2',
      'VWAP Session',
    ]);
    // Computed over every fetched bar with UTC days as sessions, hlc3, multiples 1 and the emptied 2's default.
    const full = vwap(candles, { anchor: 'day', source: 'hlc3', bands: [1, 2] });
    const at = (o: number) => m.overlays[o]!.values;
    expect([...at(7)]).toEqual([...full.vwap.subarray(150)]);
    expect([...at(3)]).toEqual([...full.upper[0]!.subarray(150)]);
    expect([...at(6)]).toEqual([...full.lower[1]!.subarray(150)]);
    expect(m.overlays[7]).toMatchObject({ colour: 'rgb(0, 151, 167)', width: 1.5 });
    expect(m.overlays[3]).toMatchObject({ colour: 'rgb(76, 175, 80)', width: 1, legend: false });
    // The session restarts at 00:00 UTC: the first bar of 2026-01-04 is its own VWAP (one bar: x itself).
    const i = [...candles.time].indexOf(Date.UTC(2026, 0, 4)) - 150;
    const c = m.candles;
    expect(at(7)[i]).toBeCloseTo((c.high[i]! + c.low[i]! + c.close[i]!) / 3, 12);
    expect(at(3)[i]).toBeCloseTo(at(7)[i]!, 12);
    // …and its line starts afresh there instead of being joined to the day before.
    expect(m.overlays[7]!.restarts![i]).toBe(1);
    expect(m.overlays[7]!.restarts![i - 1]).toBe(0);

    const svg = renderChartSvg(m, { width: 1600, height: 900, theme: 'light' });
    const file = path.join(import.meta.dirname, 'golden', 'template-vwap-light.svg');
    if (process.env.UPDATE_GOLDEN) writeFileSync(file, svg);
    expect(svg).toBe(readFileSync(file, 'utf8'));
    // One legend entry for the VWAP, none for its bands.
    expect(svg).toContain('>VWAP Session<');
    expect(svg).not.toContain('Band #');
  });

  it('anchors the VWAP to the FX week or the month, and leaves it off unless enabled', () => {
    const s = defaultIndicatorSettings();
    expect(s.vwap.enabled).toBe(false);
    expect(plan(s).overlays.map((o) => o.label)).toEqual(['EMA 21', 'EMA 50', 'EMA 100']);
    const only = (anchor: 'Week' | 'Month'): IndicatorSettings => ({
      ...s,
      emas: { ...s.emas, enabled: false },
      vwap: { ...s.vwap, enabled: true, anchor, source: 'close' },
    });
    const week = plan(only('Week')).overlays;
    expect(week.map((o) => o.label)).toEqual(['VWAP Week']);
    const fxWeek = vwap(candles, { anchor: 'week', offsetMs: FX_SESSION_OFFSET_MS, source: 'close' });
    expect([...week[0]!.values]).toEqual([...fxWeek.vwap.subarray(150)]);
    const month = plan(only('Month')).overlays;
    expect([...month[0]!.values]).toEqual([
      ...vwap(candles, { anchor: 'month', source: 'close' }).vwap.subarray(150),
    ]);
  });
});
