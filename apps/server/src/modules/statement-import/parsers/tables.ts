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

function clean(s: string): string {
  if (s.includes('<')) s = s.replace(/<[^>]*>/g, '');
  if (s.includes('&')) s = decodeEntities(s);
  return s.replace(/\s+/g, ' ').trim();
}

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
  // Split, not one regular expression over the document: native splits keep a 20 MB report fast.
  const chunks = body.split(/<tr\b/i);
  for (let k = 1; k < chunks.length; k++) {
    let tr = chunks[k]!;
    const stop = tr.search(/<\/(tr|table)>/i);
    if (stop >= 0) tr = tr.slice(0, stop);
    const cells: string[] = [];
    const notes: string[] = [];
    const parts = tr.split(/<t[dh]\b/i);
    for (let p = 1; p < parts.length; p++) {
      const part = parts[p]!;
      const gt = part.indexOf('>');
      if (gt < 0) continue;
      const attrs = part.slice(0, gt);
      if (/class\s*=\s*["']?[^"'>]*\bhidden\b/i.test(attrs)) continue;
      let content = part.slice(gt + 1);
      const close = content.search(/<\/t[dh]>/i);
      if (close >= 0) content = content.slice(0, close);
      cells.push(clean(content));
      notes.push(decodeEntities(/\btitle\s*=\s*"([^"]*)"/i.exec(attrs)?.[1] ?? ''));
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
 * tab (MT5 scripts and European spreadsheets write semicolons). Cells are cut with indexOf and a
 * regular expression, not a character at a time, so a 20 MB file reads in well under a second.
 */
export function csvRows(text: string): Rows {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const counts = [',', ';', '\t'].map((c) => [c, firstLine.split(c).length] as const);
  const sep = counts.sort((a, b) => b[1] - a[1])[0]![0];
  const end = new RegExp(`[${sep === '\t' ? '\\t' : sep}\\r\\n]`, 'g');
  const n = text.length;
  const rows: Rows = [];
  let row: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (text[i] === '"') {
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) {
          cell += text.slice(j);
          j = n;
          break;
        }
        cell += text.slice(j, text[q + 1] === '"' ? q + 1 : q);
        j = q + (text[q + 1] === '"' ? 2 : 1);
        if (text[q + 1] !== '"') break;
      }
      i = j;
    }
    // Unquoted text, or what follows a closing quote up to the separator (kept, as spreadsheets do).
    end.lastIndex = i;
    const m = end.exec(text);
    const stop = m ? m.index : n;
    cell += text.slice(i, stop);
    row.push(cell.trim());
    i = stop;
    if (i >= n) break;
    if (text[i] === sep) {
      i++;
      continue;
    }
    i += text[i] === '\r' && text[i + 1] === '\n' ? 2 : 1;
    if (row.some((x) => x !== '')) rows.push(row);
    row = [];
  }
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
