import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, csvNumber } from './history.csv';
import { unpackStats } from './history.repo';

describe('CSV cells', () => {
  it('quotes per RFC 4180 and guards text that a spreadsheet would run as a formula', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('=A1,"x"')).toBe('"\'=A1,""x"""');
    expect(csvCell(null)).toBe('');
    // Numbers we format stay numbers, negative ones too.
    expect(csvCell(csvNumber(-12.5))).toBe('-12.5');
    expect(csvCell(csvNumber(-12.5, 2))).toBe('-12.50');
    expect(csvCell(csvNumber(Number.NaN))).toBe('');
    expect(csvLine(['a', null, csvNumber(1)])).toBe('a,,1\r\n');
  });
});

describe('packed stats rows', () => {
  it('reads rows in closing order and sorts them only when the database did not', () => {
    expect(unpackStats('100,50,2026-01-01T10:00:00.000Z;-25,,2026-01-01T11:00:00.000Z')).toEqual([
      { pnl_minor: 100, initial_risk_minor: 50, closed_at: '2026-01-01T10:00:00.000Z' },
      { pnl_minor: -25, initial_risk_minor: null, closed_at: '2026-01-01T11:00:00.000Z' },
    ]);
    expect(
      unpackStats('3,,2026-01-03T00:00:00.000Z;1,,2026-01-01T00:00:00.000Z;2,,2026-01-02T00:00:00.000Z').map(
        (r) => r.pnl_minor,
      ),
    ).toEqual([1, 2, 3]);
  });
});
