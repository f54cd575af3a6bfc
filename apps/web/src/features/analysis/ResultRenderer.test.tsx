import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router';
import { ResultRenderer } from './ResultRenderer';

const render = (resultData: unknown) =>
  renderToStaticMarkup(
    <MantineProvider>
      <MemoryRouter>
        <ResultRenderer resultData={resultData} />
      </MemoryRouter>
    </MantineProvider>,
  );

describe('ResultRenderer', () => {
  it('renders tables, key-values, links inside the app and SVG as an image', () => {
    const html = render({
      components: [
        {
          type: 'table',
          title: 'Summary',
          data: {
            columns: [
              { key: 'a', label: 'Alpha' },
              { key: 'b', label: 'Link' },
            ],
            rows: [{ a: 1.5, b: { text: 'Open in calculator', href: '/win-rate?r=2&hit=40' } }, { a: null }],
          },
        },
        { type: 'key_value_pairs', title: 'Key figures', data: [{ key: 'Continuation %', value: 55.2 }] },
        {
          type: 'image_svg',
          title: 'Chart',
          data: { svg_content: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' },
        },
      ],
    });
    expect(html).toContain('Alpha');
    expect(html).toContain('href="/win-rate?r=2&amp;hit=40"');
    expect(html).toContain('N/A');
    expect(html).toContain('Continuation %');
    // The SVG never enters the page as markup: only as an image's data URL, where scripts never run.
    expect(html).toMatch(/<img[^>]+src="data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    expect(html).not.toContain('<script');
  });

  it('says what it cannot show', () => {
    const html = render({
      components: [
        { type: 'pie', title: 'Pie', data: [] },
        { type: 'table', title: 'Broken table', data: { rows: 'nope' } },
        { type: 'key_value_pairs', title: 'Broken pairs', data: { key: 'x' } },
        { type: 'image_svg', title: 'Broken image', data: { svg_content: 'alert(1)' } },
        {
          type: 'table',
          title: 'Outside link',
          data: {
            columns: [{ key: 'x', label: 'X' }],
            rows: [{ x: { text: 'evil', href: '//evil.example' } }],
          },
        },
      ],
    });
    expect(html).toContain('Unsupported component type');
    expect(html).toContain('Table data not available.');
    expect(html).toContain('Key-value data not available.');
    expect(html).toContain('Image not available.');
    expect(html).not.toContain('href="//evil.example"');
  });

  it('renders flat key-values', () => {
    const html = render({ win_rate: 0.55, note: 'ok' });
    expect(html).toContain('win_rate');
    expect(html).toContain('0.55');
  });
});
