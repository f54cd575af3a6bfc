import type { Transaction } from 'kysely';
import type { Db } from '../../db';
import type { Database } from '../../db/schema';

type Op = (trx: Transaction<Database>) => Promise<void>;

/**
 * Group commit: writes that arrive while a commit is running are committed together in the next
 * transaction, so that concurrent executes share one fsync instead of queueing one each behind
 * SQLite's single connection (with synchronous=FULL a commit costs a disk flush). Each caller still
 * resolves only after its own write is durable. A batch that fails is retried op by op, so one bad
 * write (a unique conflict) never fails the others.
 */
export function createGroupWriter(db: Db) {
  let queue: Array<{ op: Op; resolve: () => void; reject: (e: unknown) => void }> = [];
  let running = false;

  async function drain(): Promise<void> {
    running = true;
    try {
      while (queue.length > 0) {
        const batch = queue;
        queue = [];
        try {
          await db.transaction().execute(async (trx) => {
            for (const b of batch) await b.op(trx);
          });
          for (const b of batch) b.resolve();
        } catch {
          for (const b of batch) {
            try {
              await db.transaction().execute(b.op);
              b.resolve();
            } catch (e) {
              b.reject(e);
            }
          }
        }
      }
    } finally {
      running = false;
    }
  }

  return {
    write(op: Op): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        queue.push({ op, resolve, reject });
        // One turn of the event loop lets the other requests in flight join this commit.
        if (!running) {
          running = true;
          setImmediate(() => void drain());
        }
      });
    },
  };
}
