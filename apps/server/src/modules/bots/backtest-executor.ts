/**
 * Executes one backtest run: loads the version, config and bars, runs the strategy in the sandbox,
 * computes the statistics and stores the result: the body of the `backtest` job (bots.jobs.ts).
 */
import { computeBacktestStats, sampleEquityCurve } from '@tradedesk/domain';
import type { AppContext } from '../../context';
import { accountsRepo } from '../accounts/accounts.repo';
import { HttpError } from '../../lib/http-error';
import { nowIso } from '../../lib/ids';
import { runInSandbox } from '../../sandbox/host';
import { loadBacktestMarket } from './backtest-bars';
import { botsRepo } from './bots.repo';
import { parseRiskJson } from './bots.service';

export async function executeBacktestRun(
  ctx: AppContext,
  runId: string,
  signal?: AbortSignal,
): Promise<void> {
  const repo = botsRepo(ctx.db);
  const run = await repo.runForExecution(runId);
  if (!run || run.status === 'COMPLETED' || run.status === 'FAILED') return;
  const started = performance.now();
  await repo.updateRun(runId, { status: 'RUNNING', started_at: nowIso(), progress: 0 });
  const fail = (message: string) =>
    repo.updateRun(runId, { status: 'FAILED', error_message: message, completed_at: nowIso() });
  try {
    const version = await repo.version(run.user_id, run.bot_version_id);
    const config = await repo.config(run.user_id, run.backtest_config_id);
    const bot = version && (await repo.bot(run.user_id, version.bot_id));
    if (!version || !config || !bot) return void (await fail('The bot version or its config was deleted.'));
    const account = await accountsRepo(ctx.db).ownedOr404(run.user_id, bot.account_id);
    const risk = parseRiskJson(JSON.parse(config.risk_json));
    const market = await loadBacktestMarket(
      ctx,
      account,
      risk.symbol,
      risk.timeframe,
      Date.parse(run.data_window_start),
      Date.parse(run.data_window_end),
      risk.currency,
      config.slippage_ms,
    );
    const dataMs = performance.now() - started;
    let lastWrite = 0;
    const outcome = await runInSandbox(
      {
        code: version.strategy_file_content,
        paramsJson: version.params,
        bars: market.bars,
        symbol: {
          contractSize: market.symbol.contract_size,
          digits: market.symbol.digits,
          volumeMin: market.symbol.volume_min,
          volumeStep: market.symbol.volume_step,
          volumeMax: market.symbol.volume_max,
          quoteToAccountRate: market.quoteToAccountRate,
        },
        settings: {
          initialBalance: risk.initial_balance,
          accountCurrency: risk.currency,
          riskPercent: risk.risk_per_trade_pct,
          maxOpenPositions: risk.max_open_positions,
          spread: risk.spread_model.pips * market.symbol.pip_size,
          commissionPerLot: risk.commission_per_lot,
          slippageMs: config.slippage_ms,
          slippageR: config.slippage_r,
          barMs: market.barMs,
          leverage: risk.leverage,
        },
      },
      {
        ...(signal ? { signal } : {}),
        onProgress: (fraction) => {
          const now = performance.now();
          if (now - lastWrite < 1000) return;
          lastWrite = now;
          void repo
            .updateRun(runId, { progress: Math.min(0.99, Math.max(0, fraction)) })
            .catch(() => undefined);
        },
      },
    );
    if (!outcome.ok) return void (await fail(outcome.error));
    const { result } = outcome;
    const stats = computeBacktestStats({ ...market.bars, ...result, initialBalance: risk.initial_balance });
    const iso = (ms: number) => new Date(ms).toISOString();
    const trades = result.trades.map((t) => ({
      side: t.side,
      entry_time: iso(t.entryTime),
      entry_price: t.entryPrice,
      exit_time: iso(t.exitTime),
      exit_price: t.exitPrice,
      volume: t.volume,
      sl: Number.isNaN(t.sl) ? null : t.sl,
      tp: Number.isNaN(t.tp) ? null : t.tp,
      pnl: t.pnl,
      commission: t.commission,
      r: Math.round(t.r * 1e8) / 1e8,
      exit_reason: t.exitReason,
      entry_bar_exit: t.entryBarExit,
      ...(t.parts
        ? {
            parts: t.parts.map((p) => ({
              exit_time: iso(p.exitTime),
              exit_price: p.exitPrice,
              volume: p.volume,
              pnl: p.pnl,
              commission: p.commission,
              r: Math.round(p.r * 1e8) / 1e8,
              exit_reason: p.exitReason,
            })),
          }
        : {}),
    }));
    await repo.updateRun(runId, {
      status: 'COMPLETED',
      progress: 1,
      completed_at: nowIso(),
      stats: JSON.stringify(stats),
      equity_curve: JSON.stringify(sampleEquityCurve(market.bars.time, result.equity)),
      trades: JSON.stringify(trades),
      warnings: JSON.stringify({ ...result.warnings }),
      timings: JSON.stringify({
        data_ms: Math.round(dataMs),
        sandbox_startup_ms: Math.round(outcome.startupMs),
        run_ms: Math.round(outcome.runMs),
        bars: market.bars.close.length,
      }),
    });
  } catch (e) {
    await fail(e instanceof HttpError ? String(e.detail) : `The backtest failed: ${(e as Error).message}`);
  }
}
