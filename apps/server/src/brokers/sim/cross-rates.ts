import { BrokerError } from '../types';
import type { SymbolPricer } from './quotes';
import { SIM_CURRENCIES } from './symbols';

/**
 * Currency conversion through the simulator's own prices, with USD as the hub: a currency is
 * turned into USD through its USD pair's mid (EUR via EURUSD, JPY via 1 / USDJPY, ...), so
 * EUR -> JPY is EURUSD x USDJPY. Only fiat currencies convert; XAU, BTC and index names do not.
 */
export class CrossRates {
  /** currency -> how to get its USD value: the pair and whether the currency is the pair's base. */
  private readonly legs = new Map<string, { pricer: SymbolPricer; isBase: boolean }>();

  constructor(pricers: Map<string, SymbolPricer>) {
    for (const ccy of SIM_CURRENCIES) {
      if (ccy === 'USD') continue;
      const direct = pricers.get(`${ccy}USD`);
      const inverse = pricers.get(`USD${ccy}`);
      if (direct) this.legs.set(ccy, { pricer: direct, isBase: true });
      else if (inverse) this.legs.set(ccy, { pricer: inverse, isBase: false });
    }
  }

  currencies(): string[] {
    return ['USD', ...this.legs.keys()];
  }

  /** USD value of one unit of `ccy` at t (mid price of the USD pair in force at t). */
  usdPerUnit(ccy: string, t: number): number {
    const c = ccy.toUpperCase();
    if (c === 'USD') return 1;
    const leg = this.legs.get(c);
    if (!leg)
      throw new BrokerError(`The simulator cannot convert ${ccy}: not a currency it quotes`, 'not_found');
    const q = leg.pricer.quoteAt(t);
    const mid = (q.bid + q.ask) / 2;
    return leg.isBase ? mid : 1 / mid;
  }

  convert(amount: number, from: string, to: string, t: number): number {
    if (from.toUpperCase() === to.toUpperCase()) return amount;
    return (amount * this.usdPerUnit(from, t)) / this.usdPerUnit(to, t);
  }
}
