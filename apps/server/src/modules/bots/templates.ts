/**
 * Strategy templates: readable, commented Python files beside this module (copied to dist/templates by
 * the build), with the parameters each starts from.
 */
import { readFileSync } from 'node:fs';

export interface StrategyTemplate {
  filename: string;
  display_name: string;
  default_params: Record<string, number>;
  content: string;
}

const TEMPLATES: Omit<StrategyTemplate, 'content'>[] = [
  {
    filename: 'ema_crossover.py',
    display_name: 'EMA crossover',
    default_params: { fast: 12, slow: 26, atr: 14, atr_mult: 2, target_r: 2 },
  },
  {
    filename: 'donchian_breakout.py',
    display_name: 'Donchian breakout',
    default_params: { period: 20, target_r: 3 },
  },
  {
    filename: 'rsi_mean_reversion.py',
    display_name: 'RSI mean reversion',
    default_params: { rsi: 14, oversold: 30, overbought: 70, atr: 14, atr_mult: 2 },
  },
  {
    filename: 'vwap_reversion.py',
    display_name: 'VWAP reversion',
    default_params: { atr: 14, band: 2, atr_mult: 1.5 },
  },
  {
    filename: 'atr_trailing_stop.py',
    display_name: 'ATR trailing-stop trend follower',
    default_params: { trend: 50, atr: 14, atr_mult: 3 },
  },
];

const folder = new URL('./templates/', import.meta.url);
let cache: StrategyTemplate[] | undefined;

export function strategyTemplates(): StrategyTemplate[] {
  cache ??= TEMPLATES.map((t) => ({ ...t, content: readFileSync(new URL(t.filename, folder), 'utf8') }));
  return cache;
}

export function findTemplate(filename: string): StrategyTemplate | undefined {
  return strategyTemplates().find((t) => t.filename === filename);
}
