/**
 * The bar columns a strategy can read, so that a backtest copies only those into the interpreter
 * (each column of a year of M1 is 4 MB of fresh memory in a fresh sandbox process).
 *
 * A column is read through its name: `data.open`, `bar.open`, a class pattern `Data(open=…)`, or a
 * string handed to a dynamic lookup. The text of the strategy is the whole program the sandbox runs,
 * so a column whose name appears nowhere in it can only be reached by building the name at run time
 * and looking it up dynamically; code that uses any dynamic lookup (getattr, attrgetter, dunders,
 * vars, eval, exec, compile, globals, locals, dir, inspect, importlib) gets every column. `close`
 * is always copied (the runtime counts bars by it).
 */
export const BAR_COLUMNS = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;
export type BarColumn = (typeof BAR_COLUMNS)[number];

const DYNAMIC_LOOKUP =
  /getattr|attrgetter|__|\bvars\b|\beval\b|\bexec\b|\bcompile\b|\bglobals\b|\blocals\b|\bdir\b|\binspect\b|\bimportlib\b|\\/;

export function columnsReadBy(code: string): BarColumn[] {
  if (DYNAMIC_LOOKUP.test(code)) return [...BAR_COLUMNS];
  return BAR_COLUMNS.filter((c) => c === 'close' || code.includes(c));
}
