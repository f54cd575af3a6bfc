import { ScrollArea, Table, Text } from '@mantine/core';
import { PNL_COLORS } from '../../app/theme';
import { formatLots, formatPrice, type OpenPosition } from '../trade/trades.api';
import { BotBadge } from '../bots/BotBadge';
import { PositionActions, type PositionAction } from './PositionActions';
import { compactMoney, shortTime } from './positionFormat';
import classes from './PositionsTable.module.css';

/** The spec's columns, in its order; `num` columns are right-aligned figures. */
const COLUMNS = [
  { label: 'Position ID', cls: `${classes.sticky} ${classes.first}` },
  { label: 'Instrument', cls: `${classes.sticky} ${classes.second}` },
  { label: 'Direction' },
  { label: 'Lot Size', cls: classes.num },
  { label: 'Entry Price', cls: classes.num },
  { label: 'Stop Loss', cls: classes.num },
  { label: 'Profit Target', cls: classes.num },
  { label: 'RR Ratio', cls: classes.num },
  { label: 'Current P/L', cls: classes.num },
  { label: 'Created At' },
  { label: 'Actions', cls: `${classes.sticky} ${classes.last}` },
] as const;

const cls = (i: number) => ('cls' in COLUMNS[i]! ? COLUMNS[i]!.cls : undefined);

interface Props {
  rows: OpenPosition[];
  decimals: number;
  closing: Set<string>;
  onClose: (p: OpenPosition) => void;
  onAction: (kind: PositionAction, p: OpenPosition) => void;
  /** Trade id → name of the bot whose live run opened it. */
  bots?: ReadonlyMap<string, string>;
}

/**
 * Open positions from 768 px up: compact (12 px figures, headers that wrap, the time in two short
 * lines) so that every column fits the dashboard at 1280 px beside the navigation and watchlist.
 */
export function PositionsTable({ rows, decimals, closing, onClose, onAction, bots }: Props) {
  return (
    <ScrollArea type="auto" offsetScrollbars="x">
      <Table
        className={classes.table}
        aria-label="Open positions"
        highlightOnHover
        withRowBorders
        fz="xs"
        horizontalSpacing={6}
        verticalSpacing={4}
      >
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((c) => (
              <Table.Th key={c.label} className={'cls' in c ? c.cls : undefined}>
                {c.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((p, i) => {
            const id = String(p.position_id ?? p.id);
            const pl = p.current_pl;
            const created = shortTime(p.created_at);
            return (
              <Table.Tr key={p.id} data-position-id={p.id}>
                <Table.Td className={cls(0)} title={id} ff="monospace">
                  {id.slice(0, 8)}
                </Table.Td>
                <Table.Td className={cls(1)} fw={600}>
                  {p.instrument}
                  <BotBadge name={bots?.get(p.id)} />
                </Table.Td>
                <Table.Td>
                  <Text span c={p.direction === 'BUY' ? PNL_COLORS.up : PNL_COLORS.down} fw={600} fz="xs">
                    {p.direction}
                  </Text>
                </Table.Td>
                <Table.Td className={cls(3)}>{formatLots(p.lot_size)}</Table.Td>
                <Table.Td className={cls(4)}>{formatPrice(p.entry_price)}</Table.Td>
                <Table.Td className={cls(5)}>{formatPrice(p.stop_loss)}</Table.Td>
                <Table.Td className={cls(6)}>{formatPrice(p.profit_target)}</Table.Td>
                <Table.Td className={cls(7)}>{p.rr_ratio === null ? '—' : p.rr_ratio.toFixed(2)}</Table.Td>
                <Table.Td className={cls(8)} title={pl === null ? undefined : pl.toFixed(decimals)}>
                  {pl === null ? (
                    '—'
                  ) : (
                    <Text span fz="xs" fw={600} c={pl >= 0 ? PNL_COLORS.up : PNL_COLORS.down}>
                      {compactMoney(pl, decimals)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td title={created.full}>
                  <span className={classes.stack}>{created.day}</span>
                  <span className={classes.stack}>{created.time}</span>
                </Table.Td>
                <Table.Td className={cls(10)}>
                  <PositionActions
                    position={p}
                    closing={closing.has(p.id)}
                    upward={i >= rows.length - 2}
                    onClose={onClose}
                    onAction={onAction}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
