/**
 * The offline analyser's rule set for direction (docs/news.md states it in words). Each cue is a phrase
 * pattern with a family and a sign; `impact.ts` attributes a matched cue to the entities of its sentence.
 *
 * - monetary: hawkish (+1) or dovish (-1) for the central bank's currency; the opposite, at half weight,
 *   for that economy's equity index.
 * - surprise: data better (+1) or worse (-1) than expected, for the economy's currency; the sign flips for
 *   series where up is bad (unemployment, jobless claims); the index follows growth data and moves
 *   against inflation surprises.
 * - supply: for a commodity, less supply or more demand (+1), more supply or less demand (-1).
 * - risk: risk-on (+1) or risk-off (-1), for equity indices, safe havens (JPY, CHF, gold; inverted) and
 *   risk currencies (AUD, NZD).
 * - move: a reported price move of a named currency, commodity or index, at half weight.
 * Patterns are matched on lower-cased sentences; the order matters where phrases overlap (the first
 * match of a span wins), and a negation just before a cue ("did not raise rates") drops it.
 */

export type CueFamily = 'monetary' | 'surprise' | 'supply' | 'risk' | 'move';

export interface CueRule {
  family: CueFamily;
  sign: 1 | -1;
  /** The rule's name in the rationale. */
  label: string;
  pattern: RegExp;
}

const EXPECTED = String.raw`(?:expected|forecast|anticipated|estimated|predicted|economists (?:had )?(?:expected|forecast))`;
const CONSENSUS = String.raw`(?:expectations|forecasts?|estimates|consensus|projections)`;
const RATE = String.raw`(?:interest |policy |benchmark |key |deposit |bank |cash |official )*rates?`;

const rule = (family: CueFamily, sign: 1 | -1, label: string, ...patterns: string[]): CueRule[] =>
  patterns.map((p) => ({ family, sign, label, pattern: new RegExp(p, 'g') }));

export const CUE_RULES: readonly CueRule[] = [
  ...rule(
    'monetary',
    -1,
    'dovish',
    String.raw`\b(?:cut|cuts|cutting|lower(?:ed|s|ing)?|reduc(?:e|ed|es|ing)|slash(?:ed|es|ing)?|trim(?:med|s)?)\b(?: its| the| their)? ${RATE}\b`,
    String.raw`\brate cuts?\b`,
    String.raw`\bdovish\b`,
    String.raw`\b(?:monetary|policy|quantitative|further) easing\b`,
    String.raw`\beasing (?:cycle|bias|policy)\b`,
    String.raw`\bbond[- ]buying\b`,
    String.raw`\b(?:signall?ed|hinted at|opened the door to|paved the way for) (?:further |more |a )?(?:cuts?|easing)\b`,
    String.raw`\b(?:cut|cuts|lowered|reduced|slashed)\b[^.;]{0,30}?\breserve requirements?\b`,
  ),
  ...rule(
    'monetary',
    1,
    'hawkish',
    String.raw`\bnot rule out (?:further |more |another )?(?:rate )?(?:hikes?|increases?|tightening)\b`,
    String.raw`\b(?:rais(?:e|ed|es|ing)|hik(?:e|ed|es|ing)|increas(?:e|ed|es|ing)|lift(?:ed|s|ing)?)\b(?: its| the| their)? ${RATE}\b`,
    String.raw`\brate (?:hikes?|increases?|rises?)\b`,
    String.raw`\bhawkish\b`,
    String.raw`\b(?:monetary|policy|quantitative|further) tightening\b`,
    String.raw`\btightening (?:cycle|bias|policy)\b`,
    String.raw`\bhigher for longer\b`,
    String.raw`\b(?:signall?ed|hinted at|opened the door to) (?:further |more |a )?(?:hikes?|tightening)\b`,
  ),
  // Falling series "more than expected" is a downside surprise, so it goes before the generic "more than".
  ...rule(
    'surprise',
    -1,
    'worse than expected',
    String.raw`\b(?:fell|dropped|declined|slowed|contracted|shrank|eased|slumped)\b[^.;]{0,25}?\bmore than ${EXPECTED}`,
    String.raw`\b(?:missed|misses|missing|fell short of|undershot)\b[^.;]{0,30}?\b${CONSENSUS}`,
    String.raw`\b(?:weaker|lower|worse|slower|softer|smaller|fewer|less)\b[^.;]{0,20}?\bthan ${EXPECTED}`,
    String.raw`\bunexpectedly (?:fell|declined|dropped|contracted|shrank|slowed)\b`,
    String.raw`\bbelow ${CONSENSUS}`,
  ),
  ...rule(
    'surprise',
    1,
    'better than expected',
    String.raw`\b(?:beat|beats|beating|topped|exceeded|exceeding|surpassed)\b[^.;]{0,30}?\b${CONSENSUS}`,
    String.raw`\b(?:stronger|higher|better|faster|hotter|bigger|larger|more)\b[^.;]{0,20}?\bthan ${EXPECTED}`,
    String.raw`\bunexpectedly (?:rose|increased|grew|jumped|climbed|expanded|accelerated)\b`,
    String.raw`\babove ${CONSENSUS}`,
  ),
  ...rule(
    'supply',
    -1,
    'more supply or less demand',
    String.raw`\b(?:rais(?:e|ed|es|ing)|boost(?:ed|s|ing)?|increas(?:e|ed|es|ing)|ramp(?:ed|s|ing)? up|lift(?:ed|s|ing)?)\b[^.;]{0,20}?\b(?:output|production|supply|supplies|exports)\b`,
    String.raw`\b(?:output|production|supply|supplies) (?:increases?|hikes?|rises?|rose|surged|jumped|grew)\b`,
    String.raw`\b(?:inventor(?:y|ies)|stockpiles?|crude stocks) (?:rose|built|climbed|increased|jumped|swelled)\b`,
    String.raw`\b(?:inventory|stockpile|crude) builds?\b`,
    String.raw`\b(?:glut|oversuppl(?:y|ied))\b`,
    String.raw`\bdemand (?:fell|falls|slumped|weakened|slowed|declined|is weak)\b`,
    String.raw`\b(?:weak|weaker|slowing|falling) demand\b`,
  ),
  ...rule(
    'supply',
    1,
    'less supply or more demand',
    String.raw`\b(?:cut|cuts|cutting|curb(?:ed|s|ing)?|reduc(?:e|ed|es|ing)|slash(?:ed|es|ing)?|halt(?:ed|s|ing)?)\b[^.;]{0,20}?\b(?:output|production|supply|supplies|exports)\b`,
    String.raw`\b(?:output|production|supply) (?:cuts?|curbs?|disruptions?|outages?|shortfalls?)\b`,
    String.raw`\bdisrupt(?:ed|ions?)\b`,
    String.raw`\b(?:inventor(?:y|ies)|stockpiles?|crude stocks) (?:fell|drew|declined|dropped|shrank)\b`,
    String.raw`\b(?:inventory|stockpile|crude) draws?\b`,
    String.raw`\bdemand (?:rose|rises|rising|surged|jumped|strengthened|is strong|picked up)\b`,
    String.raw`\b(?:strong|stronger|robust|rising) demand\b`,
    String.raw`\bsanctions?\b`,
  ),
  ...rule(
    'risk',
    1,
    'risk-on',
    String.raw`\brisk[- ]on\b`,
    String.raw`\brisk appetite (?:improved|returned|grew|rose|recovered)\b`,
    String.raw`\b(?:ceasefire|truce|peace (?:deal|agreement))\b`,
    String.raw`\btrade (?:deal|agreement|truce)\b`,
    String.raw`\btariffs? (?:were |was )?(?:cut|lifted|removed|paused|suspended|eased)\b`,
    String.raw`\b(?:tensions|recession fears|fears) (?:eased|faded|receded)\b`,
    String.raw`\bstimulus package\b`,
  ),
  ...rule(
    'risk',
    -1,
    'risk-off',
    String.raw`\brisk[- ]off\b`,
    String.raw`\b(?:risk aversion|safe[- ]havens?|flight to safety)\b`,
    String.raw`\b(?:war|invasion|invaded|missile|airstrikes?|military strikes?|terror attacks?)\b`,
    String.raw`\bescalat(?:e|ed|es|ing|ion)\b`,
    String.raw`\b(?:new|higher|sweeping|retaliatory) tariffs\b`,
    String.raw`\b(?:imposed?|slapped) (?:new )?tariffs\b`,
    String.raw`\brecession (?:fears|worries)\b`,
    String.raw`\b(?:sell-?off|turmoil|panic|market crash|bank (?:failure|collapse|run))\b`,
    String.raw`\btensions (?:rose|escalated|mounted|flared)\b`,
    String.raw`\b(?:rising|heightened|mounting|escalating) (?:geopolitical |trade )?tensions\b`,
    String.raw`\b(?:sought|seeking|seek) safety\b`,
    String.raw`\brisk appetite (?:faded|soured|waned|fell|evaporated)\b`,
  ),
];

