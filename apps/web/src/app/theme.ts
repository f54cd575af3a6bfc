import { createTheme, localStorageColorSchemeManager } from '@mantine/core';

/** The chosen mode lives under `app-theme` as `light` or `dark` (spec section 3). */
export const THEME_KEY = 'app-theme';
export const colorSchemeManager = localStorageColorSchemeManager({ key: THEME_KEY });

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  fontFamilyMonospace: 'ui-monospace, "JetBrains Mono", Menlo, monospace',
  headings: { fontWeight: '650' },
});

/** Green for gains, red for losses: one place so every screen agrees. */
export const PNL_COLORS = { up: 'teal.7', down: 'red.7' } as const;
