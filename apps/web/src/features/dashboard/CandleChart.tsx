import { useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { UnstyledButton } from '@mantine/core';
import {
  CandlestickSeries,
  ColorType,
  createChart,
  LineStyle,
  type AutoscaleInfo,
  type IChartApi,
  type IPriceLine,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { applyTick, type CandleTimeframe, type LiveBar } from '@tradedesk/domain';
import { LINE_COLORS, type ChartLine } from './chart-lines';
import classes from './CandleChart.module.css';

/** The browser shows local time: bars are drawn at their open instant shifted to the local clock. */
const chartTime = (ms: number) =>
  Math.floor((ms - new Date(ms).getTimezoneOffset() * 60_000) / 1000) as UTCTimestamp;
const toChartBar = (b: LiveBar) => ({ ...b, time: chartTime(b.time) });

const LINE_STYLE: Record<ChartLine['kind'], LineStyle> = {
  entry: LineStyle.Solid,
  sl: LineStyle.Dashed,
  tp: LineStyle.Dashed,
  limit: LineStyle.Dotted,
  'limit-sl': LineStyle.Dotted,
  'limit-tp': LineStyle.Dotted,
};

/** Handle backgrounds: white text on them is above 4.5:1 (WCAG AA). */
const HANDLE_BG = { sl: '#c92a2a', tp: '#2b8a3e' } as const;

export interface Tick {
  /** Epoch ms of the quote (the broker's clock). */
  time: number;
  bid: number;
}

interface Props {
  bars: readonly LiveBar[];
  timeframe: CandleTimeframe;
  tick: Tick | null;
  lines: readonly ChartLine[];
  /** A stop or target being moved: drawn at its new price until it is saved or snaps back. */
  moving: { key: string; price: number } | null;
  digits: number;
  /** Price step of one arrow key press on a handle (a pip). */
  step: number;
  height: number;
  dark: boolean;
  onDrag: (line: ChartLine, price: number) => void;
  onDrop: (line: ChartLine, price: number) => void;
  onCancel: () => void;
}

/**
 * A candlestick chart (lightweight-charts) with the positions' and orders' lines. The stop and target
 * of each open position get a handle at the right edge, a button that can be dragged with the mouse
 * or a finger, or moved with the arrow keys (Shift: ten pips) and dropped with Enter (Escape puts it
 * back); dropping hands the new price to the page, which asks for a confirmation.
 */
export function CandleChart(props: Props) {
  const { bars, timeframe, tick, lines, moving, digits, step, height, dark } = props;
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const last = useRef<LiveBar | null>(null);
  const priceLines = useRef(new Map<string, IPriceLine>());
  const handles = useRef(new Map<string, HTMLButtonElement>());
  const shown = useRef<{ lines: readonly ChartLine[]; moving: Props['moving'] }>({ lines, moving });
  shown.current = { lines, moving };
  const dragging = useRef<{ key: string; startY: number; grab: number } | null>(null);
  const callbacks = useRef(props);
  callbacks.current = props;

  useEffect(() => {
    const c = createChart(host.current!, {
      autoSize: true,
      timeScale: { timeVisible: true, secondsVisible: false, borderVisible: false, rightOffset: 6 },
      rightPriceScale: { borderVisible: false },
    });
    chart.current = c;
    series.current = c.addSeries(CandlestickSeries, {
      upColor: '#2f9e44',
      downColor: '#e03131',
      wickUpColor: '#2f9e44',
      wickDownColor: '#e03131',
      borderVisible: false,
      // Price lines do not widen the scale by themselves: a stop far from the bars would be off-screen.
      autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
        const info = original();
        const prices = shown.current.lines.map((l) => l.price);
        if (!info?.priceRange || prices.length === 0) return info;
        return {
          ...info,
          priceRange: {
            minValue: Math.min(info.priceRange.minValue, ...prices),
            maxValue: Math.max(info.priceRange.maxValue, ...prices),
          },
        };
      },
    });
    const lineMap = priceLines.current;
    // The handles follow their lines as the chart scrolls, zooms and rescales: cheap for a few buttons.
    let frame = requestAnimationFrame(function place() {
      const s = series.current;
      if (s) {
        const axis = c.priceScale('right').width();
        const paneHeight = c.paneSize().height;
        for (const [key, el] of handles.current) {
          const line = shown.current.lines.find((l) => l.key === key);
          const price = shown.current.moving?.key === key ? shown.current.moving.price : line?.price;
          const y = price === undefined ? null : s.priceToCoordinate(price);
          const visible = y !== null && y >= 0 && y <= paneHeight;
          el.style.visibility = visible ? 'visible' : 'hidden';
          if (visible) el.style.transform = `translate(0, ${Math.round(y) - 11}px)`;
          el.style.right = `${axis + 4}px`;
        }
      }
      frame = requestAnimationFrame(place);
    });
    return () => {
      cancelAnimationFrame(frame);
      lineMap.clear();
      c.remove();
      chart.current = null;
      series.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.applyOptions({
      layout: {
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: dark ? '#c1c2c5' : '#343a40',
        attributionLogo: false,
      },
      grid: {
        vertLines: { color: dark ? 'rgba(255,255,255,0.06)' : 'rgba(0,0,0,0.06)' },
        horzLines: { color: dark ? 'rgba(255,255,255,0.06)' : 'rgba(0,0,0,0.06)' },
      },
    });
  }, [dark]);

  useEffect(() => {
    series.current?.applyOptions({
      priceFormat: { type: 'price', precision: digits, minMove: Number((10 ** -digits).toFixed(digits)) },
    });
  }, [digits]);

  useEffect(() => {
    const s = series.current;
    if (!s) return;
    s.setData(bars.map(toChartBar));
    last.current = bars.at(-1) ?? null;
    // About 8 px a bar: 120 bars on a desktop, 40 on a phone.
    const visible = Math.max(30, Math.min(150, Math.round((host.current?.clientWidth ?? 960) / 8)));
    if (bars.length)
      chart.current?.timeScale().setVisibleLogicalRange({ from: bars.length - visible, to: bars.length + 6 });
  }, [bars]);

  useEffect(() => {
    if (!tick || !series.current) return;
    const bar = applyTick(last.current, timeframe, tick.time, tick.bid);
    if (!bar) return;
    last.current = bar;
    series.current.update(toChartBar(bar));
  }, [tick, timeframe]);

  useEffect(() => {
    const s = series.current;
    if (!s) return;
    const map = priceLines.current;
    const keep = new Set<string>();
    for (const line of lines) {
      keep.add(line.key);
      const price = moving?.key === line.key ? moving.price : line.price;
      const options = {
        price,
        color: LINE_COLORS[line.kind],
        lineWidth: line.kind === 'entry' ? 2 : 1,
        lineStyle: LINE_STYLE[line.kind],
        axisLabelVisible: true,
        title: line.title,
      } as const;
      const existing = map.get(line.key);
      if (existing) existing.applyOptions(options);
      else map.set(line.key, s.createPriceLine(options));
    }
    for (const [key, pl] of map) {
      if (!keep.has(key)) {
        s.removePriceLine(pl);
        map.delete(key);
      }
    }
  }, [lines, moving]);

  /** The price under the pointer, less where in the handle it was grabbed (so the line does not jump). */
  const priceAt = (clientY: number): number | null => {
    const rect = host.current!.getBoundingClientRect();
    return series.current?.coordinateToPrice(clientY - rect.top - (dragging.current?.grab ?? 0)) ?? null;
  };

  const handlers = (line: ChartLine) => ({
    onPointerDown: (e: PointerEvent<HTMLButtonElement>) => {
      e.preventDefault();
      e.currentTarget.setPointerCapture(e.pointerId);
      const box = e.currentTarget.getBoundingClientRect();
      dragging.current = { key: line.key, startY: e.clientY, grab: e.clientY - (box.top + box.height / 2) };
    },
    onPointerMove: (e: PointerEvent<HTMLButtonElement>) => {
      if (dragging.current?.key !== line.key) return;
      const price = priceAt(e.clientY);
      if (price !== null) callbacks.current.onDrag(line, price);
    },
    onPointerUp: (e: PointerEvent<HTMLButtonElement>) => {
      const drag = dragging.current;
      if (drag?.key !== line.key) return;
      // A click (or a tremor) is no move.
      const price = Math.abs(e.clientY - drag.startY) < 3 ? null : priceAt(e.clientY);
      dragging.current = null;
      if (price !== null) callbacks.current.onDrop(line, price);
      else callbacks.current.onCancel();
    },
    onPointerCancel: () => {
      dragging.current = null;
      callbacks.current.onCancel();
    },
    onKeyDown: (e: KeyboardEvent<HTMLButtonElement>) => {
      const from = moving?.key === line.key ? moving.price : line.price;
      if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
        e.preventDefault();
        const by = (e.key === 'ArrowUp' ? 1 : -1) * step * (e.shiftKey ? 10 : 1);
        callbacks.current.onDrag(line, Number((from + by).toFixed(digits)));
      } else if (e.key === 'Enter' && moving?.key === line.key) {
        e.preventDefault();
        callbacks.current.onDrop(line, moving.price);
      } else if (e.key === 'Escape' && moving?.key === line.key) {
        callbacks.current.onCancel();
      }
    },
  });

  return (
    <div className={classes.wrap} style={{ height }}>
      <div ref={host} className={classes.chart} data-testid="dashboard-chart" />
      {lines
        .filter((l) => l.draggable)
        .map((line) => {
          const price = moving?.key === line.key ? moving.price : line.price;
          const name = line.kind === 'sl' ? 'Stop loss' : 'Take profit';
          return (
            <UnstyledButton
              key={line.key}
              ref={(el: HTMLButtonElement | null) => {
                if (el) handles.current.set(line.key, el);
                else handles.current.delete(line.key);
              }}
              className={classes.handle}
              style={{ background: HANDLE_BG[line.kind === 'sl' ? 'sl' : 'tp'] }}
              aria-label={`${name} of ${line.describe} at ${price.toFixed(digits)}: drag, or use the arrow keys and Enter, to move it`}
              data-line={line.key}
              data-price={price.toFixed(digits)}
              {...handlers(line)}
            >
              {line.kind === 'sl' ? 'SL' : 'TP'} ⇕
            </UnstyledButton>
          );
        })}
    </div>
  );
}
