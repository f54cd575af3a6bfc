import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Card,
  Group,
  Loader,
  Select,
  Text,
  Title,
  useComputedColorScheme,
  useMatches,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import { CHART_TIMEFRAME_NAMES, TRADE_MESSAGES } from '@tradedesk/contract';
import { CHART_TIMEFRAMES, type ChartTimeframe } from '@tradedesk/domain';
import { errorMessage } from '../../app/errors';
import { notifications } from '../../app/notify';
import { useLivePrice } from '../market/useLivePrice';
import { MarketStateBadge, MarketStateDetail, useMarketState } from '../market/MarketStateBadge';
import { useSymbols } from '../market/symbols.api';
import {
  actionFailure,
  openPositionsKey,
  TRADE_TEXT,
  updateStopLoss,
  updateTakeProfit,
  useOpenPositions,
} from '../trade/trades.api';
import { useAccountSummary, useChartPendingOrders } from './accountSummary.api';
import { CandleChart, type Tick } from './CandleChart';
import { chartLines, movedPrice, moveText, type ChartLine } from './chart-lines';
import { useChartCandles } from './chartCandles';

export const CHART_TEXT = {
  candlesFailed: 'Failed to load the price history',
  noCandles: (symbol: string, tf: string) => `No price history for ${symbol} on ${tf} yet.`,
} as const;

type Moving = { key: string; price: number; saving: boolean } | null;

/**
 * The dashboard's price chart: candles of the chosen symbol and timeframe from the candle store, the
 * live bid folded into the last bar, and the lines of the account's positions and pending orders.
 * A stop or target dragged to a new price is saved, after a confirmation, through the same calls as
 * the positions table's Update SL / Update TP (the server checks it); a refused move snaps back and
 * shows the server's reason.
 */
