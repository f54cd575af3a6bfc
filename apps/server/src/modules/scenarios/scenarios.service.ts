import type { Scenario, ScenarioCreate, ScenarioInputs } from '@tradedesk/contract';
import { validateWinRateInputs } from '@tradedesk/domain';
import type { AppContext } from '../../context';
import type { WinRateScenariosTable } from '../../db/schema';
import { badRequest } from '../../lib/http-error';
import { newId, nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { nameKey } from '../profit-profiles/profit-profiles.service';
import { isUniqueViolation } from '../../db/unique-violation';
import { scenariosRepo } from './scenarios.repo';

const toScenario = (r: WinRateScenariosTable): Scenario => ({
  id: r.id,
  name: r.name,
  inputs: JSON.parse(r.inputs) as ScenarioInputs,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export function scenariosService(ctx: AppContext) {
  const repo = scenariosRepo(ctx.db);
  return {
    async list(user: AuthUser): Promise<Scenario[]> {
      return (await repo.listByUser(user.id)).map(toScenario);
    },

    /**
     * Saves a scenario under its name. Saving again under a name the user already has (compared
     * without case and surrounding spaces) overwrites that scenario, the way "Save" works in a
     * desktop app: `created` tells the route to answer 201 for a new one and 200 for an update.
     */
    async save(user: AuthUser, body: ScenarioCreate): Promise<{ scenario: Scenario; created: boolean }> {
      const issues = validateWinRateInputs(body.inputs);
      if (issues.length > 0) throw badRequest({ inputs: issues.map((i) => i.message) });
      const name = body.name.trim();
      const key = nameKey(name);
      const inputs: ScenarioInputs = { ...body.inputs, profile: body.inputs.profile.trim() };
      const now = nowIso();
      for (let attempt = 0; ; attempt++) {
        const existing = await repo.byNameKey(user.id, key);
        if (existing) {
          const values = { name, inputs: JSON.stringify(inputs), updated_at: now };
          await repo.update(user.id, existing.id, values);
          return { scenario: toScenario({ ...existing, ...values }), created: false };
        }
        const row: WinRateScenariosTable = {
          id: newId(),
          user_id: user.id,
          name,
          name_key: key,
          inputs: JSON.stringify(inputs),
          created_at: now,
          updated_at: now,
        };
        try {
          await repo.insert(row);
          return { scenario: toScenario(row), created: true };
        } catch (e) {
          // Another save of the same name won the race: update that one instead.
          if (!isUniqueViolation(e) || attempt > 0) throw e;
        }
      }
    },
  };
}
