import type { StatementFormat } from '@tradedesk/contract';
import type { StatementCash, StatementDeal, StatementStops } from '@tradedesk/domain';

/** What a format reader takes from a statement; times are the statement's wall clock. */
export interface ParsedStatement {
  format: StatementFormat;
  deals: StatementDeal[];
  cash: StatementCash[];
  /** Stop and target of each position, where the statement shows them. */
  stops: Map<string, StatementStops>;
  /** The zone the statement states for its times (cTrader headers), as an IANA name. */
  zone: string | null;
  /** The account currency the statement states, if it does. */
  currency: string | null;
  /**
   * True when deal ids are the broker's own (MT5 tickets, cTrader deal ids), so that they match
   * the deals the broker sync files; false when they are derived from the statement's rows.
   */
  brokerDealIds: boolean;
  warnings: string[];
}

export function emptyStatement(format: StatementFormat, brokerDealIds: boolean): ParsedStatement {
  return {
    format,
    deals: [],
    cash: [],
    stops: new Map(),
    zone: null,
    currency: null,
    brokerDealIds,
    warnings: [],
  };
}

/** 'buy', 'Buy', 'DEAL_TYPE_BUY', 'buy limit' → the side; null for anything else. */
export function sideOf(raw: string | undefined): 'BUY' | 'SELL' | null {
  const s = (raw ?? '')
    .trim()
    .toLowerCase()
    .replace(/^deal_type_/, '');
  if (s === 'buy') return 'BUY';
  if (s === 'sell') return 'SELL';
  return null;
}

/** Counts of rows skipped for a reason, reported once each as a warning. */
export class SkipCounter {
  private readonly counts = new Map<string, number>();
  add(reason: string): void {
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
  }
  into(warnings: string[]): void {
    for (const [reason, n] of this.counts)
      warnings.push(`${n} ${n === 1 ? 'row' : 'rows'} skipped: ${reason}.`);
  }
}
