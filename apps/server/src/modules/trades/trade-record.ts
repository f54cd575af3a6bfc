import {
  currencyDecimals,
  profitLoss,
  roundToDigits,
  sumMinor,
  toMinor,
  type TargetSpec,
  type TradePlan,
} from '@tradedesk/domain';
import type { TradeExecuteRequest } from '@tradedesk/contract';
import type { SymbolInfo } from '../../brokers/types';
import type { TradingAccountsTable, TradesTable } from '../../db/schema';
import { newId, nowIso } from '../../lib/ids';
import { parseTargets, type ManagedTarget } from './trades.model';

/** What an opening fill tells us; it turns into stops, targets and R figures. */
export interface FillInfo {
  position_id: string;
  order_id?: string;
  price: number;
  time: string;
  volume?: number;
  stop_loss?: number | null;
  take_profit?: number | null;
}

/**
 * The plan's targets as the server manages them: every one but the last is closed by the watcher,
 * the last is the broker's take profit. When the targets leave a rest (keep_rest_open), the watcher
 * closes every one of them and the rest has no take profit.
 */
function managedTargets(plan: TradePlan, specs: readonly TargetSpec[]): ManagedTarget[] | null {
  if (!plan.targets) return null;
  const withVolume = plan.targets.filter((t) => t.volume > 0);
  const rest = plan.volume - withVolume.reduce((a, t) => a + t.volume, 0) > 1e-9;
  const last = rest ? undefined : withVolume[withVolume.length - 1];
  return plan.targets.map((t) => {
    const spec = specs.find((s) => s.rank === t.rank);
    return {
      rank: t.rank,
      share: t.share,
      tp_type: t.tp_type,
      rr: spec?.rr ?? null,
      atr_multiplier: spec?.atr_multiplier ?? null,
      price: t.price,
      r_multiple: t.r_multiple,
      distance: t.distance,
      volume: t.volume,
      managed_by: t === last ? 'broker' : 'server',
      status: t.volume > 0 ? 'pending' : 'skipped',
      closed_at: null,
      close_price: null,
      closed_volume: null,
    };
  });
}

/**
 * The trade row of a planned request, in state `submitting`: written before the order leaves, so
 * that no broker position can exist without its row.
 */
export function submittingRow(args: {
  account: TradingAccountsTable;
  currency: string;
  body: TradeExecuteRequest;
  plan: TradePlan;
  specs: readonly TargetSpec[];
  symbol: string;
  entry: number;
  clientOrderId: string;
}): TradesTable {
  const { account, body, plan } = args;
  const orderType = body.order_type ?? 'MARKET';
  const targets = managedTargets(plan, args.specs);
  const tp = targets
    ? (targets.find((t) => t.managed_by === 'broker')?.price ?? null)
    : (plan.takeProfit?.price ?? null);
  const hasTarget = tp !== null || (targets?.length ?? 0) > 0;
  const now = nowIso();
  return {
    id: newId(),
    user_id: account.user_id,
    account_id: account.id,
    source: 'app',
    client_order_id: args.clientOrderId,
    order_id: null,
    position_id: null,
    symbol: args.symbol,
    direction: body.direction,
    order_type: orderType,
    status: 'submitting',
    volume: plan.volume,
    remaining_volume: plan.volume,
    limit_price: orderType === 'LIMIT' ? args.entry : null,
    entry_price: null,
    stop_loss: plan.stopLoss.price,
    take_profit: tp,
    sl_distance: plan.stopLoss.distance,
    initial_risk_minor: plan.riskMinor,
    risk_percent: body.risk_percent,
    rr_ratio: hasTarget ? plan.rrRatio : null,
    projected_profit_minor: hasTarget ? plan.rewardMinor : null,
    projected_loss_minor: plan.riskMinor,
    atr_multiplier: body.atr_multiplier ?? null,
    reason: (body.reason ?? '').trim(),
    trader: (body.trader ?? '').trim(),
    timeframe: (body.timeframe ?? '').trim(),
    targets: targets ? JSON.stringify(targets) : null,
    currency: args.currency,
    created_at: now,
    opened_at: null,
    closed_at: null,
    actual_pl_minor: null,
    updated_at: now,
  };
}

/**
 * The fields of a trade once its order filled at `fill.price`: stops and RR/ATR targets move with the
 * fill (PRICE targets stay where they were put); one R and the projections are money in minor units.
 */
export function filledFields(
  trade: TradesTable,
  fill: FillInfo,
  symbol: SymbolInfo,
  rate: number,
): Partial<TradesTable> {
  const entry = fill.price;
  const volume = fill.volume ?? trade.volume;
  const distance = trade.sl_distance;
  const decimals = currencyDecimals(trade.currency);
  const away = (d: number, sign: 1 | -1) =>
    roundToDigits(entry + (trade.direction === 'BUY' ? sign * d : -sign * d), symbol.digits);
  const stopLoss =
    fill.stop_loss !== undefined ? fill.stop_loss : distance ? away(distance, -1) : trade.stop_loss;
  const pnlMinor = (exit: number, lots: number) =>
    toMinor(
      profitLoss({
        side: trade.direction,
        entry,
        exit,
        volume: lots,
        contract_size: symbol.contract_size,
        quoteToAccountRate: rate,
        accountCurrency: trade.currency,
      }),
      decimals,
    );
  const stored = parseTargets(trade);
  let targets: ManagedTarget[] | null = null;
  let takeProfit = fill.take_profit !== undefined ? fill.take_profit : trade.take_profit;
  let projectedMinor: number | null = takeProfit !== null ? pnlMinor(takeProfit, volume) : null;
  if (stored.length > 0 && distance) {
    targets = stored.map((t) => {
      if (t.tp_type === 'PRICE' || t.status !== 'pending') return t;
      const price = away(t.tp_type === 'RR' ? (t.rr ?? t.r_multiple) * distance : t.distance, 1);
      return { ...t, price, r_multiple: roundToDigits(Math.abs(price - entry) / distance, 2) };
    });
    const last = targets.find((t) => t.managed_by === 'broker');
    if (last && (takeProfit === null || fill.take_profit === undefined)) takeProfit = last.price;
    projectedMinor = sumMinor(targets.map((t) => (t.volume > 0 ? pnlMinor(t.price, t.volume) : 0)));
  }
  const lossMinor = stopLoss !== null ? Math.max(0, -pnlMinor(stopLoss, volume)) : null;
  return {
    status: 'open',
    position_id: fill.position_id,
    ...(fill.order_id ? { order_id: fill.order_id } : {}),
    entry_price: entry,
    volume,
    remaining_volume: volume,
    stop_loss: stopLoss,
    take_profit: takeProfit,
    sl_distance: stopLoss !== null ? Math.abs(entry - stopLoss) : distance,
    initial_risk_minor: lossMinor,
    projected_loss_minor: lossMinor,
    projected_profit_minor: projectedMinor,
    rr_ratio:
      stopLoss !== null && takeProfit !== null && stopLoss !== entry && targets === null
        ? roundToDigits(Math.abs(takeProfit - entry) / Math.abs(entry - stopLoss), 2)
        : trade.rr_ratio,
    targets: targets ? JSON.stringify(targets) : trade.targets,
    opened_at: fill.time,
    updated_at: nowIso(),
  };
}
