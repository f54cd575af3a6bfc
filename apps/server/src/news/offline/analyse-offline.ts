import type { NewsAnalysis } from '@tradedesk/contract';
import { analyseImpact } from './impact';
import { splitSentences, summarise } from './summarise';

export const OFFLINE_MODEL = 'textrank+rules';

/**
 * A 20,000-character news text has about 200 sentences; only a pathological one has more, and the rules
 * then read its first ones, so one request cannot hold the event loop for long (bench/news-offline).
 */
const MAX_SENTENCES_READ = 400;

/**
 * The default analyser: no network, no model download. The summary is extractive (the text's own
 * sentences); the impact comes from the stated rules in cues.ts over the whole text.
 */
export function analyseOffline(text: string, note: string | null = null): NewsAnalysis {
  const split = splitSentences(text);
  const sentences = summarise(split);
  const { impact, instruments } = analyseImpact(split.sentences.slice(0, MAX_SENTENCES_READ));
  return {
    summary: sentences.join(' '),
    sentences,
    impact,
    instruments,
    provider: 'offline',
    model: OFFLINE_MODEL,
    note,
  };
}
