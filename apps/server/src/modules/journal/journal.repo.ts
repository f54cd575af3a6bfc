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
    journalsFor: (userId: string, tradeId: string | undefined) => {
      let q = db.selectFrom('trade_journals').selectAll().where('user_id', '=', userId);
      if (tradeId) q = q.where('trade_id', '=', tradeId);
      return q.orderBy('created_at', 'desc').orderBy('id').limit(500).execute();
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
    insertAttachment: (row: JournalAttachmentsTable) =>
      db.insertInto('journal_attachments').values(row).execute(),
    /** Not scoped: the caller proves ownership with a bearer token or a signed link for this row's owner. */
    attachmentById: (id: string) =>
      db.selectFrom('journal_attachments').selectAll().where('id', '=', id).executeTakeFirst(),
  };
}
