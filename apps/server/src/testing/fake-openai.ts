import { startFakeModelServer, type FakeModelServer } from './fake-http-server';

const openaiError = (status: number, message: string, type: string, code: string | null) => ({
  status,
  body: { error: { message, type, param: null, code } },
});

/**
 * An OpenAI-compatible `POST {base}/chat/completions` (base ending in `/v1`), as OpenAI, vLLM or llama.cpp
 * serve it: `Authorization: Bearer <key>`, errors as `{error: {message, type, param, code}}`, answers as
 * `choices[0].message.content`. Without `apiKey` it accepts any caller, as local servers do.
 */
export function startFakeOpenAI(opts: { apiKey?: string }): Promise<FakeModelServer> {
  return startFakeModelServer((req, behaviour) => {
    if (req.method !== 'POST' || req.path !== '/v1/chat/completions')
      return openaiError(
        404,
        `Unknown request URL: ${req.method} ${req.path}`,
        'invalid_request_error',
        'unknown_url',
      );
    if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`)
      return openaiError(401, 'Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key');
    if (behaviour.kind === 'hang') return 'hang';
    if (behaviour.kind === 'error')
      return openaiError(behaviour.status, behaviour.message, 'server_error', null);
    const model = (req.body as { model?: string } | undefined)?.model ?? 'unknown';
    return {
      status: 200,
      body: {
        id: 'chatcmpl-fake1',
        object: 'chat.completion',
        created: 1_767_225_600,
        model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: behaviour.text, refusal: null },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 120, completion_tokens: 80, total_tokens: 200 },
      },
    };
  });
}
