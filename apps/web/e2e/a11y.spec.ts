import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { THEME_KEY } from '../src/app/theme';
import { expect, signIn, test } from './fixtures';
import { ROUTES } from './routes';

/** Every page of the route table, plus the two public ones, in both colour schemes. */
const PAGES: Array<[string, string]> = [
  ['/', 'The AI-powered trade manager that keeps your journal for you'],
  ['/login', 'Login'],
  ...ROUTES,
];

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ` +
        v.nodes.map((n) => `${n.target.join(' ')} [${n.any[0]?.message ?? ''}]`).join(', '),
    );
}

/** The scheme the theme toggle switches to from `scheme`. */
const OTHER = { light: 'dark', dark: 'light' } as const;

// Each page in both schemes: loaded in light, then switched to dark with the theme toggle, as a trader
// would (one sign-in and one page load per page instead of two).
test.describe('accessibility in light and dark mode', () => {
  for (const [path, title] of PAGES) {
    test(`${path}: one h1, a main landmark, no serious axe-core violation`, async ({ page, user }) => {
      if (path !== '/' && path !== '/login') await signIn(page, user);
      await page.addInitScript(([key, value]) => localStorage.setItem(key!, value!), [THEME_KEY, 'light']);
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: title }).first()).toBeVisible();
      for (const scheme of ['light', 'dark'] as const) {
        if (scheme === 'dark') await page.getByRole('button', { name: `Switch to ${scheme} mode` }).click();
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
        await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
        await expect(page.getByRole('main')).toHaveCount(1);
        // Let loaders settle so the page is checked as the trader sees it.
        await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
        expect(await seriousViolations(page), `${scheme} mode`).toEqual([]);
        await expect(page.getByRole('button', { name: `Switch to ${OTHER[scheme]} mode` })).toBeVisible();
      }
    });
  }
});
