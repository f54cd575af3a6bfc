import { describe, expect, it } from 'vitest';
import { reportQuery, type ReportFilters } from './reports.api';

const filters: ReportFilters = { account: '', from: '2026-01-01', to: '', instrument: ' eurusd ', tag: '' };

describe('reportQuery', () => {
  it('sends no tz when a zone is saved, so the server reads the saved one', () => {
    expect(reportQuery(filters, { ready: true, tz: undefined, key: 'Asia/Tokyo' })).toBe(
      '?from=2026-01-01&instrument=eurusd',
    );
  });

  it("sends the browser's zone while none is saved, and extra parameters after it", () => {
    expect(
      reportQuery(
        filters,
        { ready: true, tz: 'Europe/London', key: 'browser:Europe/London' },
        { by: 'hour' },
      ),
    ).toBe('?from=2026-01-01&instrument=eurusd&tz=Europe%2FLondon&by=hour');
  });
});
