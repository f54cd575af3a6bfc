import { afterEach, expect, it } from 'vitest';
import { NEWS_MESSAGES, NEWS_TEXT_MAX, newsAnalysis } from '@tradedesk/contract';
import type { AppConfig } from '../../config';
import type { NewsConfig, NewsProviderConfig } from '../../news/news-config';
import { startFakeGemini } from '../../testing/fake-gemini';
import type { FakeModelServer } from '../../testing/fake-http-server';
import { startFakeOllama } from '../../testing/fake-ollama';
import { startFakeOpenAI } from '../../testing/fake-openai';
import { createHarness, describeEachDb, type DbTarget, type Harness } from '../../test/harness';

const URL = '/api/news/analyze/';
const HEADLINE =
  'The European Central Bank raised interest rates by 25 basis points on Thursday. ' +
  'President Christine Lagarde said inflation remains too high. The euro rose against the dollar after the decision.';
const MODEL_JSON = JSON.stringify({
  summary: 'The ECB raised rates by 25 bp. Lagarde said inflation is too high. The euro rose.',
  sentences: ['The ECB raised rates by 25 bp.', 'Lagarde said inflation is too high.', 'The euro rose.'],
  impact: [
    { instrument: 'eurusd', direction: 'bullish', confidence: 0.7, rationale: 'A hike supports the euro.' },
    {
      instrument: 'GER40',
      direction: 'bearish',
      confidence: 0.5,
      rationale: 'Higher rates weigh on stocks.',
    },
  ],
});

function newsConfig(over: Partial<NewsConfig> = {}): NewsConfig {
  return {
    provider: { name: 'offline' },
    timeoutMs: 2_000,
    concurrency: 4,
    anonymousLimit: { perMinute: 10, perDay: 100 },
    userLimit: { perMinute: 30, perDay: 1000 },
    ...over,
  };
}

