import type { Db } from '../../db';
import {
  decodeFacts,
  decodeTradeData,
  encodeFacts,
  type FactColumns,
  type FactTradeData,
} from './reports.facts-codec';
import { toReportTrades, type FactTrade } from './reports.model';
import { reportsRepo, type FactsRow } from './reports.repo';

/** One month of one account's closed trades, read from its up-to-date copy. */
export interface FactChunk {
  account_id: string;
  month: string;
  /** The report_facts version the copy was built from. */
  version: number;
  facts: FactColumns;
  /** Ids, entry prices and stop distances (MFE/MAE, and ordering across accounts). */
  tradeData?: FactTradeData;
}

/**
 * The reports' copy of the closed trades (report_facts, migration 0096): each month of each account
 * packed once, and rebuilt from the trades whenever a trigger has moved its version on since; a
 * month is never read from a copy older than the writes it has seen. Stale months of an account are
 * rebuilt from one read of their trades.
 */
export function factsReader(db: Db) {
  const repo = reportsRepo(db);

  /** Builds the months of `rows` (one account, all behind) from the trades, and keeps them. */
  async function rebuild(
    userId: string,
    rows: FactsRow[],
  ): Promise<Map<string, { data: Uint8Array; tradeData: Uint8Array }>> {
    const accountId = rows[0]!.account_id;
    const filter = { userId, accountIds: [accountId], months: rows.map((r) => r.month) };
    const [closed, journals] = await Promise.all([repo.closedTrades(filter), repo.journals(filter)]);
    const byMonth = new Map<string, FactTrade[]>(rows.map((r) => [r.month, []]));
    // Closing order overall is closing order within each month.
    for (const t of toReportTrades(closed, journals)) byMonth.get(t.closed_at.slice(0, 7))?.push(t);
    const out = new Map<string, { data: Uint8Array; tradeData: Uint8Array }>();
    for (const r of rows) {
      const packed = encodeFacts(byMonth.get(r.month)!);
      // As of the version read before the trades: a write since then leaves the month behind.
      await repo.saveFacts(accountId, r.month, r.version, packed.data, packed.tradeData);
      out.set(r.month, packed);
    }
    return out;
  }

  /**
   * The months of these accounts (the user's own) from `fromMonth` to `toMonth` ('YYYY-MM',
   * inclusive, either open), by month then account.
   */
  return async function read(
    userId: string,
    accountIds: string[],
    fromMonth: string | undefined,
    toMonth: string | undefined,
    withTradeData: boolean,
  ): Promise<FactChunk[]> {
    const rows = await repo.facts(accountIds, fromMonth, toMonth, withTradeData);
    const behind = new Map<string, FactsRow[]>();
    for (const r of rows) {
      if (r.data !== null) continue;
      const list = behind.get(r.account_id);
      if (list) list.push(r);
      else behind.set(r.account_id, [r]);
    }
    for (const list of behind.values()) {
      const built = await rebuild(userId, list);
      for (const r of list) {
        const b = built.get(r.month)!;
        r.data = b.data;
        r.trade_data = b.tradeData;
      }
    }
    return rows.map((r) => ({
      account_id: r.account_id,
      month: r.month,
      version: r.version,
      facts: decodeFacts(r.data!),
      ...(withTradeData ? { tradeData: decodeTradeData(r.trade_data!) } : {}),
    }));
  };
}
