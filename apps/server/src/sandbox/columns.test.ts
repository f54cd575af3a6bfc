import { describe, expect, it } from 'vitest';
import { findTemplate } from '../modules/bots/templates';
import { BAR_COLUMNS, columnsReadBy } from './columns';

describe('columnsReadBy: the bar columns a strategy can reach', () => {
  it('copies close and the columns the code names, and no other', () => {
    expect(columnsReadBy('def signals(data, params):\n    return {"entries": data.ema(5)}')).toEqual([
      'close',
    ]);
    expect(
      columnsReadBy('def on_bar(ctx, bar):\n    if bar.high > bar.open: ctx.buy(sl_distance=1)'),
    ).toEqual(['open', 'high', 'close']);
    expect(columnsReadBy('x = data.volume  # and data.time')).toEqual(['time', 'close', 'volume']);
  });

  it.each([
    'v = getattr(data, "op" + "en")',
    'from operator import attrgetter\nv = attrgetter("hi" + "gh")(data)',
    'v = data.__dict__',
    'v = vars(data)',
    'v = eval("data." + "lo" + "w")',
    'exec("x = 1")',
    'v = dir(data)',
    'import inspect',
    'v = globals()',
    's = "\\x6fpen"',
  ])('gives every column to code with a dynamic lookup: %s', (code) => {
    expect(columnsReadBy(code)).toEqual([...BAR_COLUMNS]);
  });

  it('gives each template the columns it names', () => {
    const tpl = findTemplate('donchian_breakout.py');
    if (!tpl) return;
    const cols = columnsReadBy(tpl.content);
    for (const c of BAR_COLUMNS) if (tpl.content.includes(c)) expect(cols).toContain(c);
  });
});
