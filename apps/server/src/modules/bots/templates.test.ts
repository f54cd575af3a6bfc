/** Every template runs in the real sandbox over synthetic minute bars and trades. */
import { describe, expect, it } from 'vitest';
import { runInSandbox } from '../../sandbox/host';
import { sandboxTestRequest, waveBars } from '../../testing/sandbox-bars';
import { strategyTemplates } from './templates';

describe('strategy templates', { timeout: 240_000 }, () => {
  it('lists the five templates with their code and default parameters', () => {
    expect(strategyTemplates().map((t) => t.display_name)).toEqual([
      'EMA crossover',
      'Donchian breakout',
      'RSI mean reversion',
      'VWAP reversion',
      'ATR trailing-stop trend follower',
    ]);
    for (const t of strategyTemplates()) expect(t.content).toMatch(/^"""/);
  });

  it.each(strategyTemplates().map((t) => [t.display_name, t] as const))(
    '%s backtests and trades',
    async (_name, t) => {
      const outcome = await runInSandbox(sandboxTestRequest(t.content, t.default_params, waveBars(5000)));
      if (!outcome.ok) throw new Error(outcome.error);
      expect(outcome.result.trades.length).toBeGreaterThan(2);
    },
  );
});
