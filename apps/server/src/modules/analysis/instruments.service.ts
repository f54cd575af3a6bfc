import {
  ANALYSIS_MESSAGES,
  type AnalysisInstrument,
  type AnalysisInstrumentCreate,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { enqueueJob } from '../../jobs';
import { badRequest, conflict } from '../../lib/http-error';
import { newId, nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { resolveSymbol } from './analysis.candles';
import { instrumentsRepo, type InstrumentRow } from './instruments.repo';
import { DOWNLOAD_JOB } from './instruments.jobs';

export const toInstrument = (r: InstrumentRow): AnalysisInstrument => ({
  symbol: r.symbol,
  exchange: r.exchange,
  data_status: r.data_status,
  base_timeframe: r.base_timeframe,
  last_updated: r.last_updated,
  error_message: r.error,
});

export function instrumentsService(ctx: AppContext) {
  const repo = instrumentsRepo(ctx.db);

  async function refresh(user: AuthUser, symbol: string): Promise<AnalysisInstrument> {
    const row = await repo.bySymbol(user.id, symbol);
    if (!row) throw conflict(`${symbol} was just removed; add it again.`);
    if (row.data_status === 'PENDING_INITIAL_DOWNLOAD' || row.data_status === 'UPDATING') {
      throw conflict(`${symbol} is already downloading.`);
    }
    const data_status = row.history_to ? 'UPDATING' : 'PENDING_INITIAL_DOWNLOAD';
    await repo.update(user.id, row.id, { data_status, error: null });
    await enqueueJob(ctx, { kind: DOWNLOAD_JOB, userId: user.id, payload: { instrumentId: row.id } });
    return toInstrument({ ...row, data_status, error: null });
  }

  return {
    async list(user: AuthUser): Promise<AnalysisInstrument[]> {
      return (await repo.list(user.id)).map(toInstrument);
    },

    /**
     * Adds the instrument and starts its initial download (PENDING_INITIAL_DOWNLOAD → AVAILABLE | ERROR);
     * adding one the user already has refreshes it (UPDATING → AVAILABLE | ERROR).
     */
    async add(
      user: AuthUser,
      body: AnalysisInstrumentCreate,
    ): Promise<{ instrument: AnalysisInstrument; created: boolean }> {
      const symbol = (body.symbol ?? '').trim().toUpperCase();
      if (!symbol) throw badRequest(ANALYSIS_MESSAGES.symbolRequired);
      const source = await resolveSymbol(ctx, user.id, symbol, {
        accountId: body.account_id?.trim() || null,
        csv: body.source === 'csv',
      });
      const row: InstrumentRow = {
        id: newId(),
        user_id: user.id,
        symbol,
        exchange: source.exchange,
        source: source.source,
        account_id: source.accountId,
        data_status: 'PENDING_INITIAL_DOWNLOAD',
        base_timeframe: 'M1',
        history_from: null,
        history_to: null,
        last_updated: null,
        error: null,
        created_at: nowIso(),
      };
      if (!(await repo.insert(row))) return { instrument: await refresh(user, symbol), created: false };
      await enqueueJob(ctx, { kind: DOWNLOAD_JOB, userId: user.id, payload: { instrumentId: row.id } });
      return { instrument: toInstrument(row), created: true };
    },
  };
}
