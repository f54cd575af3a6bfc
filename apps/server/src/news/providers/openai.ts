import OpenAI from 'openai';
import { MODEL_ANSWER_SCHEMA, SYSTEM_PROMPT } from '../model-answer';
import type { ModelProvider } from './types';

/**
 * Chat completions through the OpenAI SDK, at any OpenAI-compatible base URL (OpenAI, vLLM, LM Studio,
 * llama.cpp's server), with the answer schema as a strict `json_schema` response format.
 */
export function openaiProvider(opts: {
  apiKey: string | undefined;
  model: string;
  baseUrl: string;
}): ModelProvider {
  const client = new OpenAI({
    // Local servers usually need no key, but the SDK insists on one.
    apiKey: opts.apiKey ?? 'no-key',
    baseURL: opts.baseUrl,
    maxRetries: 0,
  });
  return {
    name: 'openai',
    label: 'OpenAI-compatible',
    model: opts.model,
    async complete(text, signal) {
      const res = await client.chat.completions.create(
        {
          model: opts.model,
          temperature: 0.2,
          messages: [
            { role: 'system', content: SYSTEM_PROMPT },
            { role: 'user', content: text },
          ],
          response_format: {
            type: 'json_schema',
            json_schema: { name: 'news_analysis', strict: true, schema: MODEL_ANSWER_SCHEMA },
          },
        },
        { signal },
      );
      return { text: res.choices[0]?.message?.content ?? '', model: res.model || opts.model };
    },
  };
}
