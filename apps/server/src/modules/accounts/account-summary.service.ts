import { accountFigures, currencyDecimals, dayStartIn, fromMinor, realisedPlMinor } from '@tradedesk/domain';
import type { AccountSummary } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { brokerRegistry } from '../../brokers/registry';
import type { AuthUser } from '../../request-context';
import { accountsRepo } from './accounts.repo';
import { accountSummaryRepo } from './account-summary.repo';
import { timeZoneResolver } from '../users/user-settings.service';

/**
 * The dashboard's account strip: the broker's balance, equity and margin, the figures derived from
 * them (domain accountFigures) and the P/L realised since the start of the trader's day.
 */
export function accountSummaryService(ctx: AppContext) {
  const accounts = accountsRepo(ctx.db);
  const repo = accountSummaryRepo(ctx.db);
  const brokers = () => brokerRegistry(ctx);
  const zoneOf = timeZoneResolver(ctx);

  return {
    /** `tz` when given, else the trader's saved zone, else UTC (timeZoneResolver). */
    async summary(user: AuthUser, id: string, tz?: string): Promise<AccountSummary> {
      const row = await accounts.ownedOr404(user.id, id);
      const timeZone = await zoneOf(user.id, tz);
      const info = await brokers().use(row, (a) => a.accountInfo());
      // "Now" is the broker's clock: a simulated account lives on the simulator's (a replay in tests).
      const asOf = row.platform === 'SIM' ? brokers().sim.now() : Date.now();
      const dayStart = dayStartIn(asOf, timeZone);
      const currency = info.currency || row.currency;
      const [deals, openPositions] = await Promise.all([
        repo.dealsBetween(user.id, row.id, new Date(dayStart).toISOString(), new Date(asOf).toISOString()),
        repo.openTrades(user.id, row.id),
      ]);
      return {
        id: row.id,
        currency,
        ...accountFigures({ balance: info.balance, equity: info.equity, margin: info.margin, currency }),
        realised_pl_today: fromMinor(realisedPlMinor(deals), currencyDecimals(currency)),
        open_positions: openPositions,
        day_start: new Date(dayStart).toISOString(),
        as_of: new Date(asOf).toISOString(),
        connection_state: brokers().state(row.id),
      };
    },
  };
}
