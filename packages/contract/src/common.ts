import { z } from 'zod';

/** Every error the API returns has this shape (DESIGN.md section 4). */
export const errorBody = z.object({
  detail: z.union([z.string(), z.array(z.string()), z.record(z.string(), z.array(z.string()))]),
});
export type ErrorBody = z.infer<typeof errorBody>;

export const uuidParam = z.object({ id: z.string().min(1).max(64) });

/** ISO 8601 UTC instant on the wire. */
export const isoInstant = z.string();

export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded']),
  db: z.enum(['ok', 'down']),
  dialect: z.enum(['sqlite', 'postgres']),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof healthResponse>;
