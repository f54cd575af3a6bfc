/**
 * Keeps only the drawing part of an SVG: an allow-list of elements and attributes, text re-escaped,
 * everything else dropped (scripts and their content, event handlers, links, external references,
 * styles, comments, entities). Our charts are built from numbers and escaped labels, so nothing is
 * lost; this is the second line of defence in case a label or a future chart lets markup through.
 */

const ELEMENTS = new Set([
  'svg',
  'g',
  'rect',
  'line',
  'polyline',
  'path',
  'circle',
  'text',
  'tspan',
  'title',
]);
/** Elements removed together with everything inside them. */
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'foreignobject',
  'iframe',
  'object',
  'embed',
  'use',
  'image',
  'a',
]);
const ATTRIBUTES = new Set([
  'xmlns',
  'viewbox',
  'width',
  'height',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'd',
  'points',
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'font-size',
  'font-family',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'transform',
  'role',
  'aria-label',
]);
/** Attribute values may not reach outside the document or run anything. */
const UNSAFE_VALUE = /url\s*\(|javascript:|data:|&|<|>|expression\s*\(/i;

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

export function sanitizeSvg(svg: string): string {
  let out = '';
  const stack: string[] = [];
  let dropping: string | undefined;
  let depthInDropped = 0;
  const token =
    /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<![^>]*>|<\?[\s\S]*?\?>|<\/?([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|([^<]+)|</g;
  for (let m = token.exec(svg); m; m = token.exec(svg)) {
    const [whole, rawName, rawAttrs, text] = m;
    if (text !== undefined) {
      if (!dropping && stack.length > 0) out += escapeText(unescape(text));
      continue;
    }
    if (!rawName) continue; // comment, CDATA, doctype, processing instruction, stray "<"
    const name = rawName.toLowerCase();
    const closing = whole.startsWith('</');
    const selfClosing = /\/\s*>$/.test(whole);
    if (dropping) {
      if (name === dropping && !selfClosing) depthInDropped += closing ? -1 : 1;
      if (depthInDropped === 0) dropping = undefined;
      continue;
    }
    if (DROP_WITH_CONTENT.has(name) || !ELEMENTS.has(name)) {
      if (!closing && !selfClosing && DROP_WITH_CONTENT.has(name)) {
        dropping = name;
        depthInDropped = 1;
      }
      continue;
    }
    if (closing) {
      if (stack[stack.length - 1] === name) {
        stack.pop();
        out += `</${name}>`;
      }
      continue;
    }
    out += `<${name}${cleanAttributes(rawAttrs ?? '')}${selfClosing ? '/>' : '>'}`;
    if (!selfClosing) stack.push(name);
  }
  while (stack.length) out += `</${stack.pop()}>`;
  return out;
}

function cleanAttributes(raw: string): string {
  let out = '';
  const attr = /([^\s=/]+)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  for (let m = attr.exec(raw); m; m = attr.exec(raw)) {
    const name = m[1]!.toLowerCase();
    if (!ATTRIBUTES.has(name)) continue;
    const value = unescape(m[2] ?? m[3] ?? m[4] ?? '');
    if (UNSAFE_VALUE.test(value)) continue;
    out += ` ${name === 'viewbox' ? 'viewBox' : name}="${value.replace(/"/g, '')}"`;
  }
  return out;
}
