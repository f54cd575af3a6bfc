import { startFakeModelServer, type FakeModelServer } from './fake-http-server';

/**
 * Ollama's `POST /api/chat` with `stream: false`, as the Ollama server answers it: one JSON object with
 * `message.content` and the timing fields, errors as `{error: "..."}`. A hosted endpoint may want a bearer
 * token (`apiKey`); a local one wants none.
 */
export function startFakeOllama(opts: { apiKey?: string; models?: string[] } = {}): Promise<FakeModelServer> {
  return startFakeModelServer((req, behaviour) => {
    if (req.method !== 'POST' || req.path !== '/api/chat')
      return { status: 404, body: { error: '404 page not found' } };
    if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`)
      return { status: 401, body: { error: 'unauthorized' } };
    const model = (req.body as { model?: string } | undefined)?.model ?? '';
    if (opts.models && !opts.models.includes(model))
      return { status: 404, body: { error: `model "${model}" not found, try pulling it first` } };
    if (behaviour.kind === 'hang') return 'hang';
    if (behaviour.kind === 'error') return { status: behaviour.status, body: { error: behaviour.message } };
    return {
      status: 200,
      body: {
        model,
        created_at: '2026-01-01T00:00:00.000000Z',
        message: { role: 'assistant', content: behaviour.text },
        done: true,
        done_reason: 'stop',
        total_duration: 1_500_000_000,
        load_duration: 10_000_000,
        prompt_eval_count: 120,
        prompt_eval_duration: 400_000_000,
        eval_count: 80,
        eval_duration: 1_000_000_000,
      },
    };
  });
}
