import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
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
import { useRiskSettings } from '../risk/risk.api';
import { useWatchlist } from '../watchlist/watchlist.api';
import { JournalTradeModal } from '../journal/JournalTradeModal';
import { ModeValuePanel } from './ModeValuePanel';
import { TargetsEditor } from './TargetsEditor';
import { TradeCalculations } from './TradeCalculations';
import {
  computePlan,
  conversionSymbol,
  DEFAULT_RISK_PERCENT,
  DEFAULT_SL_PIPS,
  DEFAULT_TIMEFRAME,
  defaultStopDistance,
  rowsFromTargets,
  TRADE_TIMEFRAMES,
  TRADERS,
  tradeRequest,
  type TargetRow,
  type TradeForm,
} from './tradePlan';
import { executeFailureMessage, executeTrade, TRADE_TEXT, useAtr, type TradeRequest } from './trades.api';

const SL_MODES = [
  { value: 'distance', label: 'Distance' },
  { value: 'price', label: 'Price' },
  { value: 'atr', label: 'ATR' },
] as const;
const TP_MODES = [
  { value: 'rr_ratio', label: 'RR Ratio' },
  { value: 'distance', label: 'Distance' },
  { value: 'price', label: 'Price' },
] as const;

export interface PlaceTradeModalProps {
  opened: boolean;
  initialAccountId?: string | null;
  initialSymbol?: string;
  onClose: () => void;
  /** After a successful execution, so the caller reloads its positions. */
  onExecuted?: () => void;
}

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

/**
 * Place a Trade (spec section 2): live prices, sizing from risk with the domain's planTrade (the same
 * math the server re-runs), single or multi TP, and Journal This Trade once the trade is placed.
 */
export function PlaceTradeModal({
  opened,
  initialAccountId,
  initialSymbol,
  onClose,
  onExecuted,
}: PlaceTradeModalProps) {
  const [journalTrade, setJournalTrade] = useState<{ id: string; symbol: string } | null>(null);
  return (
    <>
      <Modal
        opened={opened && !journalTrade}
        onClose={onClose}
        title="Place a Trade"
        size="xl"
        closeOnClickOutside={false}
      >
        <TradeFormBody
          initialAccountId={initialAccountId}
          initialSymbol={initialSymbol}
          onExecuted={(tradeId, symbol) => {
            onExecuted?.();
            if (tradeId) setJournalTrade({ id: tradeId, symbol });
            else onClose();
          }}
        />
      </Modal>
      {journalTrade && (
        <JournalTradeModal
          opened
          tradeId={journalTrade.id}
          symbol={journalTrade.symbol}
          onClose={() => {
            // Closing the journal closes the trade modal too (spec section 4).
            setJournalTrade(null);
            onClose();
          }}
        />
      )}
    </>
  );
}

