import type { IndicatorSettings, VwapAnchor, VwapSettings } from '@tradedesk/contract';
import {
  cmf,
  dmi,
  ema,
  FX_SESSION_OFFSET_MS,
  macd,
  priceSource,
  rsiWithSmoothing,
  stochRsi,
  sessionStarts,
  vwap,
  type CandleSeries,
  type SessionAnchor,
} from '@tradedesk/domain';
import type { ChartLine, ChartModel, SubPane, TradeLevel } from './model';

export interface PlanInput {
  symbol: string;
  timeframe: string;
  subtitle: string;
  digits: number;
  /** Candles oldest first, with enough bars before the visible ones for the indicators to settle. */
  candles: CandleSeries;
  settings: IndicatorSettings;
  /** How many of the last bars are drawn. */
  visibleBars: number;
  levels?: TradeLevel[];
  markerTime?: number;
}

/** A null (emptied) number in a template is drawn with the spec's default. */
const or = (v: number | null | undefined, def: number) => (v === null || v === undefined ? def : v);

/**
 * Turns a template into what the renderer draws: indicators computed over every fetched bar (so the
 * first visible bars are settled), then cut to the visible window. One sub-pane per enabled oscillator,
 * in the order the template lists them.
 */
export function buildChartModel(input: PlanInput): ChartModel {
  const s = input.settings;
  const c = input.candles;
  const n = c.time.length;
  const from = Math.max(0, n - input.visibleBars);
  const cut = (a: Float64Array) => a.subarray(from);
  const line = (label: string, values: Float64Array, colour: string, width: number | null): ChartLine => ({
    label,
    values: cut(values),
    colour,
    width: or(width, 1),
  });

  const overlays: ChartLine[] = [];
  if (s.emas.enabled) {
    const src = priceSource(c, s.emas.source);
    s.emas.periods.forEach((period, i) => {
      if (period === null) return;
      const o = s.emas.overrides?.[i];
      overlays.push(
        line(
          `EMA ${period}`,
          ema(src, period),
          o?.['Plot.color'] ?? 'rgb(41, 98, 255)',
          o?.['Plot.linewidth'] ?? 1,
        ),
      );
    });
  }

  if (s.vwap.enabled)
    for (const l of vwapLines(c, s.vwap))
      overlays.push({ ...l, values: cut(l.values), restarts: l.restarts!.subarray(from) });

  const panes: SubPane[] = [];
  if (s.dmi.enabled) {
    const o = s.dmi.overrides;
    const di = or(s.dmi.di_length, 14);
    const adxLen = or(s.dmi.adx_smoothing, 14);
    const r = dmi(c, { diPeriod: di, adxSmoothing: adxLen });
    const lines: ChartLine[] = [];
    if (o['+DI.visible']) lines.push(line('+DI', r.plusDi, o['+DI.color'], o['+DI.linewidth']));
    if (o['-DI.visible']) lines.push(line('-DI', r.minusDi, o['-DI.color'], o['-DI.linewidth']));
    if (o['ADX.visible']) lines.push(line('ADX', r.adx, o['ADX.color'], o['ADX.linewidth']));
    panes.push({ title: `DMI ${di} ${adxLen}`, lines, histograms: [], guides: [], range: [0, 100] });
  }
  if (s.stoch_rsi.enabled) {
    const o = s.stoch_rsi.overrides;
    const p = {
      rsiPeriod: or(s.stoch_rsi.rsi_length, 14),
      stochPeriod: or(s.stoch_rsi.stoch_length, 14),
      k: or(s.stoch_rsi.k_smooth, 3),
      d: or(s.stoch_rsi.d_smooth, 3),
    };
    const r = stochRsi(c.close, p);
    panes.push({
      title: `Stoch RSI ${p.k} ${p.d} ${p.rsiPeriod} ${p.stochPeriod}`,
      lines: [
        line('%K', r.k, o['%K.color'], o['%K.linewidth']),
        line('%D', r.d, o['%D.color'], o['%D.linewidth']),
      ],
      histograms: [],
      guides: [
        { value: or(o['UpperLimit.value'], 80), dashed: true },
        { value: or(o['LowerLimit.value'], 20), dashed: true },
      ],
      range: [0, 100],
    });
  }
  if (s.rsi.enabled) {
    const o = s.rsi.overrides;
    const period = or(s.rsi.length, 14);
    const maPeriod = or(s.rsi.smoothingLength, 14);
    const r = rsiWithSmoothing(c.close, { period, maType: s.rsi.smoothingLine, maPeriod });
    const guides = [
      { value: or(o['UpperLimit.value'], 70), dashed: true },
      { value: or(o['LowerLimit.value'], 30), dashed: true },
    ];
    if (o['MiddleLimit.visible']) guides.push({ value: or(o['MiddleLimit.value'], 50), dashed: true });
    panes.push({
      title: `RSI ${period} ${s.rsi.smoothingLine} ${maPeriod}`,
      lines: [
        line('RSI', r.rsi, o['Plot.color'], o['Plot.linewidth']),
        line(`${s.rsi.smoothingLine} ${maPeriod}`, r.ma, 'rgb(255, 183, 77)', 1),
      ],
      histograms: [],
      guides,
      range: [0, 100],
    });
  }
  if (s.macd.enabled) {
    const o = s.macd.overrides;
    const p = {
      fast: or(s.macd.fast_length, 12),
      slow: or(s.macd.slow_length, 26),
      signal: or(s.macd.signal_length, 9),
    };
    const r = macd(priceSource(c, s.macd.source), p);
    panes.push({
      title: `MACD ${p.fast} ${p.slow} ${p.signal}`,
      lines: [
        line('MACD', r.macd, o['MACD.color'], o['MACD.linewidth']),
        line('Signal', r.signal, o['Signal.color'], o['Signal.linewidth']),
      ],
      histograms: [{ label: 'Histogram', values: cut(r.histogram), colour: o['Histogram.color'] }],
      guides: [{ value: 0, dashed: false }],
    });
  }
  if (s.cmf.enabled) {
    const o = s.cmf.overrides;
    const period = or(s.cmf.length, 20);
    panes.push({
      title: `CMF ${period}`,
      lines: [line('CMF', cmf(c, period), o['Plot.color'], o['Plot.linewidth'])],
      histograms: [],
      guides: [{ value: 0, dashed: false }],
    });
  }

  return {
    symbol: input.symbol,
    timeframe: input.timeframe,
    subtitle: input.subtitle,
    digits: input.digits,
    candles: {
      time: cut(c.time),
      open: cut(c.open),
      high: cut(c.high),
      low: cut(c.low),
      close: cut(c.close),
      volume: cut(c.volume),
    },
    overlays,
    panes,
    levels: input.levels ?? [],
    ...(input.markerTime !== undefined ? { markerTime: input.markerTime } : {}),
  };
}

