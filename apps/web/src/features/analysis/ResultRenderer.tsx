import { Alert, Card, Image, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ANALYSIS_TEXT } from './analysis.texts';

/**
 * Renders `result_data`: a list of components (table, key_value_pairs, image_svg) or flat key-values.
 * It reads the data loosely and says what it cannot show instead of failing the page. An SVG is
 * shown as an image (data URL): a browser never runs scripts or fetches references of an SVG loaded
 * that way, whatever the server sent.
 */

type Cell = number | string | null | { text: string; href: string };
const isRecord = (x: unknown): x is Record<string, unknown> =>
  !!x && typeof x === 'object' && !Array.isArray(x);
const isScalar = (x: unknown) =>
  x === null || typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean';

function CellView({ value }: { value: unknown }) {
  const v = value as Cell;
  if (isRecord(v) && typeof v.text === 'string' && typeof v.href === 'string' && /^\/(?!\/)/.test(v.href)) {
    return <Link to={v.href}>{v.text}</Link>;
  }
  if (v === null || v === undefined) return <>N/A</>;
  return <>{isScalar(v) ? String(v) : JSON.stringify(v)}</>;
}

function TableView({ title, data }: { title: string; data: unknown }) {
  const d = data as { columns?: unknown; rows?: unknown };
  const ok =
    isRecord(d) &&
    Array.isArray(d.columns) &&
    Array.isArray(d.rows) &&
    d.columns.every((c) => isRecord(c) && typeof c.key === 'string' && typeof c.label === 'string') &&
    d.rows.every(isRecord);
  if (!ok) return <Text c="dimmed">{ANALYSIS_TEXT.tableNotAvailable}</Text>;
  const columns = d.columns as Array<{ key: string; label: string }>;
  const rows = d.rows as Array<Record<string, unknown>>;
  return (
    <ScrollArea>
      <Table striped withTableBorder aria-label={title}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key}>{c.label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r, i) => (
            <Table.Tr key={i}>
              {columns.map((c) => (
                <Table.Td key={c.key}>
                  <CellView value={r[c.key]} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

function KeyValuesView({ title, pairs }: { title: string; pairs: Array<[string, unknown]> }) {
  return (
    <Table withTableBorder aria-label={title}>
      <Table.Tbody>
        {pairs.map(([k, v], i) => (
          <Table.Tr key={`${k}-${i}`}>
            <Table.Th w="40%">{k}</Table.Th>
            <Table.Td>
              <CellView value={v} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function toPairs(data: unknown): Array<[string, unknown]> | null {
  if (!Array.isArray(data) || !data.every((p) => isRecord(p) && typeof p.key === 'string')) return null;
  return data.map((p: { key: string; value?: unknown }) => [p.key, p.value ?? null]);
}

function SvgView({ title, data }: { title: string; data: unknown }) {
  const svg = isRecord(data) && typeof data.svg_content === 'string' ? data.svg_content.trim() : '';
  if (!svg.startsWith('<svg')) return <Text c="dimmed">{ANALYSIS_TEXT.imageNotAvailable}</Text>;
  return <Image src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt={title} maw={720} />;
}

function ComponentView({ component }: { component: unknown }) {
  const c = isRecord(component) ? component : {};
  const title = typeof c.title === 'string' ? c.title : '';
  let body;
  if (c.type === 'table') body = <TableView title={title} data={c.data} />;
  else if (c.type === 'key_value_pairs') {
    const pairs = toPairs(c.data);
    body = pairs ? (
      <KeyValuesView title={title} pairs={pairs} />
    ) : (
      <Text c="dimmed">{ANALYSIS_TEXT.keyValuesNotAvailable}</Text>
    );
  } else if (c.type === 'image_svg') body = <SvgView title={title} data={c.data} />;
  else
    body = (
      <Alert color="yellow" variant="light">
        {ANALYSIS_TEXT.unsupportedComponent}
      </Alert>
    );
  return (
    <Card withBorder padding="sm">
      <Stack gap="xs">
        {title && <Title order={5}>{title}</Title>}
        {body}
      </Stack>
    </Card>
  );
}

export function ResultRenderer({ resultData }: { resultData: unknown }) {
  if (isRecord(resultData) && Array.isArray(resultData.components)) {
    return (
      <Stack gap="md">
        {resultData.components.map((c, i) => (
          <ComponentView key={i} component={c} />
        ))}
      </Stack>
    );
  }
  if (isRecord(resultData)) {
    return <KeyValuesView title="Results" pairs={Object.entries(resultData)} />;
  }
  return <Text c="dimmed">{ANALYSIS_TEXT.keyValuesNotAvailable}</Text>;
}
