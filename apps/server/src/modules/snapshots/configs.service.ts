import {
  indicatorSettings,
  normalizeIndicatorSettings,
  SNAPSHOT_MESSAGES,
  type IndicatorSettings,
  type SnapshotConfig,
  type snapshotConfigWrite,
} from '@tradedesk/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { ChartSnapshotConfigsTable } from '../../db/schema';
import { badRequest, forbidden, notFound } from '../../lib/http-error';
import { newId, nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { configsRepo } from './configs.repo';

type ConfigWrite = z.output<typeof snapshotConfigWrite>;

/** Stored settings are read through the schema, so rows written before a new field appears get its default. */
export function parseStoredSettings(json: string): IndicatorSettings {
  return normalizeIndicatorSettings(indicatorSettings.parse(JSON.parse(json)));
}

const toConfig = (r: ChartSnapshotConfigsTable): SnapshotConfig => ({
  id: r.id,
  name: r.name,
  is_global: Number(r.is_global) === 1,
  user: r.user_id,
  indicator_settings: parseStoredSettings(r.indicator_settings),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

function checkedName(body: ConfigWrite): string {
  const name = (body.name ?? '').trim();
  if (!name) throw badRequest({ name: [SNAPSHOT_MESSAGES.nameRequired] });
  return name;
}

/**
 * Templates: everyone sees their own and the global ones; another user's private template does not
 * exist for them (404); a global template of someone else is read-only (403 on any write).
 */
export function configsService(ctx: AppContext) {
  const repo = configsRepo(ctx.db);
  async function visibleOr404(user: AuthUser, id: string): Promise<ChartSnapshotConfigsTable> {
    const row = await repo.visibleById(user.id, id);
    if (!row) throw notFound(SNAPSHOT_MESSAGES.notFound);
    return row;
  }
  async function ownedOr403(user: AuthUser, id: string): Promise<ChartSnapshotConfigsTable> {
    const row = await visibleOr404(user, id);
    if (row.user_id !== user.id) throw forbidden(SNAPSHOT_MESSAGES.notOwner);
    return row;
  }
  return {
    visibleOr404,
    async list(user: AuthUser): Promise<SnapshotConfig[]> {
      return (await repo.visibleTo(user.id)).map(toConfig);
    },
    async get(user: AuthUser, id: string): Promise<SnapshotConfig> {
      return toConfig(await visibleOr404(user, id));
    },
    async create(user: AuthUser, body: ConfigWrite): Promise<SnapshotConfig> {
      const now = nowIso();
      const row: ChartSnapshotConfigsTable = {
        id: newId(),
        user_id: user.id,
        name: checkedName(body),
        is_global: body.is_global ? 1 : 0,
        indicator_settings: JSON.stringify(normalizeIndicatorSettings(body.indicator_settings)),
        created_at: now,
        updated_at: now,
      };
      await repo.insert(row);
      return toConfig(row);
    },
    async update(user: AuthUser, id: string, body: ConfigWrite): Promise<SnapshotConfig> {
      const row = await ownedOr403(user, id);
      const set = {
        name: checkedName(body),
        is_global: body.is_global ? 1 : 0,
        indicator_settings: JSON.stringify(normalizeIndicatorSettings(body.indicator_settings)),
        updated_at: nowIso(),
      };
      await repo.update(user.id, id, set);
      return toConfig({ ...row, ...set });
    },
    async remove(user: AuthUser, id: string): Promise<{ message: string }> {
      await ownedOr403(user, id);
      await repo.delete(user.id, id);
      return { message: SNAPSHOT_MESSAGES.deleted };
    },
  };
}
