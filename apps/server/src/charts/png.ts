import { existsSync } from 'node:fs';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';

const FONT = 'DejaVuSans-Charts.ttf';

/**
 * The bundled font, from the source tree (tests, tsx) or beside the built bundle (dist/). System fonts
 * are never loaded, so a chart renders to the same pixels on every machine.
 */
function fontFile(): string {
  const here = import.meta.dirname;
  const candidates = [
    path.resolve(here, '../../assets/fonts', FONT),
    path.resolve(here, '../assets/fonts', FONT),
  ];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`Chart font ${FONT} is missing from apps/server/assets/fonts.`);
  return found;
}

let cachedFont: string | undefined;

export function svgToPng(svg: string): Buffer {
  cachedFont ??= fontFile();
  const resvg = new Resvg(svg, {
    font: { loadSystemFonts: false, fontFiles: [cachedFont], defaultFontFamily: 'DejaVu Sans' },
    shapeRendering: 2,
    textRendering: 1,
  });
  return Buffer.from(resvg.render().asPng());
}
