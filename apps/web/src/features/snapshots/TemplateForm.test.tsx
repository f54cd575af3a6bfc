import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { defaultIndicatorSettings, indicatorSettings } from '@tradedesk/contract';
import { OSCILLATORS, OVERLAYS } from './indicatorFields';
import { TemplateForm } from './TemplateForm';
import { emptyDraft, setIndicator, setOverride } from './templateForm';

const render = (draft = emptyDraft()) =>
  renderToStaticMarkup(
    <MantineProvider>
      <TemplateForm
        mode="edit"
        initial={draft}
        onCancel={() => {}}
        onSubmit={() => {}}
        error={null}
        busy={false}
      />
    </MantineProvider>,
  );

describe('template form: VWAP overlay', () => {
  it('shows a VWAP fieldset after the EMAs with its anchor, source, band multiples and overrides', () => {
    const html = render();
    for (const label of [
      'Enable VWAP',
      'Anchor Period',
      'Bands Multiplier #1',
      'Bands Multiplier #3',
      'VWAP Colour',
      'VWAP Line Width',
      'Show Band #2',
      'Band #3 Colour',
      'Bands Line Width',
    ])
      expect(html).toContain(label);
    expect(html.indexOf('Enable EMA')).toBeLessThan(html.indexOf('Enable VWAP'));
    expect(html.indexOf('Enable VWAP')).toBeLessThan(html.indexOf('Enable DMI'));
  });

  it('edits every VWAP field the contract holds, and nothing it does not', () => {
    const v = defaultIndicatorSettings().vwap;
    const [spec] = OVERLAYS;
    expect(spec!.key).toBe('vwap');
    const params = Object.keys(v).filter((k) => k !== 'enabled' && k !== 'overrides');
    expect(spec!.params.map((f) => f.key).sort()).toEqual(params.sort());
    expect(spec!.overrides.map((f) => f.key).sort()).toEqual(Object.keys(v.overrides).sort());
    // Every oscillator and overlay of the form is a key of the template.
    for (const s of [...OVERLAYS, ...OSCILLATORS]) expect(defaultIndicatorSettings()).toHaveProperty(s.key);
  });

  it('keeps what the form sets valid for the contract', () => {
    let s = setIndicator(defaultIndicatorSettings(), 'vwap', {
      enabled: true,
      anchor: 'Week',
      band_2_multiplier: null,
    });
    s = setOverride(s, 'vwap', 'Band #1.visible', true);
    s = setOverride(s, 'vwap', 'VWAP.color', 'rgb(1, 2, 3)');
    const parsed = indicatorSettings.parse(JSON.parse(JSON.stringify(s)));
    expect(parsed.vwap).toMatchObject({ enabled: true, anchor: 'Week', band_2_multiplier: null });
    expect(parsed.vwap.overrides['Band #1.visible']).toBe(true);
    expect(render({ ...emptyDraft(), indicator_settings: s })).toContain('value="Week"');
  });
});
