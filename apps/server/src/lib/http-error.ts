import type { ErrorBody } from '@tradedesk/contract';

/** An error whose status and detail are meant for the client, in the `{detail}` shape. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: ErrorBody['detail'],
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
    this.name = 'HttpError';
  }
}

export const badRequest = (detail: ErrorBody['detail']) => new HttpError(400, detail);
export const unauthorized = (detail: string) => new HttpError(401, detail);
export const forbidden = (detail = 'You do not have permission to perform this action.') =>
  new HttpError(403, detail);
export const notFound = (detail = 'Not found.') => new HttpError(404, detail);
export const conflict = (detail: ErrorBody['detail']) => new HttpError(409, detail);
export const unprocessable = (detail: ErrorBody['detail']) => new HttpError(422, detail);
export const badGateway = (detail: string) => new HttpError(502, detail);
