import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One chunk of Vite's build manifest (dist/.vite/manifest.json). */
export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** The JS budget of the first load of /login and /dashboard, in bytes after gzip. */
export const FIRST_LOAD_JS_BUDGET = 250 * 1024;

/** The modules each checked page needs before it can show (the app shell, the layout, the page). */
export const FIRST_LOAD_PAGES: Record<string, string[]> = {
  '/login': ['src/features/auth/LoginPage.tsx'],
  '/dashboard': ['src/app/AppLayout.tsx', 'src/features/dashboard/DashboardPage.tsx'],
};

/**
 * The script files a page loads before it shows: the entry and the given route modules, with
 * everything they import statically, transitively. Dynamic imports (other pages, modals opened on
 * demand) are not part of the first load.
 */
export function firstLoadFiles(manifest: Manifest, routeModules: string[]): string[] {
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entry) throw new Error('The build manifest has no entry chunk.');
  const seen = new Set<string>();
  const visit = (key: string): void => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The build manifest has no chunk "${key}".`);
    seen.add(key);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const key of [entry, ...routeModules]) visit(key);
  return [...seen].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'));
}

/** Gzip size of a built file: the precompressed `.gz` beside it when there is one. */
export function gzipSize(dist: string, file: string): number {
  const gz = path.join(dist, `${file}.gz`);
  if (existsSync(gz)) return readFileSync(gz).length;
  return gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
}

export interface FirstLoad {
  page: string;
  files: string[];
  gzipBytes: number;
}

/** The first-load JS of each checked page of the build in `dist`. */
export function measureFirstLoad(dist: string, pages = FIRST_LOAD_PAGES): FirstLoad[] {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  return Object.entries(pages).map(([page, modules]) => {
    const files = firstLoadFiles(manifest, modules);
    return { page, files, gzipBytes: files.reduce((sum, f) => sum + gzipSize(dist, f), 0) };
  });
}
