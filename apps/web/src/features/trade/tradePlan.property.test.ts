import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkTradeRequest, planRequest, quoteToAccountRate, type PlanFacts } from '@tradedesk/domain';
import { tradeExecuteRequest, type SymbolInfoBody } from '@tradedesk/contract';
import { computePlan, rowsFromTargets, tradeRequest, type PlanContext, type TradeForm } from './tradePlan';
import { DEFAULT_TARGETS } from '@tradedesk/domain';

/** A symbol of one of the shapes brokers list: FX (5 or 3 digits), metals, indices, crypto. */
const symbolArb = fc
  .record({
    kind: fc.constantFrom('fx5', 'fx3', 'metal', 'index', 'crypto'),
    volume_min: fc.constantFrom(0.01, 0.1, 1),
    volume_step: fc.constantFrom(0.01, 0.1, 1),
    volume_max: fc.constantFrom(50, 100, 1000),
    price: fc.double({ min: 0.5, max: 2, noNaN: true }),
  })
  .map(({ kind, volume_min, volume_step, volume_max, price }) => {
    const shape = {
      fx5: { digits: 5, pip_size: 0.0001, contract_size: 100_000, scale: 1 },
      fx3: { digits: 3, pip_size: 0.01, contract_size: 100_000, scale: 150 },
      metal: { digits: 2, pip_size: 0.1, contract_size: 100, scale: 2000 },
      index: { digits: 1, pip_size: 1, contract_size: 1, scale: 18_000 },
      crypto: { digits: 2, pip_size: 1, contract_size: 1, scale: 60_000 },
    }[kind];
    const info: SymbolInfoBody = {
      symbol: kind.toUpperCase(),
      description: kind,
      digits: shape.digits,
      pip_size: shape.pip_size,
      tick_size: 10 ** -shape.digits,
      contract_size: shape.contract_size,
      base_currency: 'EUR',
      quote_currency: kind === 'fx3' ? 'JPY' : 'USD',
      volume_min: Math.max(volume_min, volume_step),
      volume_step,
      volume_max,
    };
    return { info, mid: Number((price * shape.scale).toFixed(shape.digits)) };
  });

describe('one trade plan: whatever the modal sends, the server accepts', () => {
  it('the request computePlan and tradeRequest build passes the server check on the same facts', () => {
    let checked = 0;
    fc.assert(
      fc.property(
        symbolArb,
        fc.record({
          side: fc.constantFrom('BUY' as const, 'SELL' as const),
          equity: fc.double({ min: 100, max: 5_000_000, noNaN: true }),
          risk: fc.double({ min: 0.01, max: 5, noNaN: true }),
          slPips: fc.integer({ min: 5, max: 2000 }),
          spreadTicks: fc.integer({ min: 0, max: 50 }),
          rr: fc.double({ min: 0.5, max: 8, noNaN: true }),
          maxLot: fc.option(fc.constantFrom(0.05, 0.1, 0.5, 1, 3, 10), { nil: null }),
          multi: fc.boolean(),
          usdjpy: fc.double({ min: 100, max: 200, noNaN: true }),
        }),
        ({ info, mid }, p) => {
          const tick = info.tick_size;
          const bid = Number((mid - (p.spreadTicks * tick) / 2).toFixed(info.digits));
          const ask = Number((bid + p.spreadTicks * tick).toFixed(info.digits));
          const form: TradeForm = {
            accountId: 'acc',
            symbol: info.symbol,
            direction: p.side,
            orderType: 'MARKET',
            limitPrice: '',
            riskPercent: Number(p.risk.toFixed(2)) || 0.01,
            slMode: 'distance',
            slDistance: p.slPips,
            slPrice: '',
            atrMultiplier: 1.5,
            profitMode: p.multi ? 'multi' : 'single',
            tpMode: 'rr_ratio',
            rr: Number(p.rr.toFixed(2)),
            tpDistance: 40,
            tpPrice: '',
            targets: rowsFromTargets(DEFAULT_TARGETS),
            timeframe: '15M',
            reason: '',
            trader: 'Trader 1',
          };
          const conversion = info.quote_currency === 'JPY' ? [{ symbol: 'USDJPY', mid: p.usdjpy }] : [];
          const ctx: PlanContext = {
            bid,
            ask,
            info,
            equity: p.equity,
            accountCurrency: 'USD',
            maxLotSize: p.maxLot,
            atr: null,
            conversion,
          };
          const result = computePlan(form, ctx);
          // The modal sends nothing without a plan or a volume.
          if (!result.ok || result.plan.volume <= 0) return;
          // The trader confirmed a minimum-volume warning where there was one.
          const request = tradeExecuteRequest.parse(tradeRequest(form, result.plan, true));
          const facts: PlanFacts = {
            entry: p.side === 'BUY' ? ask : bid,
            symbol: info,
            account: { equity: p.equity, currency: 'USD', max_lot_size: p.maxLot },
            quoteToAccountRate: quoteToAccountRate(
              info,
              'USD',
              Object.fromEntries(conversion.map((c) => [c.symbol, c.mid])),
              (bid + ask) / 2,
            ),
          };
          const serverPlan = planRequest(request, facts);
          expect(checkTradeRequest(request, serverPlan, facts)).toEqual({ ok: true });
          expect(serverPlan.volume).toBe(result.plan.volume);
          expect(serverPlan.riskMinor).toBe(result.plan.riskMinor);
          checked++;
        },
      ),
      { numRuns: 400 },
    );
    // Most random inputs make a plan the modal would send: the property is not vacuous.
    expect(checked).toBeGreaterThan(200);
  });
});
