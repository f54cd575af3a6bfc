import { conversionPairs, quoteToAccountRate } from '@tradedesk/domain';
import { BrokerError, type BrokerAdapter, type Quote, type SymbolInfo } from '../../brokers/types';

const mid = (q: Pick<Quote, 'bid' | 'ask'>) => (q.bid + q.ask) / 2;

/**
 * Value in the account currency of one unit of the symbol's quote currency, through the domain's one
 * conversion (the modal calls the same function with the pairs it watches): the broker's mid prices
 * of every pair `conversionPairs` names that it offers, direct first, else the cross through USD.
 * @throws ConversionError when the broker offers no route.
 */
export async function quoteToAccount(
  adapter: BrokerAdapter,
  symbol: SymbolInfo,
  accountCurrency: string,
  quote: Quote,
): Promise<number> {
  const pairs = conversionPairs(symbol, accountCurrency);
  const mids: Record<string, number> = {};
  await Promise.all(
    pairs.map(async (pair) => {
      try {
        mids[pair] = mid(await adapter.quote(pair));
      } catch (e) {
        // Not offered by this broker: another route may exist.
        if (!(e instanceof BrokerError)) throw e;
      }
    }),
  );
  return quoteToAccountRate(symbol, accountCurrency, mids, mid(quote));
}
