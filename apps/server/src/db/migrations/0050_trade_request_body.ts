import type { Kysely } from 'kysely';

/**
 * An Idempotency-Key is bound to the request it first came with: the SHA-256 of its body is kept
 * beside it, so the same key with another body is refused instead of answering with the first trade.
 * Rows from before this migration have none and keep replaying as they did.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('trade_requests').addColumn('body_hash', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('trade_requests').dropColumn('body_hash').execute();
}
