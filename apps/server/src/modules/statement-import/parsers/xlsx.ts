import { inflateRawSync } from 'node:zlib';
import { decodeEntities, type Rows } from './tables';

/**
 * The first worksheet of an XLSX workbook as rows of cell texts, without a spreadsheet library: an
 * XLSX is a zip of XML parts, and a statement needs only the shared strings and one sheet. Numbers
 * come back as written (dates as serial days, which `statementTime` reads).
 */

/** Unpacked parts larger than this are refused: a statement is never that big, a zip bomb is. */
const MAX_PART_BYTES = 64 * 1024 * 1024;

export class XlsxError extends Error {}

export const isZip = (b: Buffer) => b.length > 4 && b.readUInt32LE(0) === 0x04034b50;

/** Entries of a zip, read from its central directory: name → unpacked bytes, on demand. */
function zipEntries(zip: Buffer): Map<string, () => Buffer> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > zip.length) throw new XlsxError('not a zip');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const out = new Map<string, () => Buffer>();
  for (let i = 0; i < count; i++) {
    if (p + 46 > zip.length || zip.readUInt32LE(p) !== 0x02014b50) throw new XlsxError('bad zip directory');
    const method = zip.readUInt16LE(p + 10);
    const size = zip.readUInt32LE(p + 20);
    const unpacked = zip.readUInt32LE(p + 24);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    p += 46 + nameLen + extraLen + commentLen;
    out.set(name, () => {
      if (local + 30 > zip.length) throw new XlsxError('bad zip entry');
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      if (method === 0) return data;
      if (method !== 8 || unpacked > MAX_PART_BYTES) throw new XlsxError('unsupported zip entry');
      return inflateRawSync(data, { maxOutputLength: MAX_PART_BYTES });
    });
  }
  return out;
}

const textOf = (xml: string) =>
  decodeEntities([...xml.matchAll(/<(?:\w+:)?t\b[^>]*>([\s\S]*?)<\/(?:\w+:)?t>/g)].map((m) => m[1]).join(''));

const colIndex = (ref: string) => {
  let n = 0;
  for (const ch of ref.replace(/\d+$/, '')) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
};

export function xlsxRows(zip: Buffer): Rows {
  const entries = zipEntries(zip);
  const read = (name: string) => entries.get(name)?.().toString('utf8');
  const shared = [...(read('xl/sharedStrings.xml') ?? '').matchAll(/<si\b[^>]*>([\s\S]*?)<\/si>/g)].map((m) =>
    textOf(m[1]!),
  );
  const sheetName = [...entries.keys()]
    .filter((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n))
    .sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0];
  const sheet = sheetName ? read(sheetName) : undefined;
  if (!sheet) throw new XlsxError('no worksheet');
  const rows: Rows = [];
  for (const r of sheet.matchAll(/<row\b[^>]*>([\s\S]*?)<\/row>/g)) {
    const cells: string[] = [];
    let next = 0;
    for (const c of r[1]!.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attrs = c[1]!;
      const ref = /\br="([A-Z]+\d*)"/.exec(attrs)?.[1];
      const col = ref ? colIndex(ref) : next;
      const type = /\bt="(\w+)"/.exec(attrs)?.[1];
      const inner = c[2] ?? '';
      const v = /<v>([\s\S]*?)<\/v>/.exec(inner)?.[1];
      const value =
        type === 's'
          ? (shared[Number(v)] ?? '')
          : type === 'inlineStr'
            ? textOf(inner)
            : decodeEntities(v ?? '');
      while (cells.length < col) cells.push('');
      cells[col] = value.replace(/\s+/g, ' ').trim();
      next = col + 1;
    }
    if (cells.some((x) => x !== '')) rows.push(cells);
  }
  return rows;
}
