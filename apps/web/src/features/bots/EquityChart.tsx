import { useEffect, useRef } from 'react';
import { AreaSeries, createChart, LineSeries, type UTCTimestamp } from 'lightweight-charts';
import { drawdownSeries } from '@tradedesk/domain';

/** Equity (line, left) and drawdown % (area below zero, right) of a completed run. */
export function EquityChart({ points }: { points: { timestamp: string; equity: number }[] }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const chart = createChart(host.current!, {
      height: 320,
      autoSize: true,
      rightPriceScale: { visible: true },
      leftPriceScale: { visible: true },
    });
    const time = (p: { timestamp: string }) => Math.floor(Date.parse(p.timestamp) / 1000) as UTCTimestamp;
    const equity = chart.addSeries(LineSeries, {
      priceScaleId: 'left',
      color: '#228be6',
      lineWidth: 2,
      title: 'Equity',
    });
    equity.setData(points.map((p) => ({ time: time(p), value: p.equity })));
    const dd = drawdownSeries(points.map((p) => p.equity));
    const drawdown = chart.addSeries(AreaSeries, {
      priceScaleId: 'right',
      lineColor: '#fa5252',
      topColor: 'rgba(250,82,82,0.05)',
      bottomColor: 'rgba(250,82,82,0.4)',
      title: 'Drawdown %',
    });
    drawdown.setData(points.map((p, i) => ({ time: time(p), value: -dd[i]! })));
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [points]);
  return <div ref={host} data-testid="equity-chart" style={{ width: '100%', height: 320 }} />;
}