/**
 * The template's anchors as the candle store's periods: a session is the UTC day (as D1 bars and the
 * VWAP analysis), a week the FX week from Sunday 22:00 UTC (as W1 bars), a month the calendar month.
 */
const VWAP_ANCHOR: Record<VwapAnchor, { anchor: SessionAnchor; offsetMs: number }> = {
  Session: { anchor: 'day', offsetMs: 0 },
  Week: { anchor: 'week', offsetMs: FX_SESSION_OFFSET_MS },
  Month: { anchor: 'month', offsetMs: 0 },
};

/**
 * VWAP and its visible σ bands over every fetched bar. Bands come first so the VWAP line is drawn on
 * top of them; only the VWAP line is named in the legend.
 */
function vwapLines(c: CandleSeries, v: VwapSettings): ChartLine[] {
  const o = v.overrides;
  // An emptied multiple draws with its default, as every emptied number of a template.
  const shown = [
    { k: 1, multiple: or(v.band_1_multiplier, 1) },
    { k: 2, multiple: or(v.band_2_multiplier, 2) },
    { k: 3, multiple: or(v.band_3_multiplier, 3) },
  ].filter(({ k }) => o[`Band #${k as 1 | 2 | 3}.visible`]);
  const { anchor, offsetMs } = VWAP_ANCHOR[v.anchor];
  const r = vwap(c, { anchor, offsetMs, source: v.source, bands: shown.map((b) => b.multiple) });
  // Each session's lines start afresh, as on TradingView: no jump drawn from one session's VWAP to the next.
  const restarts = sessionStarts(c.time, anchor, offsetMs);
  const width = or(o['Bands.linewidth'], 1);
  const bands = shown.flatMap(({ k }, j): ChartLine[] => {
    const colour = o[`Band #${k as 1 | 2 | 3}.color`];
    return [
      { label: `Upper Band #${k}`, values: r.upper[j]!, colour, width, legend: false, restarts },
      { label: `Lower Band #${k}`, values: r.lower[j]!, colour, width, legend: false, restarts },
    ];
  });
  const line = { values: r.vwap, colour: o['VWAP.color'], width: or(o['VWAP.linewidth'], 1.5), restarts };
  return [...bands, { label: `VWAP ${v.anchor}`, ...line }];
}
