import { SNAPSHOT_MESSAGES, type snapshotExecute } from '@tradedesk/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { unprocessable } from '../../lib/http-error';
import { accountsRepo } from '../accounts/accounts.repo';
import type { AuthUser } from '../../request-context';
import { configsService } from './configs.service';
import { marketNow, renderSnapshot } from './snapshot-render';

/** One chart drawn now with a template, on the caller's default account (their first one). */
export function executeService(ctx: AppContext) {
  const configs = configsService(ctx);
  const accounts = accountsRepo(ctx.db);
  return {
    async execute(user: AuthUser, configId: string, body: z.output<typeof snapshotExecute>): Promise<Buffer> {
      const config = await configs.get(user, configId);
      const [account] = await accounts.listFor(user.id);
      if (!account) throw unprocessable(SNAPSHOT_MESSAGES.noAccount);
      return renderSnapshot(ctx, {
        account,
        symbol: body.symbol,
        timeframe: body.timeframe,
        settings: config.indicator_settings,
        templateName: config.name,
        theme: body.theme,
        endMs: marketNow(ctx, account),
      });
    },
  };
}
