import { describe, expect, it } from 'vitest';
import type { NewsDirection } from '@tradedesk/contract';
import { analyseOffline } from './analyse-offline';

/**
 * Short news texts written for this suite, each with the instruments a trader would expect it to
 * concern and the direction they would expect. The offline analyser's agreement with them is printed,
 * and must stay at or above the floor below.
 */
interface Case {
  name: string;
  text: string;
  expect: Record<string, NewsDirection>;
}

const CASES: Case[] = [
  {
    name: 'ECB hike',
    text: 'The European Central Bank raised its deposit rate by 25 basis points to 4%, its tenth consecutive increase. Lagarde said the Governing Council would keep policy restrictive for as long as necessary.',
    expect: { EURUSD: 'bullish', EURJPY: 'bullish', GER40: 'bearish' },
  },
  {
    name: 'Fed cut',
    text: 'The Federal Reserve cut interest rates by half a percentage point on Wednesday, citing a cooling labour market. Chair Jerome Powell said further easing was possible.',
    expect: { EURUSD: 'bullish', USDJPY: 'bearish', XAUUSD: 'bullish', US500: 'bullish' },
  },
  {
    name: 'BoJ hike',
    text: 'The Bank of Japan raised its short-term policy rate to 0.5%, the highest in 17 years, and signalled further hikes if the economy performs as expected.',
    expect: { USDJPY: 'bearish', EURJPY: 'bearish', JP225: 'bearish' },
  },
  {
    name: 'BoE cut',
    text: 'The Bank of England lowered Bank Rate to 4.75% as inflation cooled. Governor Andrew Bailey said rates would fall gradually from here.',
    expect: { GBPUSD: 'bearish', EURGBP: 'bullish', UK100: 'bullish' },
  },
  {
    name: 'OPEC+ output cut',
    text: 'OPEC+ agreed on Sunday to cut oil output by a further 1 million barrels per day from July, surprising the market. Saudi Arabia said the curbs would support prices.',
    expect: { WTI: 'bullish', BRENT: 'bullish', USDCAD: 'bearish' },
  },
  {
    name: 'Crude inventory build',
    text: 'US crude inventories rose by 5.2 million barrels last week, the Energy Information Administration said, a far larger build than analysts had forecast. Oil prices fell on the report.',
    expect: { WTI: 'bearish', USDCAD: 'bullish' },
  },
  {
    name: 'Hot US inflation',
    text: 'US consumer prices rose 0.6% in January, hotter than expected, pushing Treasury yields higher as traders pared bets on Federal Reserve rate cuts.',
    expect: { EURUSD: 'bearish', USDJPY: 'bullish', US500: 'bearish' },
  },
  {
    name: 'Strong payrolls',
    text: 'US nonfarm payrolls rose by 350,000 in May, far more than economists expected. The unemployment rate fell to 3.5%.',
    expect: { EURUSD: 'bearish', USDJPY: 'bullish', US500: 'bullish' },
  },
  {
    name: 'Jobless claims jump',
    text: 'Initial jobless claims in the United States rose to 260,000 last week, more than economists expected, a sign the labour market is cooling.',
    expect: { EURUSD: 'bullish', USDJPY: 'bearish' },
  },
  {
    name: 'UK contraction',
    text: "Britain's economy unexpectedly contracted by 0.3% in the third quarter, official figures showed, raising the risk of a recession.",
    expect: { GBPUSD: 'bearish', UK100: 'bearish' },
  },
  {
    name: 'German PMI beat',
    text: "Germany's manufacturing PMI rose to 52.1 in March, beating expectations of 49.5 and marking the first expansion in two years.",
    expect: { EURUSD: 'bullish', GER40: 'bullish' },
  },
  {
    name: 'War risk-off',
    text: 'Stocks tumbled worldwide as war fears escalated. Investors fled to safe havens such as gold and the yen.',
    expect: { US500: 'bearish', USDJPY: 'bearish', XAUUSD: 'bullish' },
  },
  {
    name: 'Ceasefire risk-on',
    text: 'Stocks rallied and gold slipped after the two sides agreed a ceasefire, easing fears of a wider conflict in the region.',
    expect: { US500: 'bullish', XAUUSD: 'bearish', USDJPY: 'bullish' },
  },
  {
    name: 'Gold record',
    text: 'Gold hit a record high above $2,500 an ounce as investors sought safety amid rising geopolitical tensions.',
    expect: { XAUUSD: 'bullish' },
  },
  {
    name: 'SNB cut',
    text: 'The Swiss National Bank cut its policy rate to 1.25% and said it stood ready to intervene in the currency market.',
    expect: { USDCHF: 'bullish', EURCHF: 'bullish' },
  },
  {
    name: 'RBA hawkish hold',
    text: 'The Reserve Bank of Australia left its cash rate unchanged at 4.35% but warned that it could not rule out further rate hikes as inflation stays sticky.',
    expect: { AUDUSD: 'bullish' },
  },
  {
    name: 'BoC cut',
    text: 'The Bank of Canada cut its key interest rate by 50 basis points, and the Canadian dollar weakened against the greenback.',
    expect: { USDCAD: 'bullish', CADJPY: 'bearish' },
  },
  {
    name: 'China stimulus',
    text: "China unveiled a sweeping stimulus package to revive growth, and the People's Bank of China lowered banks' reserve requirement ratio. Copper and the Australian dollar rallied.",
    expect: { AUDUSD: 'bullish', COPPER: 'bullish', HK50: 'bullish' },
  },
  {
    name: 'New tariffs',
    text: 'The White House imposed new tariffs of 25% on imports from Mexico and Canada, sending Wall Street lower and lifting the yen.',
    expect: { US500: 'bearish', USDJPY: 'bearish' },
  },
  {
    name: 'Gas outage',
    text: 'European natural gas prices surged 20% after a key Norwegian facility suffered an unexpected outage, cutting supplies to the continent.',
    expect: { NATGAS: 'bullish' },
  },
  {
    name: 'Bitcoin slide',
    text: 'Bitcoin tumbled 8% to below $60,000 as a wave of liquidations hit crypto markets and risk appetite faded.',
    expect: { BTCUSD: 'bearish' },
  },
  {
    name: 'ECB mixed message',
    text: 'The ECB raised interest rates by a quarter point but signalled that this was likely the last hike and that rate cuts could follow next year.',
    expect: { EURUSD: 'mixed' },
  },
  {
    name: 'Soft euro-area inflation',
    text: 'Euro zone inflation slowed to 2.2% in August, lower than economists expected, strengthening the case for an ECB rate cut in September.',
    expect: { EURUSD: 'bearish', GER40: 'bullish' },
  },
  {
    name: 'Yen intervention',
    text: "The yen strengthened sharply after Japan's finance ministry intervened in the currency market for the first time since 1998.",
    expect: { USDJPY: 'bearish' },
  },
  {
    name: 'Saudi output increase',
    text: 'Saudi Arabia said it would raise crude production to 12 million barrels a day, deepening worries about a glut. Brent crude dropped 4%.',
    expect: { WTI: 'bearish', BRENT: 'bearish', USDCAD: 'bullish' },
  },
  {
    name: 'Weak US retail sales',
    text: 'US retail sales fell 0.9% in March, well below forecasts, adding to signs that consumer spending is slowing. The dollar slid against major currencies.',
    expect: { EURUSD: 'bullish', USDJPY: 'bearish', US500: 'bearish' },
  },
];

