import { startFakeModelServer, type FakeModelServer } from './fake-http-server';

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

const googleError = (code: number, message: string) => ({
  status: code,
  body: { error: { code, message, status: STATUS_NAMES[code] ?? 'UNKNOWN' } },
});

/**
 * The Generative Language API's `POST /v1beta/models/{model}:generateContent` as Google serves it: the key
 * in `x-goog-api-key` (a wrong key is a 400 INVALID_ARGUMENT, as the real service answers), errors as
 * `{error: {code, message, status}}`, answers as `candidates[].content.parts[].text`.
 */
export function startFakeGemini(opts: { apiKey: string }): Promise<FakeModelServer> {
  return startFakeModelServer((req, behaviour) => {
    const m = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(req.path);
    if (req.method !== 'POST' || !m) return googleError(404, `Method not found: ${req.method} ${req.path}`);
    if (req.headers['x-goog-api-key'] !== opts.apiKey)
      return googleError(400, 'API key not valid. Please pass a valid API key.');
    if (behaviour.kind === 'hang') return 'hang';
    if (behaviour.kind === 'error') return googleError(behaviour.status, behaviour.message);
    return {
      status: 200,
      body: {
        candidates: [
          { content: { parts: [{ text: behaviour.text }], role: 'model' }, finishReason: 'STOP', index: 0 },
        ],
        usageMetadata: { promptTokenCount: 120, candidatesTokenCount: 80, totalTokenCount: 200 },
        modelVersion: decodeURIComponent(m[1]!),
        responseId: 'fake-response-1',
      },
    };
  });
}
