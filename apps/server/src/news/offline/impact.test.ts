import { describe, expect, it } from 'vitest';
import { analyseOffline } from './analyse-offline';
import { exposures } from './entities';
import { analyseImpact } from './impact';

const directionOf = (sentences: string[], symbol: string) =>
  analyseImpact(sentences).impact.find((i) => i.instrument === symbol);

describe('offline impact rules', () => {
  it('reads a pair as long its base and short its quote; indices and commodities as themselves', () => {
    expect(exposures('EURUSD')).toEqual({ EUR: 1, USD: -1 });
    expect(exposures('XAUUSD')).toEqual({ XAU: 1, USD: -1 });
    expect(exposures('GER40')).toEqual({ GER40: 1 });
    expect(exposures('BRENT')).toEqual({ OIL: 1 });
  });

  it('drops a cue that a negation comes just before', () => {
    const negated = directionOf(['The Federal Reserve did not raise interest rates.'], 'EURUSD');
    expect(negated).toMatchObject({ direction: 'unclear', confidence: 0 });
    expect(directionOf(['The Federal Reserve raised interest rates.'], 'EURUSD')?.direction).toBe('bearish');
  });

  it('lists a named instrument as unclear when no rule matches, saying so', () => {
    const { impact, instruments } = analyseImpact(['The ECB published its annual report on Tuesday.']);
    expect(instruments).toEqual(['EURUSD', 'EURJPY', 'GER40']);
    expect(impact[0]).toMatchObject({ direction: 'unclear', confidence: 0 });
    expect(impact[0]!.rationale).toMatch(/none of the direction rules matched/);
  });

  it('gives an opposing pair of cues as mixed with a low confidence', () => {
    const mixed = directionOf(['The ECB raised interest rates but signalled rate cuts next year.'], 'EURUSD');
    expect(mixed?.direction).toBe('mixed');
    expect(mixed!.confidence).toBeLessThan(0.3);
    expect(mixed!.rationale).toContain('hawkish "raised interest rates" (ECB): EUR up');
    expect(mixed!.rationale).toContain('dovish "rate cuts" (ECB): EUR down');
  });

  it('attributes a cue in a sentence without a subject to the text’s central bank', () => {
    const r = directionOf(
      ['The Bank of England met on Thursday.', 'It cut interest rates by 25 basis points.'],
      'GBPUSD',
    );
    expect(r?.direction).toBe('bearish');
  });

  it('says nothing about instruments for a text with no market content', () => {
    expect(analyseImpact(['My cat sleeps all day.'])).toEqual({ impact: [], instruments: [] });
  });
});

describe('offline analysis of a text with very many sentences', () => {
  it('reads only the first 400 sentences for direction', () => {
    const filler = 'Nothing happened. '.repeat(450);
    expect(analyseOffline(`The ECB raised interest rates. ${filler}`).instruments).toContain('EURUSD');
    expect(analyseOffline(`${filler}The ECB raised interest rates.`).instruments).toEqual([]);
  });
});