/** Share of expected (instrument, direction) pairs the analyser must agree with. */
const AGREEMENT_FLOOR = 0.9;

describe('offline analyser on the written news cases', () => {
  const rows = CASES.map((c) => {
    const result = analyseOffline(c.text);
    const got = Object.fromEntries(result.impact.map((i) => [i.instrument, i.direction]));
    const checks = Object.entries(c.expect).map(([instrument, direction]) => ({
      instrument,
      expected: direction,
      got: got[instrument] ?? '(not listed)',
    }));
    return { c, result, checks };
  });
  const pairs = rows.flatMap((r) => r.checks);
  const agreed = pairs.filter((p) => p.got === p.expected).length;
  const listed = pairs.filter((p) => p.got !== '(not listed)').length;

  it(`agrees with at least ${AGREEMENT_FLOOR * 100}% of the expected directions`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20);
    const lines = rows.map(({ c, checks }) => {
      const marks = checks.map(
        (k) => `${k.instrument} ${k.got}${k.got === k.expected ? '' : ` (expected ${k.expected})`}`,
      );
      return `  ${checks.every((k) => k.got === k.expected) ? 'ok  ' : 'MISS'} ${c.name}: ${marks.join(', ')}`;
    });
    console.log(
      [
        `Offline news analyser: ${agreed}/${pairs.length} directions agree (${((agreed / pairs.length) * 100).toFixed(1)}%),`,
        `${listed}/${pairs.length} expected instruments listed, over ${CASES.length} texts.`,
        ...lines,
      ].join('\n'),
    );
    expect(agreed / pairs.length).toBeGreaterThanOrEqual(AGREEMENT_FLOOR);
  });

  it('every rationale names the cues behind a decided direction', () => {
    for (const { result } of rows)
      for (const i of result.impact) if (i.direction !== 'unclear') expect(i.rationale).toMatch(/"[^"]+"/);
  });

  it('answers as the offline provider with 1-5 summary sentences taken from the text', () => {
    for (const { c, result } of rows) {
      expect(result.provider).toBe('offline');
      expect(result.sentences.length).toBeGreaterThanOrEqual(1);
      expect(result.sentences.length).toBeLessThanOrEqual(5);
      for (const s of result.sentences) expect(c.text).toContain(s);
      expect(result.instruments).toEqual(result.impact.map((i) => i.instrument));
    }
  });
});
