import { describe, expect, it } from 'vitest';
import { firstLoadFiles, type Manifest } from './firstLoad';

const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_react.js'],
    dynamicImports: ['a.tsx', 'b.tsx'],
  },
  '_react.js': { file: 'assets/react.js' },
  '_ui.js': { file: 'assets/ui.js', imports: ['_react.js'], css: ['assets/ui.css'] },
  'a.tsx': { file: 'assets/a.js', imports: ['_ui.js', 'index.html'], dynamicImports: ['modal.tsx'] },
  'b.tsx': { file: 'assets/b.js', imports: ['_chart.js'] },
  '_chart.js': { file: 'assets/chart.js' },
  'modal.tsx': { file: 'assets/modal.js' },
};

describe('first-load files from the build manifest', () => {
  it('counts the entry and the page with their static imports, not other pages or lazy modals', () => {
    expect(firstLoadFiles(manifest, ['a.tsx']).sort()).toEqual(
      ['assets/a.js', 'assets/index.js', 'assets/react.js', 'assets/ui.js'].sort(),
    );
  });

  it('fails loudly on a route module the build does not have', () => {
    expect(() => firstLoadFiles(manifest, ['gone.tsx'])).toThrow(/no chunk "gone.tsx"/);
  });
});
