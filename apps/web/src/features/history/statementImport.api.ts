import { statementImport, type StatementImport } from '@tradedesk/contract';
import { api } from '../../app/api';

/**
 * Sends a statement to the import endpoint: `dryRun` answers the preview and writes nothing.
 * The time zone is the one the trader chose; left out, the server picks the statement's own.
 */
export function sendStatement(
  accountId: string,
  file: File,
  opts: { dryRun: boolean; timeZone?: string },
): Promise<StatementImport> {
  const form = new FormData();
  form.append('file', file, file.name);
  const q = new URLSearchParams();
  if (opts.dryRun) q.set('dry_run', '1');
  if (opts.timeZone) q.set('time_zone', opts.timeZone);
  const qs = q.toString();
  return api.post(`/history/accounts/${accountId}/import/${qs ? `?${qs}` : ''}`, form, {
    schema: statementImport,
  });
}
