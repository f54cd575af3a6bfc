import type { Db } from '../../db';
import type { JournalAttachmentsTable, TradeJournalsTable } from '../../db/schema';

/** Journals and attachments; every query scoped by the owning user. */
export function journalRepo(db: Db) {
  return {
    tradeOwned: (userId: string, tradeId: string) =>
      db
        .selectFrom('trades')
        .select('id')
        .where('user_id', '=', userId)
        .where('id', '=', tradeId)
        .executeTakeFirst(),
    journalOwned: (userId: string, id: string) =>
      db
        .selectFrom('trade_journals')
        .select('id')
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst(),
    insertJournal: (row: TradeJournalsTable) => db.insertInto('trade_journals').values(row).execute(),
    /** One keyset page, newest first (ties by id): `limit` rows after the row `after` names. */
    journalsFor: (
      userId: string,
      tradeId: string | undefined,
      limit: number,
      after?: { created_at: string; id: string },
    ) => {
      let q = db.selectFrom('trade_journals').selectAll().where('user_id', '=', userId);
      if (tradeId) q = q.where('trade_id', '=', tradeId);
      if (after)
        q = q.where((eb) =>
          eb.or([
            eb('created_at', '<', after.created_at),
            eb.and([eb('created_at', '=', after.created_at), eb('id', '>', after.id)]),
          ]),
        );
      return q.orderBy('created_at', 'desc').orderBy('id').limit(limit).execute();
    },
    attachmentsOf: (userId: string, journalIds: string[]) =>
      journalIds.length === 0
        ? Promise.resolve([] as JournalAttachmentsTable[])
        : db
            .selectFrom('journal_attachments')
            .selectAll()
            .where('user_id', '=', userId)
            .where('journal_id', 'in', journalIds)
            .orderBy('created_at')
            .execute(),
    attachmentsByIds: (userId: string, ids: string[]) =>
      ids.length === 0
        ? Promise.resolve([] as JournalAttachmentsTable[])
        : db
            .selectFrom('journal_attachments')
            .selectAll()
            .where('user_id', '=', userId)
            .where('id', 'in', ids)
            .execute(),
    insertAttachment: (row: JournalAttachmentsTable) =>
      db.insertInto('journal_attachments').values(row).execute(),
    /** Not scoped: the caller proves ownership with a bearer token or a signed link for this row's owner. */
    attachmentById: (id: string) =>
      db.selectFrom('journal_attachments').selectAll().where('id', '=', id).executeTakeFirst(),
  };
}
