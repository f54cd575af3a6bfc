import { NEWS_MESSAGES, type NewsAnalysis } from '@tradedesk/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { HttpError } from '../../lib/http-error';
import { createNewsAnalyser } from '../../news/news-analyser';
import { createNewsQuota, createSlots } from './news.limits';

/** Seconds a caller refused for lack of a free slot is told to wait: analyses take seconds at most. */
const BUSY_RETRY_SECONDS = 5;

export interface NewsCaller {
  ip: string;
  /** Set when the request carries a valid access token: signed-in users get the higher quota. */
  userId: string | undefined;
}

export class NewsRefused extends HttpError {
  constructor(
    status: 429 | 503,
    detail: string,
    readonly retryAfter: number,
  ) {
    super(status, detail);
  }
}

export function newsService(ctx: AppContext) {
  const cfg = ctx.config.news;
  const analyser = createNewsAnalyser(cfg);
  const quota = createNewsQuota();
  const slots = createSlots(cfg.concurrency);

  return {
    async analyze(caller: NewsCaller, text: string, log: FastifyBaseLogger): Promise<NewsAnalysis> {
      const key = caller.userId ? `user:${caller.userId}` : `ip:${caller.ip}`;
      const wait = quota.take(key, caller.userId ? cfg.userLimit : cfg.anonymousLimit);
      if (wait > 0) throw new NewsRefused(429, `${NEWS_MESSAGES.rateLimited} (retry in ${wait} s)`, wait);
      const release = slots.tryAcquire();
      if (!release) {
        quota.refund(key);
        throw new NewsRefused(503, NEWS_MESSAGES.busy, BUSY_RETRY_SECONDS);
      }
      const started = performance.now();
      try {
        const { analysis, fallback } = await analyser.analyse(text, (f) =>
          log.warn({ news: f }, 'news provider failed; offline analysis used'),
        );
        // The text itself is never logged: only its size and what answered.
        log.info(
          {
            news: {
              chars: text.length,
              provider: analysis.provider,
              model: analysis.model,
              fallback,
              instruments: analysis.instruments.length,
              ms: Math.round(performance.now() - started),
              signed_in: caller.userId !== undefined,
            },
          },
          'news analysed',
        );
        return analysis;
      } finally {
        release();
      }
    },
  };
}
