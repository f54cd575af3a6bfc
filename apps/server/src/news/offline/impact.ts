import type { NewsDirection, NewsImpact } from '@tradedesk/contract';
import {
  CUE_RULES,
  FAMILY_WEIGHT,
  INDEX_WEIGHT,
  INFLATION_SERIES,
  INVERTED_SERIES,
  MOVE_DOWN,
  MOVE_UP,
  NEGATION,
  RISK_BETA,
  type CueRule,
} from './cues';
import { COMMODITY_CURRENCIES, ENTITIES, RISK_SYMBOLS, exposures, type Entity } from './entities';

/** One rule's push on one asset, with the words that triggered it. */
interface Push {
  asset: string;
  weight: number;
  because: string;
}

interface Mention {
  entity: Entity;
  end: number;
}

const MAX_INSTRUMENTS = 10;
const MAX_REASONS = 6;
const GLOBAL_ENTITY_PATTERNS = ENTITIES.map((e) => new RegExp(e.pattern.source, `${e.pattern.flags}g`));

function mentionsIn(sentence: string): Mention[] {
  const out: Mention[] = [];
  ENTITIES.forEach((entity, i) => {
    for (const m of sentence.matchAll(GLOBAL_ENTITY_PATTERNS[i]!))
      out.push({ entity, end: m.index + m[0].length });
  });
  return out;
}

interface CueMatch {
  rule: CueRule;
  text: string;
}

/** Every cue of the sentence; a span claimed by an earlier rule is not matched again. */
function cuesIn(sentence: string): CueMatch[] {
  const lower = sentence.toLowerCase();
  const taken: Array<[number, number]> = [];
  const out: CueMatch[] = [];
  for (const rule of CUE_RULES) {
    for (const m of lower.matchAll(rule.pattern)) {
      const start = m.index;
      const end = start + m[0].length;
      if (taken.some(([a, b]) => start < b && end > a)) continue;
      taken.push([start, end]);
      if (NEGATION.test(lower.slice(Math.max(0, start - 30), start))) continue;
      out.push({ rule, text: m[0] });
    }
  }
  return out;
}

const ECONOMY_KINDS = new Set(['central_bank', 'country', 'currency']);
const MOVABLE_KINDS = new Set(['currency', 'commodity', 'index', 'crypto']);

/** One entity per asset, first mention first. */
function byAsset(entities: Entity[]): Entity[] {
  const seen = new Set<string>();
  return entities.filter((e) => (seen.has(e.asset) ? false : (seen.add(e.asset), true)));
}

