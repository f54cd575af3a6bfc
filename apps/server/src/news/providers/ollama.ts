import { Ollama } from 'ollama';
import { MODEL_ANSWER_SCHEMA, SYSTEM_PROMPT } from '../model-answer';
import type { ModelProvider } from './types';

/** Ollama's `/api/chat` through its SDK, with the answer schema as the `format` (structured output). */
export function ollamaProvider(opts: {
  url: string;
  model: string;
  apiKey: string | undefined;
}): ModelProvider {
  return {
    name: 'ollama',
    label: 'Ollama',
    model: opts.model,
    async complete(text, signal) {
      // The SDK's own abort() stops every request of the client; a fetch bound to this call's signal
      // stops only this one.
      const client = new Ollama({
        host: opts.url,
        fetch: (input, init) => fetch(input, { ...init, signal }),
        ...(opts.apiKey ? { headers: { authorization: `Bearer ${opts.apiKey}` } } : {}),
      });
      const res = await client.chat({
        model: opts.model,
        stream: false,
        format: MODEL_ANSWER_SCHEMA,
        options: { temperature: 0.2 },
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: text },
        ],
      });
      return { text: res.message.content, model: res.model || opts.model };
    },
  };
}
