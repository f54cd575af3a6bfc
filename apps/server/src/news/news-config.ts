import { z } from 'zod';

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));
const optionalUrl = (name: string) =>
  optionalText
    .transform((v) => v?.replace(/\/+$/, ''))
    .refine((v) => v === undefined || /^https?:\/\//.test(v), {
      message: `${name} must be an http(s):// URL`,
    });

/** The environment variables of the news analyser (README, "News analysis"). */
export const newsEnv = {
  NEWS_PROVIDER: z.enum(['offline', 'gemini', 'openai', 'ollama']).default('offline'),
  NEWS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  NEWS_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(4),
  GEMINI_API_KEY: optionalText,
  GEMINI_MODEL: z.string().trim().min(1).default('gemini-2.5-flash'),
  GEMINI_BASE_URL: optionalUrl('GEMINI_BASE_URL'),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalUrl('OPENAI_BASE_URL'),
  OPENAI_MODEL: z.string().trim().min(1).default('gpt-4o-mini'),
  OLLAMA_URL: optionalUrl('OLLAMA_URL'),
  OLLAMA_MODEL: z.string().trim().min(1).default('llama3.1'),
  /** Only for hosted Ollama endpoints that want a bearer token; a local Ollama needs none. */
  OLLAMA_API_KEY: optionalText,
};

type NewsEnv = { [K in keyof typeof newsEnv]: z.infer<(typeof newsEnv)[K]> };

export interface NewsRateLimit {
  perMinute: number;
  perDay: number;
}

export type NewsProviderConfig =
  | { name: 'offline' }
  | { name: 'gemini'; apiKey: string; model: string; baseUrl: string | undefined }
  | { name: 'openai'; apiKey: string | undefined; model: string; baseUrl: string }
  | { name: 'ollama'; model: string; url: string; apiKey: string | undefined };

export interface NewsConfig {
  provider: NewsProviderConfig;
  /** How long a provider may take before the offline analyser answers instead. */
  timeoutMs: number;
  /** Analyses running at once across all callers; more wait for a free slot or are refused. */
  concurrency: number;
  /** Per client address without a token, and per signed-in user. */
  anonymousLimit: NewsRateLimit;
  userLimit: NewsRateLimit;
}

export function newsConfig(e: NewsEnv): NewsConfig {
  const base = {
    timeoutMs: e.NEWS_TIMEOUT_MS,
    concurrency: e.NEWS_CONCURRENCY,
    anonymousLimit: { perMinute: 10, perDay: 100 },
    userLimit: { perMinute: 30, perDay: 1000 },
  };
  switch (e.NEWS_PROVIDER) {
    case 'gemini':
      if (!e.GEMINI_API_KEY)
        throw new Error('Invalid configuration:\n  GEMINI_API_KEY: required when NEWS_PROVIDER=gemini');
      return {
        ...base,
        provider: {
          name: 'gemini',
          apiKey: e.GEMINI_API_KEY,
          model: e.GEMINI_MODEL,
          baseUrl: e.GEMINI_BASE_URL,
        },
      };
    case 'openai':
      return {
        ...base,
        provider: {
          name: 'openai',
          apiKey: e.OPENAI_API_KEY,
          model: e.OPENAI_MODEL,
          baseUrl: e.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
        },
      };
    case 'ollama':
      return {
        ...base,
        provider: {
          name: 'ollama',
          model: e.OLLAMA_MODEL,
          url: e.OLLAMA_URL ?? 'http://127.0.0.1:11434',
          apiKey: e.OLLAMA_API_KEY,
        },
      };
    default:
      return { ...base, provider: { name: 'offline' } };
  }
}
