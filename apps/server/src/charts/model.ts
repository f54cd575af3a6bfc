import type { CandleSeries } from '@tradedesk/domain';

/**
 * What a chart shows, already computed: the renderer draws, it never calculates an indicator.
 * Every line is one value per candle (NaN where it has none: warm-up bars, gaps).
 */
export interface ChartLine {
  label: string;
  values: Float64Array;
  colour: string;
  width: number;
  /** False for lines that belong to a named one (VWAP's bands): only the named line is in the legend. */
  legend?: boolean;
  /** 1 where the line starts afresh (an anchored VWAP's new session): no segment joins it to the bar before. */
  restarts?: Uint8Array;
}

export interface ChartHistogram {
  label: string;
  values: Float64Array;
  colour: string;
}

/** A horizontal guide inside a sub-pane (RSI 70/30, Stoch RSI 80/20, the zero line). */
export interface ChartGuide {
  value: number;
  dashed: boolean;
}

export interface SubPane {
  title: string;
  lines: ChartLine[];
  histograms: ChartHistogram[];
  guides: ChartGuide[];
  /** A fixed value range (oscillators bounded 0-100); otherwise fitted to the data. */
  range?: [number, number];
}

/** The trade's entry, stop and target, drawn across the price pane and labelled on the axis. */
export interface TradeLevel {
  kind: 'entry' | 'stop' | 'target';
  label: string;
  price: number;
}

export interface ChartModel {
  symbol: string;
  /** As the trader chose it (1m … 1M). */
  timeframe: string;
  /** Shown at the right of the header (the template's name). */
  subtitle: string;
  candles: CandleSeries;
  /** Price decimals for labels. */
  digits: number;
  overlays: ChartLine[];
  panes: SubPane[];
  levels: TradeLevel[];
  /** The trade's instant, marked by a vertical line on the bar that holds it. */
  markerTime?: number;
}

export interface RenderOptions {
  width: number;
  height: number;
  theme: 'light' | 'dark';
}

export const DEFAULT_SIZE = { width: 1600, height: 900 } as const;
