/**
 * True when a write failed on a unique constraint: SQLite says "UNIQUE constraint failed",
 * PostgreSQL reports SQLSTATE 23505 ("duplicate key value violates unique constraint").
 */
export function isUniqueViolation(e: unknown): boolean {
  if (typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '23505') return true;
  return /unique constraint|duplicate key/i.test(String((e as Error | undefined)?.message));
}
