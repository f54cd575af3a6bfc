import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
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
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import {
  currencyDecimals,
  DEFAULT_ATR_MULTIPLIER,
  DEFAULT_TARGETS,
  targetsFromProfile,
  type TradePlan,
} from '@tradedesk/domain';
import { errorMessage } from '../../app/errors';
import { useAccountDetails, useAccounts } from '../accounts/accounts.api';
import { SymbolPicker } from '../market/SymbolPicker';
import { useSymbols } from '../market/symbols.api';
import { useLivePrice } from '../market/useLivePrice';
import { useRiskSettings } from '../risk/risk.api';
import { useWatchlist } from '../watchlist/watchlist.api';
import { JournalTradeModal } from '../journal/JournalTradeModal';
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
import {
  executeFailureMessage,
  executeTrade,
  formatLots,
  TRADE_TEXT,
  useAtr,
  type TradeRequest,
} from './trades.api';

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
          <Button
            color="teal"
            variant={form.direction === 'BUY' ? 'filled' : 'light'}
            aria-pressed={form.direction === 'BUY'}
            onClick={() => set('direction', 'BUY')}
            h={56}
          >
            <Stack gap={0} align="center">
              <Text size="xs" fw={600}>
                Buy (Ask)
              </Text>
              <Text fw={700} ff="monospace" data-testid="ask">
                {price.format(price.ask)}
              </Text>
            </Stack>
          </Button>
          <Button
            color="red"
            variant={form.direction === 'SELL' ? 'filled' : 'light'}
            aria-pressed={form.direction === 'SELL'}
            onClick={() => set('direction', 'SELL')}
            h={56}
          >
            <Stack gap={0} align="center">
              <Text size="xs" fw={600}>
                Sell (Bid)
              </Text>
              <Text fw={700} ff="monospace" data-testid="bid">
                {price.format(price.bid)}
              </Text>
            </Stack>
          </Button>
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
            <NumberInput
              label="Risk (%)"
              value={form.riskPercent}
              onChange={(v) => set('riskPercent', v)}
              decimalScale={2}
              step={0.1}
              min={0}
              max={100}
            />
          )}
        </SimpleGrid>
        {form.orderType === 'LIMIT' && (
          <NumberInput
            label="Risk (%)"
            value={form.riskPercent}
            onChange={(v) => set('riskPercent', v)}
            decimalScale={2}
            step={0.1}
            min={0}
            max={100}
            w={200}
          />
        )}

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
            <SegmentedControl
              aria-label="Stop loss mode"
              data={[
                { value: 'distance', label: 'Distance' },
                { value: 'price', label: 'Price' },
                { value: 'atr', label: 'ATR' },
              ]}
              value={form.slMode}
              onChange={(v) => set('slMode', v as TradeForm['slMode'])}
            />
            {form.slMode === 'distance' && (
              <NumberInput
                label="Stop Loss Distance (pips)"
                description={
                  !slTyped.current && slDefault?.symbol === form.symbol ? slDefault.reason : undefined
                }
                value={form.slDistance}
                onChange={(v) => {
                  slTyped.current = true;
                  set('slDistance', v);
                }}
                min={0}
                decimalScale={1}
              />
            )}
            {form.slMode === 'price' && (
              <NumberInput
                label="Stop Loss Price"
                value={form.slPrice}
                onChange={(v) => set('slPrice', v)}
                min={0}
                decimalScale={price.digits}
              />
            )}
            {form.slMode === 'atr' && (
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
            )}
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
              <>
                <SegmentedControl
                  aria-label="Take profit mode"
                  data={[
                    { value: 'rr_ratio', label: 'RR Ratio' },
                    { value: 'distance', label: 'Distance' },
                    { value: 'price', label: 'Price' },
                  ]}
                  value={form.tpMode}
                  onChange={(v) => set('tpMode', v as TradeForm['tpMode'])}
                />
                {form.tpMode === 'rr_ratio' && (
                  <NumberInput
                    label="RR Ratio"
                    value={form.rr}
                    onChange={(v) => set('rr', v)}
                    min={0}
                    step={0.25}
                    decimalScale={2}
                  />
                )}
                {form.tpMode === 'distance' && (
                  <NumberInput
                    label="Take Profit Distance (pips)"
                    value={form.tpDistance}
                    onChange={(v) => set('tpDistance', v)}
                    min={0}
                    decimalScale={1}
                  />
                )}
                {form.tpMode === 'price' && (
                  <NumberInput
                    label="Take Profit Price"
                    value={form.tpPrice}
                    onChange={(v) => set('tpPrice', v)}
                    min={0}
                    decimalScale={price.digits}
                  />
                )}
              </>
            ) : (
              <TargetsEditor
                rows={form.targets}
                onChange={(rows) => set('targets', rows)}
                digits={price.digits}
              />
            )}
          </Stack>
        </Card>

        <Calculations result={result} currency={details.data?.currency ?? account?.currency ?? ''} />

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

