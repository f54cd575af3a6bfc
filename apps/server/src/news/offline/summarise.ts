import winkNLP, { type ItemSentence, type ItemToken, type ItsFunction, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/**
 * Extractive summary by TextRank: sentences are nodes, edges weigh the overlap of their content words
 * (stems, stop words dropped) normalised by sentence length (Mihalcea and Tarau, 2004), and a PageRank
 * walk ranks them. The walk restarts more often at the first sentences because news puts the point in
 * its lead. The best 3-5 sentences are returned in their original order.
 */

const DAMPING = 0.85;
const ITERATIONS = 40;
const MIN_SENTENCES = 3;
const MAX_SENTENCES = 5;
/**
 * Ranking is quadratic in the sentence count; a 20,000-character news text has about 200 sentences, so
 * only a pathological text has more than this, and then only its first sentences compete (the lead).
 */
const MAX_RANKED = 400;

let nlp: WinkMethods | undefined;
/** The English model loads once per process, on first use (about 100 ms). */
function language(): WinkMethods {
  nlp ??= winkNLP(model);
  return nlp;
}

export interface SplitText {
  sentences: string[];
  /** Content-word stems per sentence. */
  words: string[][];
}

/**
 * wink-nlp's tokenizer takes time quadratic in a token's length (20,000 characters without a space take
 * about 25 s), so runs longer than any word are cut before it sees them. No word is that long; a URL may
 * be, and it loses its tail.
 */
const LONGEST_TOKEN = 64;
export const capTokens = (text: string) =>
  text.replace(new RegExp(`\\S{${LONGEST_TOKEN + 1},}`, 'g'), (run) => `${run.slice(0, LONGEST_TOKEN)}…`);

export function splitSentences(text: string): SplitText {
  const n = language();
  const its = n.its;
  const sentences: string[] = [];
  const words: string[][] = [];
  n.readDoc(capTokens(text))
    .sentences()
    .each((s: ItemSentence) => {
      const out = s.out().trim();
      if (!out) return;
      sentences.push(out);
      words.push(
        s
          .tokens()
          .filter((t: ItemToken) => t.out(its.type) === 'word' && !t.out(its.stopWordFlag))
          // wink-nlp's typings declare `its.stem` with a signature `out()` does not accept; it works at run time.
          .out(its.stem as unknown as ItsFunction<string>),
      );
    });
  return { sentences, words };
}

/** Edge weights: distinct shared words over the log lengths; sentences under two words stay unlinked. */
function similarities(words: string[][]): number[][] {
  const sets = words.map((ws) => new Set(ws));
  const logLen = words.map((ws) => (ws.length < 2 ? 0 : Math.log(ws.length)));
  const w = words.map(() => new Array<number>(words.length).fill(0));
  for (let i = 0; i < words.length; i++) {
    if (!logLen[i]) continue;
    for (let j = i + 1; j < words.length; j++) {
      if (!logLen[j]) continue;
      let shared = 0;
      for (const x of sets[i]!) if (sets[j]!.has(x)) shared++;
      w[i]![j] = w[j]![i] = shared / (logLen[i]! + logLen[j]!);
    }
  }
  return w;
}

/** TextRank scores, one per sentence (the sentences after the first MAX_RANKED score 0). */
export function rankSentences(all: string[][]): number[] {
  const words = all.slice(0, MAX_RANKED);
  const n = words.length;
  const w = similarities(words);
  const outSum = w.map((row) => row.reduce((s, x) => s + x, 0));
  // Sparse in-links with the walk's transition weights, so an iteration costs the edges, not n².
  const inLinks = words.map((_, i) => {
    const links: Array<[number, number]> = [];
    for (let j = 0; j < n; j++) if (w[j]![i]! > 0) links.push([j, w[j]![i]! / outSum[j]!]);
    return links;
  });
  // Restart distribution favouring the lead: 1/(position+1), normalised.
  const prior = words.map((_, i) => 1 / (i + 1));
  const priorSum = prior.reduce((s, x) => s + x, 0);
  const restart = prior.map((p) => p / priorSum);
  let score = restart.slice();
  for (let it = 0; it < ITERATIONS; it++) {
    const prev = score;
    score = restart.map((r, i) => {
      let inflow = 0;
      for (const [j, t] of inLinks[i]!) inflow += t * prev[j]!;
      return (1 - DAMPING) * r + DAMPING * inflow;
    });
  }
  return all.map((_, i) => score[i] ?? 0);
}

/** How many sentences a summary of `n` keeps: 3 to 5, about a quarter of the text. */
export function summaryLength(n: number): number {
  return Math.min(n, Math.max(MIN_SENTENCES, Math.min(MAX_SENTENCES, Math.round(n / 4))));
}

export function summarise(split: SplitText): string[] {
  const { sentences, words } = split;
  const k = summaryLength(sentences.length);
  if (k >= sentences.length) return sentences.slice();
  const score = rankSentences(words);
  const best = sentences
    .map((_, i) => i)
    .sort((a, b) => score[b]! - score[a]! || a - b)
    .slice(0, k)
    .sort((a, b) => a - b);
  return best.map((i) => sentences[i]!);
}
