import { describe, expect, it } from 'vitest';
import {
  defaultIndicatorSettings,
  hexToRgb,
  indicatorSettings,
  normalizeIndicatorSettings,
  rgbToHex,
} from './chart-snapshots';

describe('indicator settings', () => {
  it('fills a partial template with the spec defaults and keeps EMA overrides in step', () => {
    const s = normalizeIndicatorSettings(
      indicatorSettings.parse({ emas: { periods: [9, 21, 50, 200] }, cmf: { enabled: true } }),
    );
    expect(s.emas.overrides).toHaveLength(4);
    expect(s.cmf).toMatchObject({ enabled: true, length: 20 });
    expect(s.rsi.overrides['MiddleLimit.visible']).toBe(false);
    const trimmed = normalizeIndicatorSettings({ ...s, emas: { ...s.emas, periods: [9] } });
    expect(trimmed.emas.overrides).toHaveLength(1);
    expect(defaultIndicatorSettings().emas.periods).toEqual([21, 50, 100]);
  });

  it('converts colours between the form’s hex and the stored rgb', () => {
    expect(hexToRgb('#2962ff')).toBe('rgb(41, 98, 255)');
    expect(hexToRgb('#fff')).toBe('rgb(255, 255, 255)');
    expect(hexToRgb('red')).toBeNull();
    expect(rgbToHex('rgb(41, 98, 255)')).toBe('#2962ff');
    expect(rgbToHex('rgba(0,0,0,0.5)')).toBe('#000000');
    expect(rgbToHex('#123456')).toBeNull();
    for (const hex of ['#000000', '#ffffff', '#0a1b2c']) expect(rgbToHex(hexToRgb(hex)!)).toBe(hex);
  });

  it('refuses colours out of range', () => {
    expect(
      indicatorSettings.safeParse({ cmf: { overrides: { 'Plot.color': 'rgb(256, 0, 0)' } } }).success,
    ).toBe(false);
  });

  it('leaves the VWAP overlay off unless a template turns it on, and bounds its values', () => {
    const s = defaultIndicatorSettings();
    expect(s.vwap).toMatchObject({ enabled: false, anchor: 'Session', source: 'hlc3' });
    // A template written before the VWAP existed is still valid and gets the same default.
    const { vwap: _, ...before } = s;
    expect(indicatorSettings.parse(before).vwap).toEqual(s.vwap);
    expect(indicatorSettings.safeParse({ vwap: { anchor: 'Quarter' } }).success).toBe(false);
    expect(indicatorSettings.safeParse({ vwap: { band_1_multiplier: 11 } }).success).toBe(false);
    expect(indicatorSettings.parse({ vwap: { band_3_multiplier: null } }).vwap.band_3_multiplier).toBeNull();
  });
});
