import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeStatement, statementNumber, statementTime } from './text';
import { csvRows, htmlTable } from './tables';
import { zoneOfHeader } from './ctrader-history';
import { parseStatement } from './detect';
import { makeXlsx } from '../fixtures/make-xlsx';

describe('decodeStatement', () => {
  const text = 'Time;Deal\r\nüber';
  it('reads UTF-8 with and without a BOM, UTF-16 LE/BE with a BOM, UTF-16 LE without one, and Windows-1252', () => {
    expect(decodeStatement(Buffer.from(text, 'utf8'))).toBe(text);
    expect(decodeStatement(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]))).toBe(
      text,
    );
    expect(decodeStatement(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]))).toBe(
      text,
    );
    expect(
      decodeStatement(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()])),
    ).toBe(text);
    expect(decodeStatement(Buffer.from(text, 'utf16le'))).toBe(text);
    expect(decodeStatement(Buffer.from(text, 'latin1'))).toBe(text);
  });
});

describe('statementNumber', () => {
  it.each([
    ['10 000.00', 10000],
    ['-1,234.50', -1234.5],
    ['0,10', 0.1],
    ['1,000', 1000],
    ['1.00 Lots', 1],
    ['\u22123.5', -3.5],
    ['$12', 12],
    ['9\u00a0656.75', 9656.75],
  ])('%s is %d', (raw, v) => expect(statementNumber(raw)).toBe(v));
  it('is NaN for no number', () => {
    expect(statementNumber('')).toBeNaN();
    expect(statementNumber('-')).toBeNaN();
    expect(statementNumber(undefined)).toBeNaN();
  });
});

describe('statementTime', () => {
  it.each([
    ['2024.01.15 10:23:45', '2024-01-15T10:23:45.000Z'],
    ['2024.01.15 10:23', '2024-01-15T10:23:00.000Z'],
    ['2024-01-15 10:23:45', '2024-01-15T10:23:45.000Z'],
    ['15/01/2024 10:23:45.12', '2024-01-15T10:23:45.120Z'],
    ['15.01.2024 10:23:45.123', '2024-01-15T10:23:45.123Z'],
    ['45306.4375', '2024-01-15T10:30:00.000Z'],
  ])('%s', (raw, iso) => expect(new Date(statementTime(raw)).toISOString()).toBe(iso));
  it('is NaN for what is not a time', () => {
    for (const raw of ['', 'Deposit', '2024.13.01 10:00', '2024.01.15 25:00', '12345'])
      expect(statementTime(raw)).toBeNaN();
  });
});

describe('tables', () => {
  it('reads quoted CSV with the separator of its header and CRLF', () => {
    expect(csvRows('a;b;c\r\n"x;1";"say ""hi""";\r\n\r\n')).toEqual([
      ['a', 'b', 'c'],
      ['x;1', 'say "hi"', ''],
    ]);
    expect(csvRows('a\tb\n1\t2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
  });
  it('reads HTML rows with entities and titles, without hidden cells', () => {
    const { rows, titles } = htmlTable(
      '<table><tr><td title="from #1">2</td><td class="hidden" colspan=3>x</td><td><b>A&amp;B&nbsp;C</b></td></tr><tr><td></td></tr></table>',
    );
    expect(rows).toEqual([['2', 'A&B C']]);
    expect(titles).toEqual([['from #1', '']]);
  });
  it("reads cTrader's header zones as IANA zones", () => {
    expect(zoneOfHeader('Closing Time (UTC+3)')).toBe('Etc/GMT-3');
    expect(zoneOfHeader('Closing Time (UTC-04:00)')).toBe('Etc/GMT+4');
    expect(zoneOfHeader('Closing Time (UTC+0)')).toBe('UTC');
    expect(zoneOfHeader('Closing Time (UTC+5:30)')).toBeNull();
    expect(zoneOfHeader('Closing Time')).toBeNull();
  });
});

describe('parseStatement', () => {
  it('answers null, never throws, for what is no statement', () => {
    for (const bytes of [
      Buffer.alloc(0),
      Buffer.from('PK\u0003\u0004garbage'),
      makeXlsx([
        ['Date', 'Open'],
        ['2024-01-01', 1],
      ]),
      Buffer.from('<html><body><table><tr><td>Deals</td></tr></table></body></html>'),
      Buffer.from([0xff, 0xfe, 0x00, 0xd8]),
    ])
      expect(parseStatement(bytes)).toBeNull();
  });
});

describe('parseStatement on damaged files', () => {
  const fixtures = ['mt5-report.html', 'mt4-statement.html', 'mt5-deals.csv', 'ctrader-history.csv'].map(
    (f) => readFileSync(path.join(import.meta.dirname, '..', 'fixtures', f)),
  );
  const xlsx = makeXlsx([
    [
      'Deal ID',
      'Symbol',
      'Opening Direction',
      'Closing Time',
      'Entry Price',
      'Closing Price',
      'Closing Quantity',
    ],
    ['1', 'EURUSD', 'Buy', '45306.5', 1.1, 1.2, 1],
  ]);
  it('never throws on random bytes, or on a statement cut or overwritten anywhere', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
        parseStatement(Buffer.from(bytes));
      }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...fixtures, xlsx),
        fc.nat(),
        fc.nat(),
        fc.uint8Array({ minLength: 1, maxLength: 16 }),
        (file, cut, at, junk) => {
          const damaged = Buffer.from(file.subarray(0, 1 + (cut % file.length)));
          damaged.set(
            junk.subarray(0, Math.max(0, damaged.length - (at % damaged.length))),
            at % damaged.length,
          );
          parseStatement(damaged);
        },
      ),
      { numRuns: 300 },
    );
  });
});