describeEachDb('news analysis API', (target: DbTarget) => {
  let h: Harness | undefined;
  let fake: FakeModelServer | undefined;
  afterEach(async () => {
    await h?.close();
    await fake?.close();
    h = undefined;
    fake = undefined;
  });
  const start = async (news: Partial<NewsConfig> = {}, more: Partial<AppConfig> = {}) => {
    h = await createHarness(target, { news: newsConfig(news), ...more });
    return h;
  };
  const analyze = (text: unknown, opts: { ip?: string; token?: string } = {}) =>
    h!.request('POST', URL, { body: { text }, ...opts });

  it('answers without a token with the offline analysis by default', async () => {
    await start();
    const res = await analyze(HEADLINE);
    expect(res.statusCode).toBe(200);
    const body = newsAnalysis.parse(res.json());
    expect(body).toMatchObject({ provider: 'offline', model: 'textrank+rules', note: null });
    expect(body.sentences.length).toBe(3);
    expect(body.impact.find((i) => i.instrument === 'EURUSD')).toMatchObject({ direction: 'bullish' });
    expect(body.impact.find((i) => i.instrument === 'GER40')).toMatchObject({ direction: 'bearish' });
  });

  it('refuses an empty, blank, missing or too long text with a 400 and the spec message', async () => {
    await start();
    for (const text of ['', '   \n ', undefined]) {
      const res = await analyze(text);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: { text: [NEWS_MESSAGES.empty] } });
    }
    const long = await analyze('a'.repeat(NEWS_TEXT_MAX + 1));
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ detail: { text: [NEWS_MESSAGES.tooLong] } });
    expect((await analyze(42)).statusCode).toBe(400);
    const notJson = await h!.request('POST', URL, {
      body: '{"text":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.statusCode).toBe(400);
    expect((await analyze('a'.repeat(NEWS_TEXT_MAX))).statusCode).toBe(200);
  });

  it('limits each address per minute with 429 and Retry-After; other addresses and users are counted apart', async () => {
    await start({ anonymousLimit: { perMinute: 2, perDay: 100 }, userLimit: { perMinute: 4, perDay: 100 } });
    for (let i = 0; i < 2; i++) expect((await analyze('Oil rose.', { ip: '10.0.0.1' })).statusCode).toBe(200);
    const refused = await analyze('Oil rose.', { ip: '10.0.0.1' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json().detail).toContain(NEWS_MESSAGES.rateLimited);
    expect((await analyze('Oil rose.', { ip: '10.0.0.2' })).statusCode).toBe(200);

    // A signed-in user from the same address has their own, higher quota.
    const { token } = await h!.user('reader');
    for (let i = 0; i < 4; i++)
      expect((await analyze('Oil rose.', { ip: '10.0.0.1', token })).statusCode).toBe(200);
    expect((await analyze('Oil rose.', { ip: '10.0.0.1', token })).statusCode).toBe(429);
    // A bad token is no sign-in: the caller is anonymous, not a 401 that would log the landing page out.
    expect((await analyze('Oil rose.', { ip: '10.0.0.3', token: 'not-a-token' })).statusCode).toBe(200);
  });

  it('refuses with 503 and Retry-After when every analysis slot is busy, without using the caller’s quota', async () => {
    fake = await startFakeOpenAI({});
    fake.hang();
    await start({
      concurrency: 1,
      timeoutMs: 1_500,
      anonymousLimit: { perMinute: 2, perDay: 100 },
      provider: { name: 'openai', apiKey: undefined, model: 'm', baseUrl: `${fake.url}/v1` },
    });
    const first = analyze(HEADLINE, { ip: '10.0.0.9' });
    while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    const busy = await analyze(HEADLINE, { ip: '10.0.0.8' });
    expect(busy.statusCode).toBe(503);
    expect(busy.headers['retry-after']).toBe('5');
    expect(busy.json()).toEqual({ detail: NEWS_MESSAGES.busy });
    expect((await first).statusCode).toBe(200);
    fake.answer(MODEL_JSON);
    for (let i = 0; i < 2; i++) expect((await analyze(HEADLINE, { ip: '10.0.0.8' })).statusCode).toBe(200);
  });

  const providers: Array<{
    name: string;
    start(): Promise<FakeModelServer>;
    config(url: string): NewsProviderConfig;
  }> = [
    {
      name: 'gemini',
      start: () => startFakeGemini({ apiKey: 'g-key' }),
      config: (url) => ({ name: 'gemini', apiKey: 'g-key', model: 'gemini-2.5-flash', baseUrl: url }),
    },
    {
      name: 'openai',
      start: () => startFakeOpenAI({ apiKey: 'o-key' }),
      config: (url) => ({ name: 'openai', apiKey: 'o-key', model: 'gpt-4o-mini', baseUrl: `${url}/v1` }),
    },
    {
      name: 'ollama',
      start: () => startFakeOllama({ models: ['llama3.1'] }),
      config: (url) => ({ name: 'ollama', model: 'llama3.1', url, apiKey: undefined }),
    },
  ];

  for (const p of providers) {
    it(`${p.name}: answers with the model's validated analysis`, async () => {
      fake = await p.start();
      fake.answer(MODEL_JSON);
      await start({ provider: p.config(fake.url) });
      const res = await analyze(HEADLINE);
      expect(res.statusCode).toBe(200);
      const body = newsAnalysis.parse(res.json());
      expect(body.provider).toBe(p.name);
      expect(body.note).toBeNull();
      expect(body.instruments).toEqual(['EURUSD', 'GER40']);
      expect(body.sentences).toHaveLength(3);
      expect(JSON.stringify(fake.requests[0]!.body)).toContain(
        'The European Central Bank raised interest rates',
      );
    });

    it(`${p.name}: falls back to the offline analysis with a note on bad output, errors and time-outs`, async () => {
      fake = await p.start();
      await start({ provider: p.config(fake.url), timeoutMs: 300 });
      const cases: Array<[() => void, RegExp]> = [
        [
          () => fake!.answer('Sure! The ECB hiked, so the euro goes up.'),
          /could not be used \(the answer is not JSON\)/,
        ],
        [
          () => fake!.answer('{"summary":"x","sentences":[],"impact":[{"instrument":"EURUSD"}]}'),
          /does not match the schema/,
        ],
        [() => fake!.answer('```json\n{"summary": 3}\n```'), /does not match the schema/],
        [() => fake!.fail(500, 'internal error'), /could not be reached \(HTTP 500\)/],
        [() => fake!.hang(), /did not answer within 0\.3 s/],
      ];
      for (const [arrange, note] of cases) {
        arrange();
        const res = await analyze(HEADLINE);
        expect(res.statusCode).toBe(200);
        const body = newsAnalysis.parse(res.json());
        expect(body.provider).toBe('offline');
        expect(body.note).toMatch(note);
        expect(body.impact.find((i) => i.instrument === 'EURUSD')?.direction).toBe('bullish');
      }
    });
  }

  it('falls back when the provider cannot be reached at all', async () => {
    await start({
      provider: { name: 'ollama', model: 'llama3.1', url: 'http://127.0.0.1:9', apiKey: undefined },
    });
    const body = newsAnalysis.parse((await analyze(HEADLINE)).json());
    expect(body.provider).toBe('offline');
    expect(body.note).toMatch(/could not be reached \(no connection\)/);
  });

  it('logs the size and the provider of an analysis, never the text or the token', async () => {
    const lines: string[] = [];
    fake = await startFakeGemini({ apiKey: 'g-key' });
    fake.answer('not json at all');
    await start(
      { provider: { name: 'gemini', apiKey: 'g-key', model: 'gemini-2.5-flash', baseUrl: fake.url } },
      { logLevel: 'info', logStream: { write: (l: string) => void lines.push(l) } },
    );
    const { token } = await h!.user('logged');
    const secret = 'Zebra-unique-phrase about the Bank of Japan raising rates.';
    expect((await analyze(secret, { token })).statusCode).toBe(200);
    const log = lines.join('');
    expect(log).toContain('news analysed');
    expect(log).toContain(`"chars":${secret.length}`);
    expect(log).toContain('"fallback":"invalid"');
    expect(log).not.toContain('Zebra-unique-phrase');
    expect(log).not.toContain(token);
    expect(log).not.toContain('g-key');
  });
});
