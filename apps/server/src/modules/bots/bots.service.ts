/** Bots, strategy versions and backtest configs: validation, ownership (others' rows are 404) and wire shapes. */
import { createHash } from 'node:crypto';
import { BOT_MESSAGES, riskJson, type BacktestConfig, type Bot, type BotVersion } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import type { BacktestConfigsTable, BotsTable, BotVersionsTable } from '../../db/schema';
import { badRequest, notFound } from '../../lib/http-error';
import { newId, nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { accountsRepo } from '../accounts/accounts.repo';
import { botsRepo } from './bots.repo';
import { findTemplate } from './templates';

const required = (fields: Record<string, unknown>) => {
  const missing = Object.entries(fields).filter(
    ([, v]) => v === undefined || v === null || (typeof v === 'string' && !v.trim()),
  );
  if (missing.length)
    throw badRequest(Object.fromEntries(missing.map(([k]) => [k, [BOT_MESSAGES.required]])));
};

/** A JSON object given as an object or as its text; anything else is the field's spec message. */
function jsonObject(value: unknown, message: string): Record<string, unknown> {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      throw badRequest(message);
    }
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badRequest(message);
  return v as Record<string, unknown>;
}

/** risk_json checked against its schema; fields left out take their documented defaults. */
export function parseRiskJson(value: unknown) {
  const parsed = riskJson.safeParse(jsonObject(value ?? {}, BOT_MESSAGES.riskJson));
  if (!parsed.success) {
    throw badRequest({
      risk_json: parsed.error.issues.map((i) => `${i.path.join('.') || 'risk_json'}: ${i.message}`),
    });
  }
  return parsed.data;
}

function number(value: unknown, field: string, integer: boolean): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < 0 || n > 1e9)
    throw badRequest({
      [field]: [
        integer ? 'A valid non-negative integer is required.' : 'A valid non-negative number is required.',
      ],
    });
  return n;
}

export const botWire = (r: BotsTable): Bot => ({
  id: r.id,
  name: r.name,
  account_id: r.account_id,
  strategy_template: r.strategy_template,
  is_active: r.is_active === 1,
  created_at: r.created_at,
  updated_at: r.updated_at,
});
export const versionWire = (r: BotVersionsTable): BotVersion => ({
  id: r.id,
  bot: r.bot_id,
  bot_id: r.bot_id,
  strategy_file_content: r.strategy_file_content,
  params: JSON.parse(r.params) as unknown,
  notes: r.notes,
  code_hash: r.code_hash,
  created_at: r.created_at,
});
export const configWire = (r: BacktestConfigsTable): BacktestConfig => ({
  id: r.id,
  bot_version: r.bot_version_id,
  label: r.label,
  risk_json: JSON.parse(r.risk_json) as unknown,
  slippage_ms: r.slippage_ms,
  slippage_r: r.slippage_r,
});