function pushesOf(
  sentence: string,
  mentions: Mention[],
  primary: { economy?: Entity; commodity?: Entity },
): Push[] {
  const pushes: Push[] = [];
  const named = mentions.map((m) => m.entity);
  const banks = named.filter((e) => e.kind === 'central_bank');
  const economies = byAsset(banks.length ? banks : named.filter((e) => ECONOMY_KINDS.has(e.kind)));
  const commodities = byAsset(named.filter((e) => e.kind === 'commodity'));
  for (const { rule, text } of cuesIn(sentence)) {
    const weight = rule.sign * FAMILY_WEIGHT[rule.family];
    const because = (target?: Entity) => `${rule.label} "${text}"${target ? ` (${target.label})` : ''}`;
    if (rule.family === 'monetary' || rule.family === 'surprise') {
      const lower = sentence.toLowerCase();
      const flip = rule.family === 'surprise' && INVERTED_SERIES.test(lower) ? -1 : 1;
      // Rate moves weigh on stocks; growth surprises lift them; hot inflation is a rate move in waiting.
      const indexSign = rule.family === 'monetary' || INFLATION_SERIES.test(lower) ? -1 : 1;
      const targets = economies.length ? economies : primary.economy ? [primary.economy] : [];
      for (const e of targets) {
        pushes.push({ asset: e.asset, weight: weight * flip, because: because(e) });
        if (e.index)
          pushes.push({
            asset: e.index,
            weight: weight * flip * indexSign * INDEX_WEIGHT,
            because: because(e),
          });
      }
    } else if (rule.family === 'supply') {
      const targets = commodities.length ? commodities : primary.commodity ? [primary.commodity] : [];
      for (const c of targets) {
        pushes.push({ asset: c.asset, weight, because: because(c) });
        for (const [currency, beta] of Object.entries(COMMODITY_CURRENCIES[c.asset] ?? {}))
          pushes.push({ asset: currency, weight: weight * beta, because: because(c) });
      }
    } else {
      for (const [asset, beta] of Object.entries(RISK_BETA))
        pushes.push({ asset, weight: weight * beta, because: because() });
    }
  }
  for (const { entity, end } of mentions) {
    if (!MOVABLE_KINDS.has(entity.kind)) continue;
    const after = sentence.slice(end, end + 60).toLowerCase();
    const up = MOVE_UP.exec(after);
    const down = up ? null : MOVE_DOWN.exec(after);
    const verb = up?.[1] ?? down?.[1];
    if (verb)
      pushes.push({
        asset: entity.asset,
        weight: (up ? 1 : -1) * FAMILY_WEIGHT.move,
        because: `reported move "${entity.label} ${verb}"`,
      });
  }
  return pushes;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Sums the pushes through the instrument's exposures into a direction, a confidence and the reasons. */
function judge(symbol: string, pushes: Push[]): NewsImpact | undefined {
  const held = exposures(symbol);
  const parts = pushes
    .map((p) => ({ ...p, effect: p.weight * (held[p.asset] ?? 0) }))
    .filter((p) => p.effect !== 0);
  if (!parts.length) return undefined;
  const up = parts.reduce((s, p) => s + Math.max(0, p.effect), 0);
  const down = parts.reduce((s, p) => s + Math.max(0, -p.effect), 0);
  const net = up - down;
  let direction: NewsDirection;
  if (up > 0 && down > 0 && Math.min(up, down) >= 0.5 * Math.max(up, down)) direction = 'mixed';
  else if (Math.abs(net) < 0.2) direction = 'unclear';
  else direction = net > 0 ? 'bullish' : 'bearish';
  const agreement = Math.abs(net) / (up + down);
  const strength = Math.min(1, (up + down) / 2);
  const confidence = direction === 'unclear' ? 0.1 : round2(Math.min(0.9, 0.2 + 0.7 * agreement * strength));
  const reasons = [...parts]
    .sort((a, b) => Math.abs(b.effect) - Math.abs(a.effect))
    .slice(0, MAX_REASONS)
    .map((p) => `${p.because}: ${p.asset} ${p.weight > 0 ? 'up' : 'down'}`);
  const unique = [...new Set(reasons)];
  return { instrument: symbol, direction, confidence, rationale: `${unique.join('; ')}.` };
}

function undecided(symbol: string): NewsImpact {
  return {
    instrument: symbol,
    direction: 'unclear',
    confidence: 0,
    rationale: `The text names ${symbol} but none of the direction rules matched.`,
  };
}

/** The instruments the sentences concern, and the expected direction of each with the matched cues. */
export function analyseImpact(sentences: readonly string[]): { impact: NewsImpact[]; instruments: string[] } {
  const perSentence = sentences.map(mentionsIn);
  const all = perSentence.flat().map((m) => m.entity);
  const primary = {
    economy: all.find((e) => e.kind === 'central_bank') ?? all.find((e) => ECONOMY_KINDS.has(e.kind)),
    commodity: all.find((e) => e.kind === 'commodity'),
  };
  const pushes = sentences.flatMap((s, i) => pushesOf(s, perSentence[i]!, primary));
  const symbols = new Set(all.flatMap((e) => e.symbols));
  if (pushes.some((p) => p.because.startsWith('risk'))) for (const s of RISK_SYMBOLS) symbols.add(s);
  // Instruments a cue reaches come first; the others are named but undecided.
  const judged = [...symbols].map((s) => judge(s, pushes));
  const impact = judged.filter((j) => j !== undefined).slice(0, MAX_INSTRUMENTS);
  if (!impact.length) impact.push(...[...symbols].slice(0, MAX_INSTRUMENTS).map(undecided));
  return { impact, instruments: impact.map((i) => i.instrument) };
}