/** A sentence about a series where a rise is bad news (more unemployed, more claims). */
export const INVERTED_SERIES = /\b(?:unemployment|jobless|claims|layoffs|job cuts|deficit)\b/;
/** A sentence about prices: a hot figure is hawkish for the currency and bad for stocks. */
export const INFLATION_SERIES = /\b(?:inflation|cpi|consumer prices|pce|price index)\b/;
/** Words that cancel a cue when they come just before it. */
export const NEGATION =
  /(?:\b(?:not|no|never|without|against|ruled out|unlikely to|pared|scaled back|priced out|dialled back|dialed back)|n't)\s+(?:[\w']+\s+){0,4}$/;

/** Verbs of a reported move right after a named asset ("gold rallied", "the yen weakened"). */
export const MOVE_UP =
  /^\W*(?:\w+\W+){0,4}?(rose|rallied|surged|jumped|gained|climbed|soared|strengthened|firmed|advanced|rebounded|hit a record)\b/;
export const MOVE_DOWN =
  /^\W*(?:\w+\W+){0,4}?(fell|dropped|slumped|tumbled|plunged|weakened|slid|sank|declined|slipped|retreated|lost ground|extended losses)\b/;

/** Weight of each family, and how a risk cue moves each asset (safe havens against the tide). */
export const FAMILY_WEIGHT: Readonly<Record<CueFamily, number>> = {
  monetary: 1,
  surprise: 1,
  supply: 1,
  risk: 1,
  move: 0.5,
};
export const RISK_BETA: Readonly<Record<string, number>> = {
  US500: 1,
  US100: 1,
  US30: 1,
  GER40: 1,
  UK100: 1,
  JP225: 1,
  HK50: 1,
  AUD: 0.5,
  NZD: 0.5,
  BTC: 0.5,
  JPY: -0.7,
  CHF: -0.5,
  XAU: -0.7,
};
/** Rate decisions move the economy's stocks the other way, at this weight; growth data the same way. */
export const INDEX_WEIGHT = 0.5;