function TradeFormBody({
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
  const symbols = useSymbols(form.accountId || null);
  const tradable = symbols.data?.map((s) => s.symbol) ?? [];
  const convSymbol = conversionSymbol(info, account?.currency, tradable);
  const conv = useLivePrice(form.accountId || null, convSymbol, { paused: executing });
  const needsAtr =
    form.slMode === 'atr' || (form.profitMode === 'multi' && form.targets.some((t) => t.tp_type === 'ATR'));
  const atr = useAtr(form.accountId || null, form.symbol || null, form.timeframe, needsAtr);

  const result = computePlan(form, {
    bid: price.bid,
    ask: price.ask,
    info,
    equity: details.data?.equity,
    equityError: details.isError ? errorMessage(details.error, 'the broker did not answer') : null,
    accountCurrency: details.data?.currency ?? account?.currency,
    maxLotSize: risk.data?.max_lot_size,
    atr: needsAtr ? (atr.isLoading ? undefined : (atr.data ?? null)) : null,
    conversion: convSymbol
      ? { symbol: convSymbol, mid: conv.bid !== null && conv.ask !== null ? (conv.bid + conv.ask) / 2 : null }
      : null,
  });

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
    if (!result.ok) return setFailure(result.message);
    if (result.plan.volume <= 0)
      return setFailure(result.plan.lot.reason ?? 'The risk is too small for the minimum volume.');
    const body = tradeRequest(form, result.plan);
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

  const priceState =
    price.status === 'error'
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
            />
          ))}
        </Group>
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

        <Card withBorder padding="sm">
          <Stack gap="xs">
            <Text fw={600} size="sm">
              Stop Loss
            </Text>
            <ModeValuePanel
              label="Stop loss mode"
              modes={SL_MODES}
              mode={form.slMode}
              onMode={(m) => set('slMode', m)}
              fields={{
                distance: {
                  label: 'Stop Loss Distance (pips)',
                  description:
                    !slTyped.current && slDefault?.symbol === form.symbol ? slDefault.reason : undefined,
                  value: form.slDistance,
                  onChange: (v) => {
                    slTyped.current = true;
                    set('slDistance', v);
                  },
                  decimals: 1,
                },
                price: {
                  label: 'Stop Loss Price',
                  value: form.slPrice,
                  onChange: (v) => set('slPrice', v),
                  decimals: price.digits,
                },
              }}
              custom={
                <Group align="flex-end">
                  <NumberInput
                    label="ATR Multiplier"
                    value={form.atrMultiplier}
                    onChange={(v) => set('atrMultiplier', v)}
                    min={0}
                    step={0.1}
                    decimalScale={2}
                    w={160}
                  />
                  <Text size="sm" pb={8}>
                    ATR ({form.timeframe}):{' '}
                    <b data-testid="atr-value">
                      {atr.isLoading
                        ? '…'
                        : atr.data != null
                          ? atr.data.toFixed(price.digits)
                          : 'not available'}
                    </b>
                  </Text>
                </Group>
              }
            />
          </Stack>
        </Card>

        <Card withBorder padding="sm">
          <Stack gap="xs">
            <Group justify="space-between">
              <Text fw={600} size="sm">
                Take Profit
              </Text>
              <SegmentedControl
                aria-label="Profit mode"
                size="xs"
                data={[
                  { value: 'single', label: 'Single TP' },
                  { value: 'multi', label: 'Multi TP' },
                ]}
                value={form.profitMode}
                onChange={(v) => set('profitMode', v as TradeForm['profitMode'])}
              />
            </Group>
            {form.profitMode === 'single' ? (
              <ModeValuePanel
                label="Take profit mode"
                modes={TP_MODES}
                mode={form.tpMode}
                onMode={(m) => set('tpMode', m)}
                fields={{
                  rr_ratio: {
                    label: 'RR Ratio',
                    value: form.rr,
                    onChange: (v) => set('rr', v),
                    step: 0.25,
                    decimals: 2,
                  },
                  distance: {
                    label: 'Take Profit Distance (pips)',
                    value: form.tpDistance,
                    onChange: (v) => set('tpDistance', v),
                    decimals: 1,
                  },
                  price: {
                    label: 'Take Profit Price',
                    value: form.tpPrice,
                    onChange: (v) => set('tpPrice', v),
                    decimals: price.digits,
                  },
                }}
              />
            ) : (
              <TargetsEditor
                rows={form.targets}
                onChange={(rows) => set('targets', rows)}
                digits={price.digits}
              />
            )}
          </Stack>
        </Card>

        <TradeCalculations result={result} currency={details.data?.currency ?? account?.currency ?? ''} />

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
          disabled={executing || !result.ok}
          color={form.direction === 'BUY' ? 'teal' : 'red'}
        >
          {executing ? TRADE_TEXT.executing : 'Execute Trade'}
        </Button>
      </Stack>
    </form>
  );
}

/** A BUY fills at the ask, a SELL at the bid: each button shows the price it would get. */
const SIDES = [
  { direction: 'BUY', color: 'teal', label: 'Buy (Ask)', testId: 'ask' },
  { direction: 'SELL', color: 'red', label: 'Sell (Bid)', testId: 'bid' },
] as const;

function SideButton({
  side,
  selected,
  onSelect,
  price,
}: {
  side: (typeof SIDES)[number];
  selected: boolean;
  onSelect: () => void;
  price: string;
}) {
  return (
    <Button
      color={side.color}
      variant={selected ? 'filled' : 'light'}
      aria-pressed={selected}
      onClick={onSelect}
      h={56}
    >
      <Stack gap={0} align="center">
        <Text size="xs" fw={600}>
          {side.label}
        </Text>
        <Text fw={700} ff="monospace" data-testid={side.testId}>
          {price}
        </Text>
      </Stack>
    </Button>
  );
}
