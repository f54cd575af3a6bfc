import { cleanSymbol } from '../symbols';

export interface MappedSymbol {
  symbol: string;
  /** False when the account has no such symbol: the preview warns about it. */
  known: boolean;
}

/**
 * A statement's symbol as the account spells it: the same name (any case), else the account's
 * symbol with the same name once both lose their broker suffix (`EURUSD.pro` in a statement of a
 * broker whose feed says `EURUSD.m`), else the cleaned name, marked unknown.
 */
export function symbolMapper(accountSymbols: readonly string[]): (raw: string) => MappedSymbol {
  const exact = new Map(accountSymbols.map((s) => [s.toUpperCase(), s]));
  const clean = new Map<string, string>();
  for (const s of accountSymbols) if (!clean.has(cleanSymbol(s))) clean.set(cleanSymbol(s), s);
  return (raw) => {
    const upper = raw.trim().toUpperCase();
    const hit = exact.get(upper) ?? clean.get(cleanSymbol(upper));
    return hit ? { symbol: hit, known: true } : { symbol: cleanSymbol(upper), known: false };
  };
}
