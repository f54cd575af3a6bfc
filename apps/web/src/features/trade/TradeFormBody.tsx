import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { DEFAULT_ATR_MULTIPLIER, DEFAULT_TARGETS, targetsFromProfile } from '@tradedesk/domain';
import { errorMessage } from '../../app/errors';
import { useAccountDetails, useAccounts } from '../accounts/accounts.api';
import { SymbolPicker } from '../market/SymbolPicker';
import { useSymbols } from '../market/symbols.api';
import { useLivePrice } from '../market/useLivePrice';
import { MarketStateBadge, useMarketState } from '../market/MarketStateBadge';
import { MARKET_NOTICE_ID, MarketNotice } from './MarketNotice';
import { useRiskSettings } from '../risk/risk.api';
import { useWatchlist } from '../watchlist/watchlist.api';
import { SideButton, SIDES } from './SideButton';
import { StopLossPanel } from './StopLossPanel';
import { TakeProfitPanel } from './TakeProfitPanel';
import { TradeCalculations } from './TradeCalculations';
import {
  computePlan,
  conversionSymbols,
  DEFAULT_RISK_PERCENT,
  DEFAULT_SL_PIPS,
  DEFAULT_TIMEFRAME,
  defaultStopDistance,
  planRefusal,
  rowsFromTargets,
  TRADE_TIMEFRAMES,
  TRADERS,
  tradeRequest,
  type TargetRow,
  type TradeForm,
} from './tradePlan';
import { executeFailureMessage, executeTrade, TRADE_TEXT, useAtr, type TradeRequest } from './trades.api';

function defaultTargets(partials: Array<{ r_multiple: number; size_pct: number }> | undefined): TargetRow[] {
  if (partials && partials.length) {
    try {
      return rowsFromTargets(targetsFromProfile(partials));
    } catch {
      // An invalid profile falls back to the spec's default plan.
    }
  }
  return rowsFromTargets(DEFAULT_TARGETS);
}

