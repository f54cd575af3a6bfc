import { describe, expect, it } from 'vitest';
import { capTokens, rankSentences, splitSentences, summarise, summaryLength } from './summarise';

const ARTICLE = [
  'The European Central Bank raised interest rates by a quarter point on Thursday to fight inflation.',
  'It was the bank’s tenth rate increase in a row.',
  'My neighbour bought a red bicycle last weekend.',
  'Economists said the interest rate increase would slow inflation in the euro area.',
  'The weather in Frankfurt was sunny and mild.',
  'ECB President Christine Lagarde said inflation was still expected to remain too high for too long.',
  'A local bakery won a prize for its bread.',
  'Markets now expect the bank to hold rates steady while inflation eases.',
  'The football season starts next month.',
  'Several members of the Governing Council argued against another rate increase.',
  'The zoo welcomed two baby penguins.',
  'Bond yields in the euro area rose after the rate decision.',
];

describe('extractive summary', () => {
  it('splits sentences with wink-nlp, keeping abbreviations and decimals inside them', () => {
    const { sentences } = splitSentences(
      'Mr. Smith said U.S. growth was 2.5% in Q1. The Fed held. Stocks rose!',
    );
    expect(sentences).toEqual([
      'Mr. Smith said U.S. growth was 2.5% in Q1.',
      'The Fed held.',
      'Stocks rose!',
    ]);
  });

  it('keeps 3 to 5 sentences, about a quarter of the text', () => {
    expect([1, 2, 3, 4, 8, 12, 16, 20, 40, 200].map(summaryLength)).toEqual([1, 2, 3, 3, 3, 3, 4, 5, 5, 5]);
  });

  it('picks the sentences about the text’s topic, in their original order, not the digressions', () => {
    const picked = summarise(splitSentences(ARTICLE.join(' ')));
    expect(picked).toHaveLength(3);
    const positions = picked.map((s) => ARTICLE.indexOf(s));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    for (const s of picked) expect(s).toMatch(/rate|inflation/i);
  });

  it('ranks a sentence sharing words with many others above an isolated one', () => {
    const { words } = splitSentences(ARTICLE.join(' '));
    const score = rankSentences(words);
    expect(score[3]!).toBeGreaterThan(score[2]!);
    expect(score[11]!).toBeGreaterThan(score[10]!);
  });

  it('returns a short text whole', () => {
    expect(summarise(splitSentences('Oil rose. Gold fell.'))).toEqual(['Oil rose.', 'Gold fell.']);
  });
});

describe('long runs without spaces', () => {
  it('are cut to 64 characters before the tokenizer (its time grows with the square of a token)', () => {
    expect(capTokens(`see ${'x'.repeat(100)} now`)).toBe(`see ${'x'.repeat(64)}… now`);
    expect(capTokens('short words stay')).toBe('short words stay');
    expect(splitSentences('a'.repeat(20_000)).sentences[0]).toHaveLength(65);
  });
});

describe('pathological sentence counts', () => {
  it('ranks only the first 400 sentences; the rest score 0', () => {
    const words = Array.from({ length: 450 }, () => ['rate', 'bank', 'euro']);
    const score = rankSentences(words);
    expect(score).toHaveLength(450);
    expect(score[399]!).toBeGreaterThan(0);
    expect(score.slice(400).every((s) => s === 0)).toBe(true);
  });
});
