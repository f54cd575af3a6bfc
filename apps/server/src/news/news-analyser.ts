import type { NewsAnalysis } from '@tradedesk/contract';
import type { NewsConfig, NewsProviderConfig } from './news-config';
import { fromModelAnswer, InvalidModelAnswer, parseModelAnswer } from './model-answer';
import { analyseOffline } from './offline/analyse-offline';
import { geminiProvider } from './providers/gemini';
import { ollamaProvider } from './providers/ollama';
import { openaiProvider } from './providers/openai';
import { statusOf, type ModelProvider } from './providers/types';

export function createModelProvider(config: NewsProviderConfig): ModelProvider | undefined {
  switch (config.name) {
    case 'gemini':
      return geminiProvider(config);
    case 'openai':
      return openaiProvider(config);
    case 'ollama':
      return ollamaProvider(config);
    default:
      return undefined;
  }
}

/** Why a provider's answer was not used: a short reason for the note and the log, never the text. */
export type FallbackReason = 'timeout' | 'invalid' | 'failed';

export interface AnalysisOutcome {
  analysis: NewsAnalysis;
  fallback: FallbackReason | null;
}

class TimedOut extends Error {}

/**
 * Asks the configured model and validates its answer; on a time-out, an error or an unusable answer the
 * offline analyser answers with a note saying why. Never throws for a provider's failure.
 */
export function createNewsAnalyser(config: NewsConfig, provider = createModelProvider(config.provider)) {
  async function ask(p: ModelProvider, text: string): Promise<NewsAnalysis> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // The race holds even if an SDK ignores the abort signal.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new TimedOut());
      }, config.timeoutMs);
    });
    try {
      const out = await Promise.race([p.complete(text, controller.signal), deadline]);
      return fromModelAnswer(parseModelAnswer(out.text), p.name, out.model);
    } finally {
      clearTimeout(timer);
    }
  }

  function note(p: ModelProvider, err: unknown): { reason: FallbackReason; note: string; detail: string } {
    const who = `The ${p.label} model (${p.model})`;
    if (err instanceof TimedOut)
      return {
        reason: 'timeout',
        detail: `no answer in ${config.timeoutMs} ms`,
        note: `${who} did not answer within ${Math.round(config.timeoutMs / 100) / 10} s, so this is the offline analysis.`,
      };
    if (err instanceof InvalidModelAnswer)
      return {
        reason: 'invalid',
        detail: err.message,
        note: `${who} gave an answer that could not be used (${err.message}), so this is the offline analysis.`,
      };
    const status = statusOf(err);
    const detail = status ? `HTTP ${status}` : 'no connection';
    return {
      reason: 'failed',
      detail,
      note: `${who} could not be reached (${detail}), so this is the offline analysis.`,
    };
  }

  return {
    provider,
    async analyse(text: string, log?: (fields: Record<string, unknown>) => void): Promise<AnalysisOutcome> {
      if (!provider) return { analysis: analyseOffline(text), fallback: null };
      try {
        return { analysis: await ask(provider, text), fallback: null };
      } catch (err) {
        const why = note(provider, err);
        log?.({ provider: provider.name, model: provider.model, fallback: why.reason, reason: why.detail });
        return { analysis: analyseOffline(text, why.note), fallback: why.reason };
      }
    },
  };
}
