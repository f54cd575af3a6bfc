import { useState } from 'react';
import { Modal } from '@mantine/core';
import { JournalTradeModal } from '../journal/JournalTradeModal';
import { TradeFormBody } from './TradeFormBody';

export interface PlaceTradeModalProps {
  opened: boolean;
  initialAccountId?: string | null;
  initialSymbol?: string;
  onClose: () => void;
  /** After a successful execution, so the caller reloads its positions. */
  onExecuted?: () => void;
}

/**
 * Place a Trade (spec section 2): live prices, sizing from risk with the domain's planTrade (the same
 * math the server re-runs), single or multi TP, and Journal This Trade once the trade is placed.
 */
export function PlaceTradeModal({
  opened,
  initialAccountId,
  initialSymbol,
  onClose,
  onExecuted,
}: PlaceTradeModalProps) {
  const [journalTrade, setJournalTrade] = useState<{ id: string; symbol: string } | null>(null);
  return (
    <>
      <Modal
        opened={opened && !journalTrade}
        onClose={onClose}
        title="Place a Trade"
        size="xl"
        closeOnClickOutside={false}
      >
        <TradeFormBody
          initialAccountId={initialAccountId}
          initialSymbol={initialSymbol}
          onExecuted={(tradeId, symbol) => {
            onExecuted?.();
            if (tradeId) setJournalTrade({ id: tradeId, symbol });
            else onClose();
          }}
        />
      </Modal>
      {journalTrade && (
        <JournalTradeModal
          opened
          tradeId={journalTrade.id}
          symbol={journalTrade.symbol}
          onClose={() => {
            // Closing the journal closes the trade modal too (spec section 4).
            setJournalTrade(null);
            onClose();
          }}
        />
      )}
    </>
  );
}
