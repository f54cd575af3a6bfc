import {
  createTheme,
  darken,
  DEFAULT_THEME,
  localStorageColorSchemeManager,
  type CSSVariablesResolver,
} from '@mantine/core';

/** The chosen mode lives under `app-theme` as `light` or `dark` (spec section 3). */
export const THEME_KEY = 'app-theme';
export const colorSchemeManager = localStorageColorSchemeManager({ key: THEME_KEY });

export const theme = createTheme({
  primaryColor: 'blue',
  // White on blue.8 is 4.98:1; Mantine's default blue.6 is 3.55:1, under WCAG AA's 4.5:1.
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  fontFamilyMonospace: 'ui-monospace, "JetBrains Mono", Menlo, monospace',
  headings: { fontWeight: '650' },
});

const c = DEFAULT_THEME.colors;
/** Colours used as text or as light-variant badge/alert text. */
const TEXT_COLORS = ['blue', 'teal', 'green', 'red', 'orange', 'yellow', 'gray', 'grape', 'cyan'] as const;

/**
 * Text colours with at least 4.5:1 contrast on the page and card backgrounds of each scheme (WCAG AA):
 * dimmed text, the P/L colours (`teal.7`, `red.7`), and in the light scheme the text of light-variant
 * badges and alerts (shade 9 on shade 1 is 4.3:1 for teal; a quarter darker passes).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': c.gray[7],
    '--mantine-color-teal-7': c.teal[9],
    '--mantine-color-red-7': c.red[9],
    ...Object.fromEntries(
      TEXT_COLORS.map((k) => [`--mantine-color-${k}-light-color`, darken(c[k][9], 0.25)]),
    ),
  },
  dark: {
    '--mantine-color-dimmed': c.dark[1],
    '--mantine-color-teal-7': c.teal[4],
    '--mantine-color-red-7': c.red[4],
  },
});

/** Green for gains, red for losses: one place so every screen agrees. */
export const PNL_COLORS = { up: 'teal.7', down: 'red.7' } as const;
