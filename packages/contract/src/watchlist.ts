import { z } from 'zod';
import { text } from './common';

export const watchlistItem = z.object({
  id: z.string(),
  instrument: z.string(),
  exchange: z.string(),
  is_global: z.boolean(),
});
export type WatchlistItem = z.infer<typeof watchlistItem>;

/** Fields are optional in the schema so that the service can answer with the spec's own message. */
export const watchlistCreate = z.object({
  instrument: text().max(40).optional().nullable(),
  exchange: text().max(40).optional().nullable(),
  is_global: z.boolean().optional(),
});
export type WatchlistCreate = z.infer<typeof watchlistCreate>;

export const WATCHLIST_MESSAGES = {
  required: 'Both instrument and exchange are required.',
  duplicate: 'This instrument/exchange combination already exists in your watchlist.',
  globalStaffOnly: 'Only staff may create or delete global watchlist items.',
  notFound: 'Not found.',
} as const;
