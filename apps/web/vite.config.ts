import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress';

const api = process.env.API_ORIGIN ?? 'http://127.0.0.1:8000';

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: api, changeOrigin: false },
      '/ws': { target: api.replace(/^http/, 'ws'), ws: true },
      '/media': { target: api },
    },
  },
  build: {
    outDir: 'dist',
    // Maps are written for debugging but not referenced from the scripts; the server serves them only
    // when SERVE_SOURCE_MAPS is set (docs/performance.md).
    sourcemap: 'hidden',
    // dist/.vite/manifest.json: the chunk graph the first-load budget test reads.
    manifest: true,
    rolldownOptions: {
      output: {
        // What every page needs in one file (better compressed, one request); the rest of Mantine and
        // the feature code stay split per page, so a page loads only the components it uses.
        advancedChunks: {
          groups: [
            {
              name: 'framework',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query)|@mantine[\\/](core[\\/]esm[\\/]core|hooks)|clsx)[\\/]/,
              priority: 20,
            },
            {
              // The small Mantine components of the signed-in layout and most pages, in one file: one
              // request and better compression than 15 chunks of < 2 KB (dashboard 249.3 → 244.4 KB gzip,
              // login 199.8 → 204.3 KB).
              name: 'ui',
              test: /node_modules[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](Text|Title|ActionIcon|Badge|Collapse|Accordion|Input|InputBase|TextInput|Checkbox|Table|Card|SimpleGrid|Skeleton|Anchor|CheckIcon|InlineInput)[\\/]/,
              priority: 10,
            },
          ],
        },
      },
    },
  },
});
