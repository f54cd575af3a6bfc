import { randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();
/** ISO 8601 UTC instant, the one time format of the DB and the wire. */
export const nowIso = (): string => new Date().toISOString();
