import { ConversionError, TradeValidationError } from '@tradedesk/domain';
import { BrokerError } from '../brokers/types';
import { HttpError } from './http-error';

/**
 * The one place broker and domain errors become HTTP statuses: an order or request the broker refuses
 * (no money, market closed, invalid stops) is 422, something it does not know is 404, a broker that is
 * down or refuses our credentials is 502, account details the trader typed that are incomplete are 400; an inconsistent plan or a missing conversion rate is 422.
 */
export function knownErrorToHttp(e: unknown): HttpError | null {
  if (e instanceof HttpError) return e;
  if (e instanceof BrokerError) {
    if (e.kind === 'rejected') return new HttpError(422, e.message);
    if (e.kind === 'not_found') return new HttpError(404, e.message);
    if (e.kind === 'invalid') return new HttpError(400, e.message);
    return new HttpError(502, e.message);
  }
  if (e instanceof TradeValidationError || e instanceof ConversionError) return new HttpError(422, e.message);
  return null;
}