export function botsService(ctx: AppContext) {
  const repo = botsRepo(ctx.db);
  const accounts = accountsRepo(ctx.db);

  const botOr404 = async (user: AuthUser, id: string) =>
    (await repo.bot(user.id, id)) ?? Promise.reject(notFound(BOT_MESSAGES.botNotFound));
  const versionOr404 = async (user: AuthUser, id: string) =>
    (await repo.version(user.id, id)) ?? Promise.reject(notFound(BOT_MESSAGES.versionNotFound));
  const configOr404 = async (user: AuthUser, id: string) =>
    (await repo.config(user.id, id)) ?? Promise.reject(notFound(BOT_MESSAGES.configNotFound));

  function configFields(body: {
    label?: string | null;
    risk_json?: unknown;
    slippage_ms?: unknown;
    slippage_r?: unknown;
  }) {
    required({
      label: body.label,
      risk_json: body.risk_json,
      slippage_ms: body.slippage_ms,
      slippage_r: body.slippage_r,
    });
    parseRiskJson(body.risk_json);
    return {
      label: body.label!.trim(),
      risk_json: JSON.stringify(jsonObject(body.risk_json, BOT_MESSAGES.riskJson)),
      slippage_ms: number(body.slippage_ms, 'slippage_ms', true),
      slippage_r: number(body.slippage_r, 'slippage_r', false),
    };
  }

  return {
    botOr404,
    versionOr404,
    configOr404,
    listBots: async (user: AuthUser) => (await repo.bots(user.id)).map(botWire),
    getBot: async (user: AuthUser, id: string) => botWire(await botOr404(user, id)),
    async createBot(
      user: AuthUser,
      body: { name?: string | null; account_id?: string | null; strategy_template?: string | null },
    ) {
      required({ name: body.name, account_id: body.account_id, strategy_template: body.strategy_template });
      await accounts.ownedOr404(user.id, body.account_id!);
      if (!findTemplate(body.strategy_template!))
        throw badRequest({ strategy_template: [BOT_MESSAGES.unknownTemplate] });
      const now = nowIso();
      const row: BotsTable = {
        id: newId(),
        user_id: user.id,
        name: body.name!.trim(),
        account_id: body.account_id!,
        strategy_template: body.strategy_template!,
        is_active: 0,
        created_at: now,
        updated_at: now,
      };
      await repo.insertBot(row);
      return botWire(row);
    },
    async deleteBot(user: AuthUser, id: string) {
      await botOr404(user, id);
      await repo.deleteBot(user.id, id);
    },

    async listVersions(user: AuthUser, botId?: string) {
      if (botId) await botOr404(user, botId);
      return (await repo.versions(user.id, botId)).map(versionWire);
    },
    getVersion: async (user: AuthUser, id: string) => versionWire(await versionOr404(user, id)),
    async createVersion(
      user: AuthUser,
      body: {
        bot_id?: string | null;
        strategy_file_content?: string | null;
        params?: unknown;
        notes?: string | null;
      },
    ) {
      required({
        bot_id: body.bot_id,
        strategy_file_content: body.strategy_file_content,
        params: body.params,
      });
      await botOr404(user, body.bot_id!);
      const params = jsonObject(body.params, BOT_MESSAGES.paramsJson);
      const code = body.strategy_file_content!;
      const row: BotVersionsTable = {
        id: newId(),
        user_id: user.id,
        bot_id: body.bot_id!,
        strategy_file_content: code,
        params: JSON.stringify(params),
        notes: body.notes ?? '',
        code_hash: createHash('sha256').update(code, 'utf8').digest('hex'),
        created_at: nowIso(),
      };
      await repo.insertVersion(row);
      return versionWire(row);
    },
    async deleteVersion(user: AuthUser, id: string) {
      await versionOr404(user, id);
      await repo.deleteVersion(user.id, id);
    },

    async listConfigs(user: AuthUser, versionId?: string) {
      if (versionId) await versionOr404(user, versionId);
      return (await repo.configs(user.id, versionId)).map(configWire);
    },
    getConfig: async (user: AuthUser, id: string) => configWire(await configOr404(user, id)),
    async createConfig(
      user: AuthUser,
      body: { bot_version?: string | null } & Parameters<typeof configFields>[0],
    ) {
      required({ bot_version: body.bot_version });
      await versionOr404(user, body.bot_version!);
      const row: BacktestConfigsTable = {
        id: newId(),
        user_id: user.id,
        bot_version_id: body.bot_version!,
        ...configFields(body),
        created_at: nowIso(),
      };
      await repo.insertConfig(row);
      return configWire(row);
    },
    async updateConfig(user: AuthUser, id: string, body: Parameters<typeof configFields>[0]) {
      const existing = await configOr404(user, id);
      const fields = configFields(body);
      await repo.updateConfig(user.id, id, fields);
      return configWire({ ...existing, ...fields });
    },
  };
}
export type BotsService = ReturnType<typeof botsService>;
