/**
 * Offline news analyser speed: what one analysis of a maximum-size text costs. It runs on the server's
 * event loop, so this is how long one request can hold it.
 * Run: `npx tsx bench/news-offline.bench.ts` (a few seconds). Each figure is the median and the worst of
 * 10 runs after 2 warm-ups (the first call also loads the wink-nlp model, timed apart).
 */
import { NEWS_TEXT_MAX } from '@tradedesk/contract';
import { analyseOffline } from '../apps/server/src/news/offline/analyse-offline';

const ARTICLE = [
  'The European Central Bank raised its deposit rate by 25 basis points to 4%, its tenth consecutive increase.',
  'President Christine Lagarde said inflation was still expected to remain too high for too long.',
  'The euro rose against the dollar after the decision, while German stocks slipped.',
  'Oil prices jumped after OPEC+ agreed to cut output by a further million barrels a day.',
  'US retail sales fell 0.9% in March, well below forecasts, and the dollar slid.',
  'Gold hit a record high as investors sought safety amid rising geopolitical tensions.',
  'Analysts at several banks said the central bank could pause at its next meeting if growth weakens further.',
  'Bond yields across the euro area climbed to their highest level in more than a decade.',
].join(' ');

const TEXTS: Array<[string, string]> = [
  ['news article, 20,000 characters (~170 sentences)', ARTICLE.repeat(30).slice(0, NEWS_TEXT_MAX)],
  ['one 20,000-character word (tokenizer worst case)', 'a'.repeat(NEWS_TEXT_MAX)],
  ['3,333 one-word sentences (sentence-count worst case)', 'aaaa. '.repeat(3333)],
  ['2,857 two-word sentences sharing their words (dense graph)', 'ab cd. '.repeat(2857)],
  ['a headline (150 characters)', ARTICLE.slice(0, 150)],
];

const t0 = performance.now();
analyseOffline('The ECB raised rates.');
console.log(`first call (loads the English model): ${(performance.now() - t0).toFixed(0)} ms`);

for (const [label, text] of TEXTS) {
  const runs: number[] = [];
  for (let i = 0; i < 12; i++) {
    const s = performance.now();
    analyseOffline(text);
    if (i >= 2) runs.push(performance.now() - s);
  }
  runs.sort((a, b) => a - b);
  console.log(`${label}: median ${runs[5]!.toFixed(1)} ms, worst ${runs[runs.length - 1]!.toFixed(1)} ms`);
}
