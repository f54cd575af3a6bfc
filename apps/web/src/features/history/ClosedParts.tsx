import { Stack, Table, Text } from '@mantine/core';
import { tradeParts, type TradeFill } from '@tradedesk/domain';
import { fmtLots, fmtNumber, fmtPrice, fmtText, fmtTime, pnlColor } from './format';
import type { OrderRow } from './TradeDetailPanel';

/** The trade's fills as the domain reads them: only filled deals that say whether they open or close. */
export function fillsOf(orders: readonly OrderRow[] | undefined): TradeFill[] {
  return (orders ?? []).flatMap((o) =>
    o.entry && o.filled_at && o.filled_volume !== null
      ? [
          {
            entry: o.entry,
            volume: o.filled_volume,
            price: o.filled_price ?? Number.NaN,
            profit: o.profit ?? 0,
            time: o.filled_at,
            reason: o.deal_reason ?? '',
          },
        ]
      : [],
  );
}

/**
 * "Opened 0.10 lots; 0.04 closed, 0.06 open" and the closed parts in order, for a trade closed in more
 * than one part or partly closed and still open (a trade closed at once needs none of it).
 */
export function ClosedParts({ lotSize, orders }: { lotSize: number | null; orders?: OrderRow[] }) {
  if (lotSize === null) return null;
  const p = tradeParts(lotSize, fillsOf(orders));
  if (!p.partiallyClosed) return null;
  return (
    <Stack gap="xs" aria-label="Closed parts" role="region">
      <Text size="sm" data-testid="lots-summary">
        Opened {fmtLots(p.initialLots)} lots; {fmtLots(p.closedLots)} closed in {p.parts.length}{' '}
        {p.parts.length === 1 ? 'part' : 'parts'}, {fmtLots(p.openLots)} still open.
      </Text>
      <Table.ScrollContainer minWidth={520}>
        <Table striped withTableBorder aria-label="Closed parts of the trade" className="num" fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Closed At</Table.Th>
              <Table.Th>Lots</Table.Th>
              <Table.Th>Price</Table.Th>
              <Table.Th>Profit</Table.Th>
              <Table.Th>Reason</Table.Th>
              <Table.Th>Lots Left</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {p.parts.map((part, i) => (
              <Table.Tr key={i}>
                <Table.Td>{fmtTime(part.time)}</Table.Td>
                <Table.Td>{fmtLots(part.lots)}</Table.Td>
                <Table.Td>{fmtPrice(part.price)}</Table.Td>
                <Table.Td c={pnlColor(part.profit)}>{fmtNumber(part.profit, 2)}</Table.Td>
                <Table.Td>{fmtText(part.reason)}</Table.Td>
                <Table.Td>{fmtLots(part.lotsLeft)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
