import { GoogleGenAI } from '@google/genai';
import { MODEL_ANSWER_SCHEMA, SYSTEM_PROMPT } from '../model-answer';
import type { ModelProvider } from './types';

/**
 * The Generative Language API's `generateContent` through Google's SDK (key in `x-goog-api-key`),
 * asking for JSON in the answer schema and reading the first candidate's text.
 */
export function geminiProvider(opts: {
  apiKey: string;
  model: string;
  baseUrl: string | undefined;
}): ModelProvider {
  const ai = new GoogleGenAI({
    apiKey: opts.apiKey,
    // One attempt: the time-out budget belongs to the caller, and the offline analyser is the retry.
    httpOptions: {
      ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
      // responseJsonSchema is documented on v1beta; the SDK's default is v1.
      apiVersion: 'v1beta',
      retryOptions: { attempts: 1 },
    },
  });
  return {
    name: 'gemini',
    label: 'Gemini',
    model: opts.model,
    async complete(text, signal) {
      const res = await ai.models.generateContent({
        model: opts.model,
        contents: [{ role: 'user', parts: [{ text }] }],
        config: {
          systemInstruction: SYSTEM_PROMPT,
          responseMimeType: 'application/json',
          responseJsonSchema: MODEL_ANSWER_SCHEMA,
          temperature: 0.2,
          abortSignal: signal,
        },
      });
      const parts = res.candidates?.[0]?.content?.parts ?? [];
      return { text: parts.map((p) => p.text ?? '').join(''), model: res.modelVersion ?? opts.model };
    },
  };
}
