/**
 * Position sizing from risk.
 *
 *   lots = equity × risk% ÷ (SL distance in price × contract size × quote→account rate)
 *
 * The spec's "equity × risk% ÷ (SL distance × contract size × pip size)" is the special case where
 * the quote currency is the account currency and the distance is given in pips. The result is
 * rounded DOWN to the volume step and to 2 decimals, so rounding never adds risk, then clamped to the
 * symbol's volume limits and the account's max_lot_size.
 */
import { currencyDecimals, formatMoney, roundMoney } from './money';
import { floorToStep } from './rounding';

/** The symbol's tradable volume, in lots (a subset of the broker layer's SymbolInfo). */
export interface VolumeLimits {
  volume_min: number;
  volume_step: number;
  volume_max: number;
}

export interface LotSizeInput {
  /** Account equity in the account currency. */
  equity: number;
  /** Risk per trade in percent of equity (0.5 means 0.5 %). */
  riskPercent: number;
  /** Distance from entry to stop loss in price units (EURUSD 20 pips = 0.0020), positive. */
  slDistance: number;
  /** Units per lot (100,000 for FX majors, 100 for XAUUSD, 1 for most indices). */
  contractSize: number;
  /** Value in the account currency of one unit of the quote currency; see `priceMoveValue` in currency.ts. */
  quoteToAccountRate: number;
  /** The symbol's volume limits. */
  limits: VolumeLimits;
  /** The account's risk-setting cap in lots; null/undefined = no cap. */
  maxLotSize?: number | null;
  /** Account currency, for rounding money to its minor unit and for messages. */
  accountCurrency: string;
}

export type LotLimit = 'volume_max' | 'max_lot_size' | 'volume_min';

export interface LotSizeResult {
  /** Lots to trade: a multiple of the volume step with at most 2 decimals; 0 when no volume is allowed. */
  volume: number;
  /** The exact, unrounded lots the requested risk would buy. */
  rawVolume: number;
  /** equity × risk%, rounded to the account currency's minor unit. */
  requestedRisk: number;
  /** What `volume` really loses at the stop, rounded to the account currency's minor unit. */
  actualRisk: number;
  /** Money lost at the stop per 1.0 lot (unrounded), in the account currency. */
  riskPerLot: number;
  /** Which limit changed the volume after rounding, if any. */
  limitedBy: LotLimit | null;
  /** True when the symbol's minimum volume forces more risk than requested. */
  exceedsRequestedRisk: boolean;
  /** Human explanation when a limit applied or no volume is possible; null otherwise. */
  reason: string | null;
}

/** Lots are quoted with 2 decimals (spec §9). */
const LOT_DECIMALS_STEP = 0.01;

function requirePositive(value: number, name: string): void {
  if (!Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive number, got ${value}.`);
  }
}

/** Floor a volume to the symbol's step and to 2 decimals; never rounds up. */
export function floorVolume(volume: number, volumeStep: number): number {
  return floorToStep(floorToStep(volume, volumeStep), LOT_DECIMALS_STEP);
}

function lots(v: number): string {
  return v.toFixed(2);
}

/** Size a position from risk. Throws RangeError on non-positive inputs (equity, risk, distance, contract, rate, step). */
export function calculateLotSize(input: LotSizeInput): LotSizeResult {
  const { equity, riskPercent, slDistance, contractSize, quoteToAccountRate, limits, accountCurrency } =
    input;
  requirePositive(equity, 'Equity');
  requirePositive(riskPercent, 'Risk percent');
  requirePositive(slDistance, 'Stop-loss distance');
  requirePositive(contractSize, 'Contract size');
  requirePositive(quoteToAccountRate, 'Quote-to-account conversion rate');
  requirePositive(limits.volume_step, 'Volume step');
  requirePositive(limits.volume_min, 'Minimum volume');
  requirePositive(limits.volume_max, 'Maximum volume');
  const maxLot = input.maxLotSize ?? null;
  if (maxLot !== null) requirePositive(maxLot, 'max_lot_size');

  const decimals = currencyDecimals(accountCurrency);
  const riskMoney = (equity * riskPercent) / 100;
  const riskPerLot = slDistance * contractSize * quoteToAccountRate;
  const rawVolume = riskMoney / riskPerLot;
  const requestedRisk = roundMoney(riskMoney, decimals);

  let volume = floorVolume(rawVolume, limits.volume_step);
  let limitedBy: LotLimit | null = null;
  let reason: string | null = null;
  let exceedsRequestedRisk = false;

  const symbolMax = floorVolume(limits.volume_max, limits.volume_step);
  const accountMax = maxLot === null ? Infinity : floorVolume(maxLot, limits.volume_step);
  const cap = Math.min(symbolMax, accountMax);

  if (cap < limits.volume_min) {
    volume = 0;
    limitedBy = 'max_lot_size';
    reason = `max_lot_size ${lots(maxLot ?? 0)} is below the symbol's minimum volume ${lots(limits.volume_min)}: no volume can be traded.`;
  } else if (volume > cap) {
    volume = cap;
    limitedBy = accountMax < symbolMax ? 'max_lot_size' : 'volume_max';
    reason =
      limitedBy === 'max_lot_size'
        ? `Volume capped at the account's max_lot_size of ${lots(cap)} lots (risk would allow ${lots(floorVolume(rawVolume, limits.volume_step))}).`
        : `Volume capped at the symbol's maximum of ${lots(cap)} lots (risk would allow ${lots(floorVolume(rawVolume, limits.volume_step))}).`;
  } else if (volume < limits.volume_min) {
    volume = limits.volume_min;
    limitedBy = 'volume_min';
    const minRisk = roundMoney(volume * riskPerLot, decimals);
    exceedsRequestedRisk = volume * riskPerLot > riskMoney;
    reason = exceedsRequestedRisk
      ? `The symbol's minimum volume of ${lots(volume)} lots risks ${formatMoney(minRisk, accountCurrency)}, more than the requested ${formatMoney(requestedRisk, accountCurrency)} (${riskPercent}% of equity).`
      : `Volume raised to the symbol's minimum of ${lots(volume)} lots.`;
  }

  return {
    volume,
    rawVolume,
    requestedRisk,
    actualRisk: roundMoney(volume * riskPerLot, decimals),
    riskPerLot,
    limitedBy,
    exceedsRequestedRisk,
    reason,
  };
}
