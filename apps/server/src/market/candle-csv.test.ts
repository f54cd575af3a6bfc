import { describe, expect, it } from 'vitest';
import { CsvImportError, parseCandleCsv } from './candle-csv';

const parse = (text: string, offset?: number) => parseCandleCsv(Buffer.from(text), offset);
const times = (text: string, offset?: number) =>
  Array.from(parse(text, offset).bars.time, (t) => new Date(t).toISOString());

describe('candle CSV formats', () => {
  it('Dukascopy: Gmt time, Time (UTC) and Local time with its own offset', () => {
    expect(times('Gmt time,Open,High,Low,Close,Volume\n07.01.2026 10:00:00.000,1.1,1.2,1.0,1.1,5\n')).toEqual(
      ['2026-01-07T10:00:00.000Z'],
    );
    expect(times('Time (UTC),Open,High,Low,Close,Volume\n2026.01.07 10:00:00,1.1,1.2,1.0,1.1,5\n')).toEqual([
      '2026-01-07T10:00:00.000Z',
    ]);
    expect(
      times('Local time,Open,High,Low,Close,Volume\n07.01.2026 11:00:00.000 GMT+0100,1.1,1.2,1.0,1.1,5\n'),
    ).toEqual(['2026-01-07T10:00:00.000Z']);
    expect(
      parse('Gmt time,Open,High,Low,Close,Volume\n07.01.2026 10:00:00.000,1.1,1.2,1.0,1.1,5\n').format,
    ).toBe('dukascopy');
  });

  it('HistData: EST all year (UTC-5, even in July), or the offset given', () => {
    expect(times('20260707 050000;1.1;1.2;1.0;1.1;0\n')).toEqual(['2026-07-07T10:00:00.000Z']);
    expect(times('20260707 050000;1.1;1.2;1.0;1.1;0\n', 0)).toEqual(['2026-07-07T05:00:00.000Z']);
  });

  it('MT5: tab, comma or semicolon separated, minutes with or without seconds, the server offset applied', () => {
    const head = '<DATE>\t<TIME>\t<OPEN>\t<HIGH>\t<LOW>\t<CLOSE>\t<TICKVOL>\t<VOL>\t<SPREAD>\n';
    expect(times(`${head}2026.01.07\t12:00\t1.1\t1.2\t1.0\t1.1\t7\t0\t3\n`, 120)).toEqual([
      '2026-01-07T10:00:00.000Z',
    ]);
    const comma =
      '<DATE>,<TIME>,<OPEN>,<HIGH>,<LOW>,<CLOSE>,<TICKVOL>,<VOL>,<SPREAD>\n2026.01.07,10:00:00,1.1,1.2,1.0,1.1,7,0,3\n';
    expect(parse(comma).format).toBe('mt5');
    expect(Array.from(parse(comma).bars.volume)).toEqual([7]);
  });

  it('sorts a file out of order and refuses the same minute twice', () => {
    const head = 'Gmt time,Open,High,Low,Close,Volume\n';
    expect(
      times(`${head}07.01.2026 10:01:00.000,1.1,1.2,1.0,1.1,5\n07.01.2026 10:00:00.000,1.1,1.2,1.0,1.1,5\n`),
    ).toEqual(['2026-01-07T10:00:00.000Z', '2026-01-07T10:01:00.000Z']);
    expect(() =>
      parse(`${head}07.01.2026 10:01:00.000,1.1,1.2,1.0,1.1,5\n07.01.2026 10:01:00.000,1.1,1.2,1.0,1.1,5\n`),
    ).toThrow('The bar of 2026-01-07T10:01:00.000Z appears twice.');
  });

  it('refuses impossible dates, empty files and headers without bars', () => {
    expect(() => parse('20260231 100000;1.1;1.2;1.0;1.1;0\n')).toThrow(CsvImportError);
    expect(() => parse('\n\n')).toThrow('The file is empty.');
    expect(() => parse('Gmt time,Open,High,Low,Close,Volume\n')).toThrow('The file has no bars.');
  });
});
