import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';

describe('news configuration from the environment', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradedesk-news-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, ...env }).news;

  it('defaults to the offline analyser with a 20 s time-out', () => {
    expect(load({})).toMatchObject({ provider: { name: 'offline' }, timeoutMs: 20_000, concurrency: 4 });
  });

  it('reads each provider’s variables', () => {
    expect(
      load({ NEWS_PROVIDER: 'gemini', GEMINI_API_KEY: 'k', GEMINI_MODEL: 'gemini-2.5-pro' }).provider,
    ).toEqual({
      name: 'gemini',
      apiKey: 'k',
      model: 'gemini-2.5-pro',
      baseUrl: undefined,
    });
    expect(
      load({ NEWS_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1/', OPENAI_MODEL: 'qwen' })
        .provider,
    ).toEqual({ name: 'openai', apiKey: undefined, model: 'qwen', baseUrl: 'http://127.0.0.1:8000/v1' });
    expect(load({ NEWS_PROVIDER: 'ollama', NEWS_TIMEOUT_MS: '5000' })).toMatchObject({
      timeoutMs: 5000,
      provider: { name: 'ollama', url: 'http://127.0.0.1:11434', model: 'llama3.1' },
    });
  });

  it('refuses Gemini without a key, an unknown provider and a URL that is not http(s)', () => {
    expect(() => load({ NEWS_PROVIDER: 'gemini' })).toThrow(
      /GEMINI_API_KEY: required when NEWS_PROVIDER=gemini/,
    );
    expect(() => load({ NEWS_PROVIDER: 'claude' })).toThrow(/NEWS_PROVIDER/);
    expect(() => load({ NEWS_PROVIDER: 'ollama', OLLAMA_URL: 'localhost:11434' })).toThrow(
      /OLLAMA_URL must be an http\(s\):\/\/ URL/,
    );
  });
});