/** The Place a Trade form: the panels, the plan (domain planTrade) and the execute call. */
export function TradeFormBody({
  initialAccountId,
  initialSymbol,
  onExecuted,
}: {
  initialAccountId?: string | null;
  initialSymbol?: string;
  onExecuted: (tradeId: string | null, symbol: string) => void;
}) {
  const accounts = useAccounts();
  const watchlist = useWatchlist();
  const [form, setForm] = useState<TradeForm>({
    accountId: initialAccountId ?? '',
    symbol: initialSymbol ?? 'EURUSD',
    direction: 'BUY',
    orderType: 'MARKET',
    limitPrice: '',
    riskPercent: DEFAULT_RISK_PERCENT,
    slMode: 'distance',
    slDistance: DEFAULT_SL_PIPS,
    slPrice: '',
    atrMultiplier: DEFAULT_ATR_MULTIPLIER,
    profitMode: 'single',
    tpMode: 'rr_ratio',
    rr: 2,
    tpDistance: 40,
    tpPrice: '',
    targets: rowsFromTargets(DEFAULT_TARGETS),
    timeframe: DEFAULT_TIMEFRAME,
    reason: '',
    trader: TRADERS[0],
  });
  const set = <K extends keyof TradeForm>(key: K, value: TradeForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const list = accounts.data ?? [];
    if (list.length && !list.some((a) => a.id === form.accountId)) set('accountId', list[0]!.id);
  }, [accounts.data, form.accountId]);

  const account = accounts.data?.find((a) => a.id === form.accountId);
  const details = useAccountDetails(form.accountId, !!form.accountId);
  const risk = useRiskSettings(form.accountId || null);

  // Defaults from the account's risk settings: its risk % and its default TP profile's targets.
  const appliedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!risk.data || appliedFor.current === form.accountId) return;
    appliedFor.current = form.accountId;
    setForm((f) => ({
      ...f,
      riskPercent: risk.data.risk_percent ?? DEFAULT_RISK_PERCENT,
      targets: defaultTargets(risk.data.default_tp_profile?.partial_targets),
    }));
  }, [risk.data, form.accountId]);

  const execute = useMutation({
    mutationFn: ({ body, key }: { body: TradeRequest; key: string }) => executeTrade(body, key),
  });
  const executing = execute.isPending;
  // The feed pauses while the order is on its way (spec section 4).
  const price = useLivePrice(form.accountId || null, form.symbol || null, { paused: executing });
  const info = price.info;
  const market = useMarketState(price, form.symbol);
  // An error belongs to the symbol and account it was made for: another choice starts clean.
  useEffect(() => setFailure(null), [form.accountId, form.symbol]);
  const symbols = useSymbols(form.accountId || null);
  const tradable = symbols.data?.map((s) => s.symbol) ?? [];
  // The pairs that convert the quote currency: the direct one, or both legs of the cross through USD.
  const convSymbols = conversionSymbols(info, details.data?.currency ?? account?.currency, tradable);
  const conv1 = useLivePrice(form.accountId || null, convSymbols[0] ?? null, { paused: executing });
  const conv2 = useLivePrice(form.accountId || null, convSymbols[1] ?? null, { paused: executing });
  const needsAtr =
    form.slMode === 'atr' || (form.profitMode === 'multi' && form.targets.some((t) => t.tp_type === 'ATR'));
  const atr = useAtr(form.accountId || null, form.symbol || null, form.timeframe, needsAtr);

  const result = computePlan(form, {
    bid: price.bid,
    ask: price.ask,
    info,
    infoError: price.infoError,
    equity: details.data?.equity,
    equityError: details.isError ? errorMessage(details.error, 'the broker did not answer') : null,
    accountCurrency: details.data?.currency ?? account?.currency,
    maxLotSize: risk.data?.max_lot_size,
    atr: needsAtr ? (atr.isLoading ? undefined : (atr.data ?? null)) : null,
    conversion: convSymbols.map((symbol, i) => {
      const c = i === 0 ? conv1 : conv2;
      return { symbol, mid: c.bid !== null && c.ask !== null ? (c.bid + c.ask) / 2 : null };
    }),
    leverage: details.data?.leverage,
    freeMargin: details.data?.free_margin,
  });
  // The minimum volume risks more than asked: placed only once the trader ticks the confirmation.
  const [minVolumeOk, setMinVolumeOk] = useState(false);
  const overRisk = result.ok && result.plan.lot.exceedsRequestedRisk;

  // The stop distance follows the symbol (10 × its spread at the first quote) until the trader types one.
  const [slDefault, setSlDefault] = useState<{ symbol: string; reason: string } | null>(null);
  const slTyped = useRef(false);
  useEffect(() => {
    if (slTyped.current || !info || info.symbol !== form.symbol || price.bid === null || price.ask === null)
      return;
    if (slDefault?.symbol === form.symbol) return;
    const d = defaultStopDistance(info, price.bid, price.ask);
    setSlDefault({ symbol: form.symbol, reason: d.reason });
    setForm((f) => ({ ...f, slDistance: d.pips }));
  }, [info, form.symbol, price.bid, price.ask, slDefault]);
  const setSymbol = useCallback((v: string) => setForm((f) => ({ ...f, symbol: v })), []);

  // A retried request (same body) reuses its Idempotency-Key, so it can never place a second trade.
  const lastAttempt = useRef<{ json: string; key: string } | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (executing) return;
    setFailure(null);
    if (market.blocked) return setFailure(market.blocked);
    if (!result.ok) return setFailure(result.message);
    const { plan } = result;
    const refusal = planRefusal(
      plan,
      { freeMargin: details.data?.free_margin, currency: details.data?.currency },
      minVolumeOk,
    );
    if (refusal) return setFailure(refusal);
    const body = tradeRequest(form, plan, minVolumeOk);
    const json = JSON.stringify(body);
    const key = lastAttempt.current?.json === json ? lastAttempt.current.key : crypto.randomUUID();
    lastAttempt.current = { json, key };
    try {
      const res = await execute.mutateAsync({ body, key });
      lastAttempt.current = null;
      notifications.show({ color: 'teal', message: TRADE_TEXT.executed });
      onExecuted(res?.trade_id ?? null, form.symbol);
    } catch (err) {
      setFailure(executeFailureMessage(err));
    }
  }

  // Beside the order type for a market order; on its own row under the entry price of a limit order.
  const riskInput = (
    <NumberInput
      label="Risk (%)"
      value={form.riskPercent}
      onChange={(v) => set('riskPercent', v)}
      decimalScale={2}
      step={0.1}
      min={0}
      max={100}
    />
  );

  // An unavailable broker or a closed market is said once, by the notice under Buy/Sell.
  const priceState =
    market.state.kind === 'unavailable' || market.state.kind === 'closed'
      ? null
      : price.status === 'error'
        ? (price.error ?? 'The price feed was refused.')
        : price.status === 'paused'
          ? 'Price feed paused while the trade executes.'
          : price.status === 'reconnecting'
            ? 'Reconnecting to the price feed…'
            : price.bid === null
              ? 'Waiting for a live price…'
              : null;

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Account"
            data={(accounts.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.platform})` }))}
            value={form.accountId || null}
            onChange={(v) => v && set('accountId', v)}
            allowDeselect={false}
          />
          <SymbolPicker
            accountId={form.accountId || null}
            value={form.symbol}
            onChange={setSymbol}
            suggestions={watchlist.items.map((w) => w.instrument.toUpperCase())}
          />
        </SimpleGrid>

        <Group grow>
          {SIDES.map((side) => (
            <SideButton
              key={side.direction}
              side={side}
              selected={form.direction === side.direction}
              onSelect={() => set('direction', side.direction)}
              price={price.format(side.direction === 'BUY' ? price.ask : price.bid)}
              disabledBy={market.blocked ? MARKET_NOTICE_ID : null}
            />
          ))}
        </Group>
        <Group gap="xs" justify="flex-end">
          <MarketStateBadge view={market} symbol={form.symbol} />
        </Group>
        <MarketNotice view={market} />
        {priceState && (
          <Text size="xs" c={price.status === 'error' ? 'red' : 'dimmed'} role="status">
            {priceState}
          </Text>
        )}

        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Select
            label="Timeframe"
            data={[...TRADE_TIMEFRAMES]}
            value={form.timeframe}
            onChange={(v) => v && set('timeframe', v)}
            allowDeselect={false}
          />
          <Select
            label="Order Type"
            data={['MARKET', 'LIMIT']}
            value={form.orderType}
            onChange={(v) => v && set('orderType', v as TradeForm['orderType'])}
            allowDeselect={false}
          />
          {form.orderType === 'LIMIT' ? (
            <NumberInput
              label="Entry Price"
              value={form.limitPrice}
              onChange={(v) => set('limitPrice', v)}
              decimalScale={price.digits}
              min={0}
            />
          ) : (
            riskInput
          )}
        </SimpleGrid>
        {form.orderType === 'LIMIT' && <Box w={200}>{riskInput}</Box>}

        <Group gap="lg" aria-label="Symbol info" role="group">
          <Text size="sm">
            Pip size: <b>{info ? info.pip_size : '—'}</b>
          </Text>
          <Text size="sm">
            Tick size: <b>{info ? info.tick_size : '—'}</b>
          </Text>
          <Text size="sm">
            Contract size: <b>{info ? info.contract_size.toLocaleString() : '—'}</b>
          </Text>
        </Group>

        <StopLossPanel
          form={form}
          set={set}
          digits={price.digits}
          atr={{ loading: atr.isLoading, value: atr.data }}
          defaultReason={!slTyped.current && slDefault?.symbol === form.symbol ? slDefault.reason : undefined}
          onDistanceTyped={(v) => {
            slTyped.current = true;
            set('slDistance', v);
          }}
        />

        <TakeProfitPanel form={form} set={set} digits={price.digits} />

        <TradeCalculations
          result={result}
          currency={details.data?.currency ?? account?.currency ?? ''}
          freeMargin={details.data?.free_margin ?? null}
        />
        {overRisk && (
          <Checkbox
            label="Place it at the symbol's minimum volume anyway (more risk than asked)"
            checked={minVolumeOk}
            onChange={(e) => setMinVolumeOk(e.currentTarget.checked)}
          />
        )}

        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Textarea
            label="Brief Reason"
            value={form.reason}
            onChange={(e) => set('reason', e.currentTarget.value)}
            autosize
            minRows={1}
            maxLength={2000}
          />
          <Select
            label="Trader"
            data={[...TRADERS]}
            value={form.trader}
            onChange={(v) => v && set('trader', v)}
            allowDeselect={false}
          />
        </SimpleGrid>

        {failure && (
          <Alert color="red" variant="light" role="alert" title="Trade not placed">
            {failure}
          </Alert>
        )}
        <Button
          type="submit"
          size="md"
          disabled={executing || !result.ok || !!market.blocked}
          aria-describedby={market.blocked ? MARKET_NOTICE_ID : undefined}
          color={form.direction === 'BUY' ? 'teal' : 'red'}
        >
          {executing ? TRADE_TEXT.executing : 'Execute Trade'}
        </Button>
      </Stack>
    </form>
  );
}