function Calculations({ result, currency }: { result: ReturnType<typeof computePlan>; currency: string }) {
  const money = (v: number) => `${v.toFixed(currencyDecimals(currency || 'USD'))} ${currency}`;
  return (
    <Card withBorder padding="sm" component="section" aria-label="Trade calculations">
      <Title order={5} mb="xs">
        Trade Calculations
      </Title>
      {!result.ok ? (
        <Text size="sm" c={result.waiting ? 'dimmed' : 'red'}>
          {result.message}
        </Text>
      ) : (
        <PlanFigures plan={result.plan} entry={result.entry} money={money} />
      )}
    </Card>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} size="sm" data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

function PlanFigures({
  plan,
  entry,
  money,
}: {
  plan: TradePlan;
  entry: number;
  money: (v: number) => string;
}) {
  const p5 = (v: number) => v.toFixed(5);
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Figure label="Lot Size" value={formatLots(plan.volume)} testId="calc-lot-size" />
        <Figure label="Entry" value={p5(entry)} />
        <Figure
          label="Stop Loss"
          value={`${p5(plan.stopLoss.price)} (${plan.stopLoss.pips.toFixed(1)} pips)`}
        />
        <Figure
          label="Take Profit"
          value={plan.takeProfit ? p5(plan.takeProfit.price) : `${plan.targets?.length ?? 0} targets`}
        />
        <Figure
          label="Risk"
          value={`${money(plan.projectedLoss)} (−1R, ${plan.riskPercentActual.toFixed(2)}%)`}
          testId="calc-risk"
        />
        <Figure
          label="Reward"
          value={`${money(plan.projectedProfit)} (+${plan.rrRatio.toFixed(2)}R)`}
          testId="calc-reward"
        />
        <Figure label="RR Ratio" value={plan.rrRatio.toFixed(2)} />
      </SimpleGrid>
      {plan.targets && (
        <Stack gap={2}>
          {plan.targets.map((t) => (
            <Text key={t.rank} size="xs">
              Target {t.rank}: {formatLots(t.volume)} lots at {p5(t.price)} ({t.r_multiple.toFixed(2)}R)
            </Text>
          ))}
        </Stack>
      )}
      {plan.lot.reason && (
        <Badge
          color={plan.lot.exceedsRequestedRisk ? 'orange' : 'gray'}
          variant="light"
          style={{ textTransform: 'none' }}
        >
          {plan.lot.reason}
        </Badge>
      )}
    </Stack>
  );
}

function TargetsEditor({
  rows,
  onChange,
  digits,
}: {
  rows: TargetRow[];
  onChange: (rows: TargetRow[]) => void;
  digits: number;
}) {
  const update = (i: number, patch: Partial<TargetRow>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const total = rows.reduce((s, r) => s + (r.share === '' ? 0 : Number(r.share)), 0);
  return (
    <Stack gap="xs" role="group" aria-label="Partial targets">
      {rows.map((r, i) => (
        <Group key={i} align="flex-end" wrap="nowrap" gap="xs">
          <NumberInput
            label={`Target ${i + 1} share (%)`}
            value={r.share}
            onChange={(v) => update(i, { share: v })}
            min={0}
            max={100}
            decimalScale={2}
            w={150}
          />
          <Select
            label={`Target ${i + 1} type`}
            data={[
              { value: 'RR', label: 'RR' },
              { value: 'ATR', label: 'ATR ×' },
              { value: 'PRICE', label: 'Price' },
            ]}
            value={r.tp_type}
            onChange={(v) =>
              v &&
              update(i, {
                tp_type: v as TargetRow['tp_type'],
                value: v === 'ATR' ? DEFAULT_ATR_MULTIPLIER : '',
              })
            }
            allowDeselect={false}
            w={110}
          />
          <NumberInput
            label={
              r.tp_type === 'RR'
                ? `Target ${i + 1} R`
                : r.tp_type === 'ATR'
                  ? `Target ${i + 1} ATR multiplier`
                  : `Target ${i + 1} price`
            }
            value={r.value}
            onChange={(v) => update(i, { value: v })}
            min={0}
            decimalScale={r.tp_type === 'PRICE' ? digits : 2}
            style={{ flex: 1 }}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove target ${i + 1}`}
            disabled={rows.length <= 1}
            onClick={() => onChange(rows.filter((_, j) => j !== i))}
            mb={4}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      <Group justify="space-between">
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} />}
          disabled={rows.length >= 10}
          onClick={() => onChange([...rows, { share: 0, tp_type: 'RR', value: 2 }])}
        >
          Add Target
        </Button>
        <Text size="xs" c={Math.abs(total - 100) < 1e-6 ? 'dimmed' : 'red'}>
          Shares total {Math.round(total * 100) / 100}%
        </Text>
      </Group>
    </Stack>
  );
}
