import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newsAnalysis } from '@tradedesk/contract';
import { analyseOffline } from './analyse-offline';

const NEWS_WORDS = [
  'The ECB',
  'the Fed',
  'Bank of Japan',
  'oil',
  'gold',
  'the dollar',
  'raised interest rates',
  'cut rates',
  'did not',
  'more than expected',
  'fell',
  'rose',
  'war',
  'ceasefire',
  'OPEC+ cut output',
  'inventories rose',
  '.',
  ',',
  '!',
  '?',
  '\n',
  'U.S.',
  '3.5%',
  '😀',
];

describe('offline analysis of any text', () => {
  it('always answers in the contract’s shape, with at most 5 summary sentences taken from the text', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.array(fc.constantFrom(...NEWS_WORDS), { maxLength: 60 }).map((ws) => ws.join(' ')),
    );
    fc.assert(
      fc.property(text, (t) => {
        const out = analyseOffline(t);
        expect(newsAnalysis.safeParse(out).success).toBe(true);
        expect(out.sentences.length).toBeLessThanOrEqual(5);
        expect(out.summary).toBe(out.sentences.join(' '));
        expect(new Set(out.instruments).size).toBe(out.instruments.length);
      }),
      { numRuns: 300 },
    );
  });
});
