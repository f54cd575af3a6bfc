/** Every statement format becomes rows of cell texts; the format readers work on rows alone. */
export type Rows = string[][];

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[e.toLowerCase()] ?? all;
  });
}

const clean = (s: string) =>
  decodeEntities(s.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The rows of every table of an HTML document, in document order, with each cell's `title`
 * (MT4 puts a ticket's comment there). Cells MetaTrader hides (`class="hidden"`, kept for
 * spreadsheet exports) are dropped, so a row reads as it shows. A regular-expression reader is
 * enough: the terminals write flat tables, one row per <tr>.
 */
export function htmlTable(html: string): { rows: Rows; titles: Rows } {
  const body = html.replace(/<!--[\s\S]*?-->/g, '').replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, '');
  const rows: Rows = [];
  const titles: Rows = [];
  for (const tr of body.matchAll(/<tr\b[^>]*>([\s\S]*?)(?=<tr\b|<\/table>|$)/gi)) {
    const cells: string[] = [];
    const notes: string[] = [];
    for (const td of tr[1]!.matchAll(/<t([dh])\b([^>]*)>([\s\S]*?)(?=<t[dh]\b|<\/tr>|$)/gi)) {
      if (/class\s*=\s*["']?[^"'>]*\bhidden\b/i.test(td[2]!)) continue;
      cells.push(clean(td[3]!.replace(/<\/t[dh]>[\s\S]*$/i, '')));
      notes.push(decodeEntities(/\btitle\s*=\s*"([^"]*)"/i.exec(td[2]!)?.[1] ?? ''));
    }
    if (cells.some((c) => c !== '')) {
      rows.push(cells);
      titles.push(notes);
    }
  }
  return { rows, titles };
}

/** Text of the document's <title> or first heading, to tell the terminals' reports apart. */
export function htmlTitle(html: string): string {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  return m ? clean(m[1]!) : '';
}

/**
 * CSV rows (RFC 4180 quoting, CRLF or LF), with the separator the header uses: comma, semicolon or
 * tab (MT5 scripts and European spreadsheets write semicolons).
 */
export function csvRows(text: string): Rows {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((c) => [c, firstLine.split(c).length] as const);
  const sep = counts.sort((a, b) => b[1] - a[1])[0]![0];
  const rows: Rows = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === sep) {
      row.push(cell.trim());
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell.trim());
      if (row.some((x) => x !== '')) rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  row.push(cell.trim());
  if (row.some((x) => x !== '')) rows.push(row);
  return rows;
}

/** Index of each wanted header (case- and space-insensitive, first match of any alias); -1 if absent. */
export function columns<K extends string>(header: string[], wanted: Record<K, RegExp>): Record<K, number> {
  const norm = header.map((h) => h.trim().toLowerCase().replace(/\s+/g, ' '));
  const out = {} as Record<K, number>;
  for (const k of Object.keys(wanted) as K[]) out[k] = norm.findIndex((h) => wanted[k].test(h));
  return out;
}
