import { describe, expect, it } from 'vitest';
import { calendarCsv, toCsv } from './csv';

describe('report CSV', () => {
  it('quotes fields with commas, quotes and line breaks', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          [null, 3],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n,3\r\n');
  });

  it('writes the calendar: every day, then week, month and year totals', () => {
    const day = (key: string, net_minor: number, trades: number, wins: number, losses: number) => ({
      key,
      net_minor,
      trades,
      wins,
      losses,
    });
    const csv = calendarCsv(
      {
        days: [day('2026-01-05', 100, 2, 1, 1), day('2026-01-07', -250, 2, 1, 1)],
        weeks: [day('2026-01-05', -150, 4, 2, 2)],
        months: [day('2026-01', -150, 4, 2, 2)],
        years: [day('2026', -150, 4, 2, 2)],
      },
      'USD',
      (m) => (m / 100).toFixed(2),
    );
    expect(csv.split('\r\n')).toEqual([
      'Period,Date,P/L (USD),Trades,Wins,Losses',
      'Day,2026-01-05,1.00,2,1,1',
      'Day,2026-01-07,-2.50,2,1,1',
      'Week from,2026-01-05,-1.50,4,2,2',
      'Month,2026-01,-1.50,4,2,2',
      'Year,2026,-1.50,4,2,2',
      '',
    ]);
  });
});