export default function DashboardChart({ accountId }: { accountId: string | null }) {
  const qc = useQueryClient();
  const dark = useComputedColorScheme('light') === 'dark';
  const height = useMatches({ base: 300, sm: 420 });
  const positions = useOpenPositions(accountId);
  const orders = useChartPendingOrders(accountId);
  const symbols = useSymbols(accountId);
  const summary = useAccountSummary(accountId);
  const [chosen, setChosen] = useState<string | null>(null);
  const [timeframe, setTimeframe] = useState<ChartTimeframe>('15m');
  const [moving, setMoving] = useState<Moving>(null);
  const [failure, setFailure] = useState<string | null>(null);

  // Until the trader picks one: the symbol of the first open position, else the broker's first.
  const symbol = chosen ?? positions.data?.[0]?.instrument ?? symbols.data?.[0]?.symbol ?? null;
  useEffect(() => {
    setChosen(null);
    setMoving(null);
    setFailure(null);
  }, [accountId]);

  const live = useLivePrice(accountId, symbol);
  // The chart's prices say whether the market is open, closed (until when), stale or unavailable.
  const market = useMarketState(live, symbol ?? '');
  const digits = live.info?.digits ?? live.digits;
  const step = live.info?.pip_size ?? 10 ** -digits;
  const candles = useChartCandles(accountId, symbol, timeframe, summary.data?.as_of, summary.isError);
  const tick = useMemo<Tick | null>(
    () => (live.bid !== null && live.time ? { time: Date.parse(live.time), bid: live.bid } : null),
    [live.bid, live.time],
  );
  const lines = useMemo(
    () => (symbol ? chartLines(symbol, positions.data ?? [], orders.data ?? []) : []),
    [symbol, positions.data, orders.data],
  );

  async function save(line: ChartLine, price: number) {
    setMoving({ key: line.key, price, saving: true });
    try {
      if (line.kind === 'sl') {
        await updateStopLoss({
          trade_id: line.tradeId!,
          sl_update_type: 'specific_price',
          specific_price: price,
        });
      } else {
        await updateTakeProfit(line.tradeId!, price);
      }
      notifications.show({
        color: 'teal',
        message: line.kind === 'sl' ? TRADE_MESSAGES.slUpdated : TRADE_MESSAGES.tpUpdated,
      });
      await qc.invalidateQueries({ queryKey: openPositionsKey(accountId ?? '') });
    } catch (err) {
      const reason = actionFailure(err, line.kind === 'sl' ? TRADE_TEXT.slFailed : TRADE_TEXT.tpFailed);
      setFailure(reason);
      notifications.show({ color: 'red', message: reason });
    } finally {
      setMoving(null);
    }
  }

  function drop(line: ChartLine, raw: number) {
    const price = movedPrice(line, raw, digits);
    if (price === null) return setMoving(null);
    setMoving({ key: line.key, price, saving: false });
    const text = moveText({ line, price }, digits);
    let confirmed = false;
    modals.openConfirmModal({
      title: text.title,
      children: <Text size="sm">{text.body}</Text>,
      labels: { confirm: text.confirm, cancel: 'Cancel' },
      onConfirm: () => {
        confirmed = true;
        void save(line, price);
      },
      // Cancel, Escape or the close button: the line goes back to where it was.
      onClose: () => {
        if (!confirmed) setMoving(null);
      },
    });
  }

  const tfLabel = timeframe;
  const bars = candles.data ?? [];
  return (
    <Card withBorder padding="sm" component="section" aria-labelledby="dashboard-chart-title">
      <Group justify="space-between" align="flex-end" mb="xs" gap="xs">
        <Group gap="xs" align="center">
          <Title order={2} size="h4" id="dashboard-chart-title">
            Chart
          </Title>
          {symbol && <MarketStateBadge view={market} symbol={symbol} />}
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Select
            label="Symbol"
            size="xs"
            w={130}
            searchable
            data={(symbols.data ?? []).map((s) => s.symbol)}
            value={symbol}
            onChange={(v) => {
              if (v) setChosen(v);
              setFailure(null);
            }}
            allowDeselect={false}
            nothingFoundMessage="No such symbol"
          />
          <Select
            label="Timeframe"
            size="xs"
            w={90}
            data={CHART_TIMEFRAME_NAMES}
            value={timeframe}
            onChange={(v) => v && v in CHART_TIMEFRAMES && setTimeframe(v as ChartTimeframe)}
            allowDeselect={false}
          />
        </Group>
      </Group>
      {symbol && <MarketStateDetail view={market} />}
      {failure && (
        <Alert
          color="red"
          variant="light"
          role="alert"
          mb="xs"
          withCloseButton
          onClose={() => setFailure(null)}
        >
          {failure}
        </Alert>
      )}
      {candles.isError && (
        <Alert color="red" variant="light" role="alert" mb="xs">
          {errorMessage(candles.error, CHART_TEXT.candlesFailed)}
        </Alert>
      )}
      <div style={{ position: 'relative' }}>
        <CandleChart
          bars={bars}
          timeframe={CHART_TIMEFRAMES[timeframe]}
          tick={candles.data ? tick : null}
          lines={lines}
          moving={moving}
          digits={digits}
          step={step}
          height={height}
          dark={dark}
          onDrag={(line, price) => !moving?.saving && setMoving({ key: line.key, price, saving: false })}
          onDrop={drop}
          onCancel={() => setMoving(null)}
        />
        {(candles.isLoading || (accountId && !symbol)) && (
          <Group justify="center" pos="absolute" inset={0} style={{ pointerEvents: 'none' }}>
            <Loader size="sm" aria-label="Loading the chart" />
          </Group>
        )}
        {candles.isSuccess && bars.length === 0 && symbol && (
          <Group justify="center" pos="absolute" inset={0} style={{ pointerEvents: 'none' }}>
            <Text c="dimmed" size="sm">
              {CHART_TEXT.noCandles(symbol, tfLabel)}
            </Text>
          </Group>
        )}
      </div>
    </Card>
  );
}
