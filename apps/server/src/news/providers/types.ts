/** A language-model service the news analyser can ask; the answer is the model's raw text. */
export interface ModelProvider {
  name: 'gemini' | 'openai' | 'ollama';
  /** Shown in notes: "Gemini", "OpenAI-compatible", "Ollama". */
  label: string;
  model: string;
  /** Rejects on an HTTP or network failure, or when `signal` aborts (the time-out). */
  complete(text: string, signal: AbortSignal): Promise<{ text: string; model: string }>;
}

/** HTTP status of an SDK's error, when it has one (each SDK names it differently). */
export function statusOf(err: unknown): number | undefined {
  if (!err || typeof err !== 'object') return undefined;
  const e = err as { status?: unknown; status_code?: unknown };
  const s = typeof e.status === 'number' ? e.status : e.status_code;
  return typeof s === 'number' ? s : undefined;
}
