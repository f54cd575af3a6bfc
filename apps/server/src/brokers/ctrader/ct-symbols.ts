import { BrokerError, type SymbolInfo } from '../types';
import { call, live } from './ct-call';
import { normSymbol, roundTo, type CtState, type SymbolEntry } from './ct-state';
import { PT, num, type ProtoLightSymbol, type ProtoSymbol } from './protocol';
import { arr } from './protocol-normalise';

/** The symbol list (cached per connection), symbol details, and volume conversion to and from lots. */

export async function loadSymbols(st: CtState): Promise<void> {
  const conn = st.conn;
  if (!conn) return;
  const account = { ctidTraderAccountId: st.opts.ctidTraderAccountId };
  const [assetsRes, listRes] = await Promise.all([
    conn.request(PT.ASSET_LIST_REQ, account, PT.ASSET_LIST_RES),
    conn.request(PT.SYMBOLS_LIST_REQ, { ...account, includeArchivedSymbols: false }, PT.SYMBOLS_LIST_RES),
  ]);
  const assets = new Map<number, string>();
  for (const a of arr(assetsRes.payload?.asset))
    assets.set(num(a.assetId) ?? 0, String(a.displayName ?? a.name ?? ''));
  const byId = new Map<number, SymbolEntry>();
  const byName = new Map<string, SymbolEntry>();
  for (const s of arr(listRes.payload?.symbol)) {
    const light: ProtoLightSymbol = {
      symbolId: num(s.symbolId) ?? 0,
      symbolName: typeof s.symbolName === 'string' ? s.symbolName : undefined,
      enabled: s.enabled !== false,
      baseAssetId: num(s.baseAssetId),
      quoteAssetId: num(s.quoteAssetId),
      description: typeof s.description === 'string' ? s.description : undefined,
    };
    if (!light.enabled || !light.symbolName) continue;
    const prev = st.symbolsById.get(light.symbolId);
    const entry: SymbolEntry = {
      light,
      name: normSymbol(light.symbolName),
      full: prev?.full,
      info: prev?.info,
    };
    byId.set(light.symbolId, entry);
    byName.set(entry.name, entry);
  }
  st.assets = assets;
  st.symbolsById = byId;
  st.symbolsByName = byName;
}

export async function entry(st: CtState, symbol: string): Promise<SymbolEntry> {
  await live(st);
  const e = st.symbolsByName.get(normSymbol(symbol));
  if (!e) throw new BrokerError(`cTrader: unknown symbol ${symbol}`, 'not_found');
  if (!e.info) await loadFull(st, [e]);
  return e;
}

/** ProtoOASymbolByIdReq for the entries not yet known in full. */
export async function loadFull(st: CtState, entries: SymbolEntry[]): Promise<void> {
  const missing = entries.filter((e) => !e.full);
  for (let i = 0; i < missing.length; i += 200) {
    const chunk = missing.slice(i, i + 200);
    const res = await call(
      st,
      PT.SYMBOL_BY_ID_REQ,
      { symbolId: chunk.map((e) => e.light.symbolId) },
      PT.SYMBOL_BY_ID_RES,
    );
    for (const s of arr(res.symbol)) {
      const full: ProtoSymbol = {
        symbolId: num(s.symbolId) ?? 0,
        digits: num(s.digits) ?? 5,
        pipPosition: num(s.pipPosition) ?? 4,
        maxVolume: num(s.maxVolume),
        minVolume: num(s.minVolume),
        stepVolume: num(s.stepVolume),
        lotSize: num(s.lotSize),
      };
      const e = st.symbolsById.get(full.symbolId);
      if (!e) continue;
      e.full = full;
      e.info = toSymbolInfo(st, e.light, full);
    }
  }
}

function toSymbolInfo(st: CtState, light: ProtoLightSymbol, full: ProtoSymbol): SymbolInfo {
  // Volumes are in cents of units; lotSize is the units of one lot in cents.
  const lotSize = full.lotSize ?? 10_000_000;
  const step = full.stepVolume ?? lotSize / 100;
  return {
    symbol: normSymbol(light.symbolName ?? String(light.symbolId)),
    description: light.description ?? light.symbolName ?? '',
    digits: full.digits,
    pip_size: 10 ** -full.pipPosition,
    tick_size: 10 ** -full.digits,
    contract_size: lotSize / 100,
    base_currency: st.assets.get(light.baseAssetId ?? -1) ?? '',
    quote_currency: st.assets.get(light.quoteAssetId ?? -1) ?? '',
    volume_min: (full.minVolume ?? step) / lotSize,
    volume_step: step / lotSize,
    volume_max: (full.maxVolume ?? lotSize * 100) / lotSize,
  };
}

export async function symbols(st: CtState): Promise<SymbolInfo[]> {
  await live(st);
  const all = [...st.symbolsById.values()];
  await loadFull(st, all);
  return all.filter((e) => e.info).map((e) => e.info as SymbolInfo);
}

export async function symbolInfo(st: CtState, symbol: string): Promise<SymbolInfo> {
  const e = await entry(st, symbol);
  return e.info as SymbolInfo;
}

export function nameOf(st: CtState, symbolId: number): string {
  return st.symbolsById.get(symbolId)?.name ?? String(symbolId);
}

export function digitsOf(st: CtState, symbolId: number): number {
  return st.symbolsById.get(symbolId)?.full?.digits ?? 5;
}

export function lotSizeOf(st: CtState, symbolId: number): number {
  return st.symbolsById.get(symbolId)?.full?.lotSize ?? 10_000_000;
}

export function toLots(st: CtState, symbolId: number, volume: number): number {
  return roundTo(volume / lotSizeOf(st, symbolId), 8);
}

export function toProtocolVolume(st: CtState, e: SymbolEntry, lots: number): number {
  const full = e.full as ProtoSymbol;
  const lotSize = full.lotSize ?? 10_000_000;
  const step = full.stepVolume ?? lotSize / 100;
  const v = Math.round((lots * lotSize) / step) * step;
  if (
    v <= 0 ||
    (full.minVolume !== undefined && v < full.minVolume) ||
    (full.maxVolume !== undefined && v > full.maxVolume)
  ) {
    throw new BrokerError(
      `cTrader: volume ${lots} is outside ${e.info?.volume_min ?? '?'}-${e.info?.volume_max ?? '?'} lots for ${e.name}`,
      'rejected',
    );
  }
  return v;
}
