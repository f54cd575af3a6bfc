import { useEffect, useRef } from 'react';
import {
  CandlestickSeries,
  createChart,
  createSeriesMarkers,
  type SeriesMarker,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { BacktestRunDetail, CandlesResponse } from '@tradedesk/contract';

const sec = (ms: number) => Math.floor(ms / 1000) as UTCTimestamp;

/** The tested bars with each trade's entry (arrow) and exit (circle) marked. */
export function PriceChart({
  candles,
  trades,
}: {
  candles: CandlesResponse;
  trades: BacktestRunDetail['trades'];
}) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const chart = createChart(host.current!, { height: 360, autoSize: true });
    const series = chart.addSeries(CandlestickSeries, {});
    series.setData(
      candles.time.map((t, i) => ({
        time: sec(t),
        open: candles.open[i]!,
        high: candles.high[i]!,
        low: candles.low[i]!,
        close: candles.close[i]!,
      })),
    );
    const markers: SeriesMarker<UTCTimestamp>[] = [];
    for (const t of trades) {
      const buy = t.side === 'buy';
      markers.push({
        time: sec(Date.parse(t.entry_time)),
        position: buy ? 'belowBar' : 'aboveBar',
        color: buy ? '#2f9e44' : '#e03131',
        shape: buy ? 'arrowUp' : 'arrowDown',
        text: buy ? 'Buy' : 'Sell',
      });
      markers.push({
        time: sec(Date.parse(t.exit_time)),
        position: buy ? 'aboveBar' : 'belowBar',
        color: '#868e96',
        shape: 'circle',
        text: t.exit_reason.toUpperCase(),
      });
    }
    markers.sort((a, b) => a.time - b.time);
    createSeriesMarkers(series, markers);
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [candles, trades]);
  return <div ref={host} data-testid="price-chart" style={{ width: '100%', height: 360 }} />;
}
