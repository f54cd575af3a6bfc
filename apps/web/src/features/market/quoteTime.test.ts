import { describe, expect, it } from 'vitest';
import { lastQuoteText } from './quoteTime';

describe('lastQuoteText', () => {
  const sunday = new Date(2026, 10, 22, 11, 0, 0);

  it('shows only the time for a quote from today', () => {
    const t = new Date(2026, 10, 22, 10, 59, 58);
    expect(lastQuoteText(t.toISOString(), sunday)).toBe(`Last quote ${t.toLocaleTimeString()}`);
  });

  it("names the day of an older quote, so Friday's close is not read as today's", () => {
    const friday = new Date(2026, 10, 20, 21, 59, 59);
    const text = lastQuoteText(friday.toISOString(), sunday);
    const day = friday.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
    expect(text).toBe(`Last quote ${day}, ${friday.toLocaleTimeString()}`);
    expect(text).toContain('20');
  });

  it('says there is no quote for an unreadable time', () => {
    expect(lastQuoteText('not a time', sunday)).toBe('No quote yet');
  });
});
