import { describe, expect, it } from 'vitest';
import { fromModelAnswer, InvalidModelAnswer, MODEL_ANSWER_SCHEMA, parseModelAnswer } from './model-answer';

const VALID = {
  summary: 'The ECB hiked.',
  sentences: ['The ECB hiked.'],
  impact: [{ instrument: 'eurusd', direction: 'bullish', confidence: 0.6, rationale: 'Hike.' }],
};

describe('model answers', () => {
  it('accepts JSON, also inside a ```json fence', () => {
    expect(parseModelAnswer(JSON.stringify(VALID))).toEqual(VALID);
    expect(parseModelAnswer('```json\n' + JSON.stringify(VALID) + '\n```')).toEqual(VALID);
  });

  it('refuses prose, extra fields, unknown directions and out-of-range confidence', () => {
    expect(() => parseModelAnswer('The euro goes up.')).toThrow(InvalidModelAnswer);
    expect(() => parseModelAnswer(JSON.stringify({ ...VALID, mood: 'happy' }))).toThrow(/does not match/);
    const bad = (impact: object) => JSON.stringify({ ...VALID, impact: [{ ...VALID.impact[0], ...impact }] });
    expect(() => parseModelAnswer(bad({ direction: 'up' }))).toThrow(/impact\.0\.direction/);
    expect(() => parseModelAnswer(bad({ confidence: 1.5 }))).toThrow(/impact\.0\.confidence/);
  });

  it('sends a schema that requires every field and allows no other', () => {
    expect(MODEL_ANSWER_SCHEMA).toMatchObject({
      type: 'object',
      required: ['summary', 'sentences', 'impact'],
      additionalProperties: false,
      properties: { impact: { items: { additionalProperties: false } } },
    });
    expect(JSON.stringify(MODEL_ANSWER_SCHEMA)).not.toMatch(/\$schema|maxLength|minimum/);
  });

  it('upper-cases tickers, lists each instrument once and falls back to the summary as its sentence', () => {
    const out = fromModelAnswer(
      {
        ...VALID,
        sentences: [],
        impact: [VALID.impact[0]!, { ...VALID.impact[0]!, instrument: 'EURUSD' }],
      } as never,
      'ollama',
      'llama3.1',
    );
    expect(out).toMatchObject({
      provider: 'ollama',
      model: 'llama3.1',
      note: null,
      sentences: ['The ECB hiked.'],
    });
    expect(out.instruments).toEqual(['EURUSD']);
    expect(out.impact).toHaveLength(1);
  });
});
