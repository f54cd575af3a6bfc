import { z } from 'zod';

/** Longest news text the analyser accepts, in characters. */
export const NEWS_TEXT_MAX = 20_000;

export const NEWS_MESSAGES = {
  empty: 'Please enter some news content to analyze.',
  tooLong: `Please shorten the news text to ${NEWS_TEXT_MAX.toLocaleString('en-US')} characters or fewer.`,
  failed: 'Could not get a summary. Please try again.',
  rateLimited: 'You have analysed a lot of news in a short time. Please wait before trying again.',
  busy: 'The news analyser is busy right now. Please try again in a few seconds.',
} as const;

export const newsAnalyzeRequest = z.object({
  text: z
    .string({ error: NEWS_MESSAGES.empty })
    .trim()
    .min(1, { error: NEWS_MESSAGES.empty })
    .max(NEWS_TEXT_MAX, { error: NEWS_MESSAGES.tooLong }),
});
export type NewsAnalyzeRequest = z.infer<typeof newsAnalyzeRequest>;

export const newsDirection = z.enum(['bullish', 'bearish', 'mixed', 'unclear']);
export type NewsDirection = z.infer<typeof newsDirection>;

/** The expected effect of the news on one instrument, with the reason in words. */
export const newsImpact = z.object({
  instrument: z.string().trim().min(1).max(32),
  direction: newsDirection,
  confidence: z.number().min(0).max(1),
  rationale: z.string().max(2000),
});
export type NewsImpact = z.infer<typeof newsImpact>;

export const newsProviderName = z.enum(['gemini', 'openai', 'ollama', 'offline']);
export type NewsProviderName = z.infer<typeof newsProviderName>;

export const newsAnalysis = z.object({
  summary: z.string(),
  /** The summary's sentences, in the order they appear in the text. */
  sentences: z.array(z.string()),
  impact: z.array(newsImpact),
  instruments: z.array(z.string()),
  /** Who answered: a model provider, or the offline analyser (also after a provider failed). */
  provider: newsProviderName,
  model: z.string(),
  /** Why the offline analyser answered although a provider is configured; null otherwise. */
  note: z.string().nullable(),
});
export type NewsAnalysis = z.infer<typeof newsAnalysis>;
