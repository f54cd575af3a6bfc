import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGemini } from '../../testing/fake-gemini';
import type { FakeModelServer, RecordedRequest } from '../../testing/fake-http-server';
import { startFakeOllama } from '../../testing/fake-ollama';
import { startFakeOpenAI } from '../../testing/fake-openai';
import { MODEL_ANSWER_SCHEMA, SYSTEM_PROMPT } from '../model-answer';
import { geminiProvider } from './gemini';
import { ollamaProvider } from './ollama';
import { openaiProvider } from './openai';
import { statusOf, type ModelProvider } from './types';

const KEY = 'test-key-123';
const NEWS = 'The ECB raised interest rates by 25 basis points.';

interface Case {
  name: string;
  start(): Promise<FakeModelServer>;
  provider(url: string, key: string): ModelProvider;
  /** The wrong-key status the real service answers. */
  badKeyStatus: number;
  checkRequest(req: RecordedRequest): void;
}

const body = (req: RecordedRequest) => req.body as Record<string, unknown>;

const CASES: Case[] = [
  {
    name: 'gemini',
    start: () => startFakeGemini({ apiKey: KEY }),
    provider: (url, key) => geminiProvider({ apiKey: key, model: 'gemini-2.5-flash', baseUrl: url }),
    badKeyStatus: 400,
    checkRequest(req) {
      expect(req.method).toBe('POST');
      expect(req.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
      expect(req.headers['x-goog-api-key']).toBe(KEY);
      expect(req.headers.authorization).toBeUndefined();
      expect(body(req).contents).toEqual([{ role: 'user', parts: [{ text: NEWS }] }]);
      expect(body(req).systemInstruction).toMatchObject({ parts: [{ text: SYSTEM_PROMPT }] });
      expect(body(req).generationConfig).toMatchObject({
        responseMimeType: 'application/json',
        responseJsonSchema: MODEL_ANSWER_SCHEMA,
      });
    },
  },
  {
    name: 'openai',
    start: () => startFakeOpenAI({ apiKey: KEY }),
    provider: (url, key) =>
      openaiProvider({ apiKey: key, model: 'qwen2.5-7b-instruct', baseUrl: `${url}/v1` }),
    badKeyStatus: 401,
    checkRequest(req) {
      expect(req.method).toBe('POST');
      expect(req.path).toBe('/v1/chat/completions');
      expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(body(req)).toMatchObject({
        model: 'qwen2.5-7b-instruct',
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: NEWS },
        ],
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'news_analysis', strict: true, schema: MODEL_ANSWER_SCHEMA },
        },
      });
      expect(body(req).stream).toBeFalsy();
    },
  },
  {
    name: 'ollama',
    start: () => startFakeOllama({ apiKey: KEY, models: ['llama3.1'] }),
    provider: (url, key) => ollamaProvider({ url, model: 'llama3.1', apiKey: key }),
    badKeyStatus: 401,
    checkRequest(req) {
      expect(req.method).toBe('POST');
      expect(req.path).toBe('/api/chat');
      expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(body(req)).toMatchObject({
        model: 'llama3.1',
        stream: false,
        format: MODEL_ANSWER_SCHEMA,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: NEWS },
        ],
      });
    },
  },
];

let fake: FakeModelServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe.each(CASES)('$name provider against a fake speaking its protocol', (c) => {
  it('sends the text, the prompt and the answer schema with the key, and reads the model output', async () => {
    fake = await c.start();
    fake.answer('{"summary":"s","sentences":["s"],"impact":[]}');
    const out = await c.provider(fake.url, KEY).complete(NEWS, new AbortController().signal);
    expect(out.text).toBe('{"summary":"s","sentences":["s"],"impact":[]}');
    expect(fake.requests).toHaveLength(1);
    c.checkRequest(fake.requests[0]!);
  });

  it('rejects with the HTTP status on a wrong key, and does not retry', async () => {
    fake = await c.start();
    await expect(
      c.provider(fake.url, 'wrong').complete(NEWS, new AbortController().signal),
    ).rejects.toSatisfy((err) => statusOf(err) === c.badKeyStatus);
    expect(fake.requests).toHaveLength(1);
  });

  it('rejects with the HTTP status when the service fails', async () => {
    fake = await c.start();
    fake.fail(503, 'The model is overloaded. Please try again later.');
    await expect(c.provider(fake.url, KEY).complete(NEWS, new AbortController().signal)).rejects.toSatisfy(
      (err) => statusOf(err) === 503,
    );
    expect(fake.requests).toHaveLength(1);
  });

  it('stops waiting when the signal aborts (the time-out)', async () => {
    fake = await c.start();
    fake.hang();
    const controller = new AbortController();
    const started = Date.now();
    const pending = c.provider(fake.url, KEY).complete(NEWS, controller.signal);
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('ollama provider without a key', () => {
  it('sends no Authorization header to a local Ollama', async () => {
    fake = await startFakeOllama();
    fake.answer('{}');
    await ollamaProvider({ url: fake.url, model: 'llama3.1', apiKey: undefined }).complete(
      NEWS,
      new AbortController().signal,
    );
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('rejects with 404 for a model the server has not pulled', async () => {
    fake = await startFakeOllama({ models: ['llama3.1'] });
    await expect(
      ollamaProvider({ url: fake.url, model: 'mistral', apiKey: undefined }).complete(
        NEWS,
        new AbortController().signal,
      ),
    ).rejects.toSatisfy((err) => statusOf(err) === 404);
  });
});
