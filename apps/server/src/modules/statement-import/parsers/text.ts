/**
 * Bytes of a statement to text. MT5 writes its HTML report in UTF-16LE with a BOM; other tools
 * write UTF-8 with or without a BOM, and a statement saved by a spreadsheet may be UTF-16 without
 * one, which shows as a NUL after most ASCII bytes.
 */
export function decodeStatement(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return swap16(bytes.subarray(2)).toString('utf16le');
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
  const sample = bytes.subarray(0, 512);
  let oddNul = 0;
  let evenNul = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] !== 0) continue;
    if (i % 2) oddNul++;
    else evenNul++;
  }
  if (oddNul > sample.length / 4) return bytes.toString('utf16le');
  if (evenNul > sample.length / 4) return swap16(bytes).toString('utf16le');
  const utf8 = bytes.toString('utf8');
  // Not UTF-8 (a Windows-1252 export): every byte is one character.
  return utf8.includes('\uFFFD') ? bytes.toString('latin1') : utf8;
}

function swap16(b: Buffer): Buffer {
  const out = Buffer.from(b.subarray(0, b.length - (b.length % 2)));
  return out.swap16();
}

/** A number as statements write it: "10 000.00", "-1,234.50", "0,10", "1.00 Lots", "−3.5", "$12". */
export function statementNumber(raw: string | undefined): number {
  if (raw === undefined) return NaN;
  let s = raw
    .replace(/[\u2212\u2013]/g, '-')
    .replace(/[\s\u00a0\u202f]/g, '')
    .replace(/[^0-9.,-]/g, '');
  if (s === '' || s === '-') return NaN;
  if (s.includes('.') && s.includes(',')) s = s.replace(/,/g, '');
  else if (s.includes(','))
    s = /,\d{3}$/.test(s) && !/^-?0,/.test(s) ? s.replace(/,/g, '') : s.replace(',', '.');
  const v = Number(s);
  return Number.isFinite(v) ? v : NaN;
}

/** A number that may be blank (a missing commission is none). */
export const moneyCell = (raw: string | undefined): number => {
  const v = statementNumber(raw);
  return Number.isFinite(v) ? v : 0;
};

const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

/**
 * A statement time as wall-clock ms (the digits read as if they were UTC); NaN when it is not a
 * time. Accepts 2024.01.15 10:23[:45], 2024-01-15 10:23:45, 15/01/2024 10:23:45[.123],
 * 15.01.2024 10:23:45.123 and spreadsheet serial days (XLSX cells).
 */
export function statementTime(raw: string | undefined): number {
  const s = (raw ?? '').trim();
  let m = /^(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(s);
  if (m) return at(+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0), m[7]);
  m = /^(\d{1,2})[./](\d{1,2})[./](\d{4})[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(s);
  if (m) return at(+m[3]!, +m[2]!, +m[1]!, +m[4]!, +m[5]!, +(m[6] ?? 0), m[7]);
  if (/^\d{5}(\.\d+)?$/.test(s)) {
    const days = Number(s);
    if (days > 20000 && days < 80000) return Math.round((EXCEL_EPOCH_MS + days * 86_400_000) / 1000) * 1000;
  }
  return NaN;
}

function at(y: number, mo: number, d: number, h: number, mi: number, sec: number, ms?: string): number {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59) return NaN;
  return Date.UTC(y, mo - 1, d, h, mi, sec, ms ? Number(ms.padEnd(3, '0')) : 0);
}
