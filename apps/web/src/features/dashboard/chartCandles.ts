import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { candlesResponse } from '@tradedesk/contract';
import { CHART_TIMEFRAMES, TIMEFRAME_MS, type ChartTimeframe, type LiveBar } from '@tradedesk/domain';
import { api } from '../../app/api';

/** Bars the chart reads back from "now": enough to scroll, little enough to load at once. */
export function chartRange(tf: ChartTimeframe, nowMs: number): { from: string; to: string } {
  const store = CHART_TIMEFRAMES[tf];
  const span =
    store === 'MN1'
      ? 36 * 31 * 86_400_000
      : TIMEFRAME_MS[store] * (store === 'W1' ? 104 : store === 'D1' ? 200 : 300);
  const bar = store === 'MN1' ? 31 * 86_400_000 : TIMEFRAME_MS[store];
  return { from: new Date(nowMs - span).toISOString(), to: new Date(nowMs + bar).toISOString() };
}

/**
 * The chart's history of one symbol and timeframe. "Now" is the broker's clock (`as_of` of the
 * account summary: the simulator's for a SIM account), taken once per selection so that the summary's
 * refreshes do not reload the history; live ticks carry the chart on from there. When the summary
 * fails, the browser's clock stands in.
 */
export function useChartCandles(
  accountId: string | null,
  symbol: string | null,
  tf: ChartTimeframe,
  asOf: string | undefined,
  summaryFailed: boolean,
) {
  const selection = `${accountId}|${symbol}|${tf}`;
  const [anchor, setAnchor] = useState<{ selection: string; now: number } | null>(null);
  const now = asOf ? Date.parse(asOf) : summaryFailed ? Date.now() : null;
  if (anchor?.selection !== selection && now !== null && accountId && symbol) {
    setAnchor({ selection, now });
  }
  const ready = anchor?.selection === selection;
  return useQuery<LiveBar[]>({
    queryKey: ['dashboard-chart', 'candles', accountId, symbol, tf, ready ? anchor.now : null],
    enabled: ready && !!accountId && !!symbol,
    staleTime: Infinity,
    retry: false,
    queryFn: async () => {
      const p = new URLSearchParams({
        account: accountId!,
        symbol: symbol!,
        timeframe: tf,
        ...chartRange(tf, anchor!.now),
      });
      const c = await api.get(`/market/candles/?${p.toString()}`, { schema: candlesResponse });
      return c.time.map((time, i) => ({
        time,
        open: c.open[i]!,
        high: c.high[i]!,
        low: c.low[i]!,
        close: c.close[i]!,
      }));
    },
  });
}
