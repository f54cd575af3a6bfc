import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  JOURNAL_CURSOR_MESSAGE,
  JOURNAL_MESSAGES,
  JOURNAL_PAGE,
  isStorableText,
  type JournalListQuery,
  type JournalPage,
  type JournalAttachment,
  type JournalCreate,
  type JournalEntry,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import type { JournalAttachmentsTable, TradeJournalsTable } from '../../db/schema';
import { badRequest, HttpError, notFound, unauthorized } from '../../lib/http-error';
import { newId, nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { fileLinks, sniffImage } from './attachments';
import { journalRepo } from './journal.repo';

const text = (v: string | null | undefined) => (v ?? '').trim();

/** Cursors are base64url JSON of the last row's sort keys (created_at, id). */
const encodeCursor = (j: { created_at: string; id: string }) =>
  Buffer.from(JSON.stringify([j.created_at, j.id])).toString('base64url');

function decodeCursor(cursor: string): { created_at: string; id: string } {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'string' && isStorableText(x)))
      return { created_at: v[0] as string, id: v[1] as string };
  } catch {
    // falls through to the 400
  }
  throw badRequest({ cursor: [JOURNAL_CURSOR_MESSAGE] });
}

export function journalService(ctx: AppContext) {
  const repo = journalRepo(ctx.db);
  const links = fileLinks(ctx.config.jwtSecret);
  const dir = path.join(ctx.config.dataDir, 'attachments');

  const toAttachment = (a: JournalAttachmentsTable): JournalAttachment => ({
    id: a.id,
    journal: a.journal_id,
    file: `/api/trade_journal/attachments/${a.id}/file?token=${links.sign(a.id, a.user_id)}`,
    content_type: a.content_type,
    size: Number(a.size),
    created_at: a.created_at,
  });

  const toEntry = (j: TradeJournalsTable, attachments: JournalAttachmentsTable[]): JournalEntry => ({
    id: j.id,
    trade: j.trade_id,
    action: j.action,
    trade_timeframe: j.trade_timeframe,
    reason: j.reason,
    details: j.details,
    strategy_tag: j.strategy_tag,
    emotional_state: j.emotional_state,
    market_condition: j.market_condition,
    created_at: j.created_at,
    attachments: attachments.filter((a) => a.journal_id === j.id).map(toAttachment),
  });

  async function attachFile(
    userId: string,
    journalId: string | undefined,
    file: { data: Buffer; filename: string } | undefined,
  ): Promise<JournalAttachment> {
    if (!journalId || !isStorableText(journalId) || !(await repo.journalOwned(userId, journalId))) {
      if (!journalId || !isStorableText(journalId))
        throw badRequest({ journal: [JOURNAL_MESSAGES.journalRequired] });
      throw notFound('Journal entry not found.');
    }
    if (!file || file.data.length === 0) throw badRequest({ files: [JOURNAL_MESSAGES.fileRequired] });
    const kind = sniffImage(file.data.subarray(0, 16));
    if (!kind) throw badRequest({ files: [JOURNAL_MESSAGES.imagesOnly] });
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const storedName = `${randomBytes(16).toString('hex')}.${kind.ext}`;
    await writeFile(path.join(dir, storedName), file.data, { flag: 'wx', mode: 0o600 });
    const row: JournalAttachmentsTable = {
      id: newId(),
      user_id: userId,
      journal_id: journalId,
      stored_name: storedName,
      original_name: isStorableText(file.filename || '')
        ? path.basename(file.filename || '').slice(0, 200)
        : '',
      content_type: kind.contentType,
      size: file.data.length,
      created_at: nowIso(),
    };
    await repo.insertAttachment(row);
    return toAttachment(row);
  }
  return {
    async create(user: AuthUser, body: JournalCreate): Promise<JournalEntry> {
      const reason = text(body.reason);
      if (!reason) throw badRequest({ reason: [JOURNAL_MESSAGES.reasonRequired] });
      if (!(await repo.tradeOwned(user.id, body.trade))) throw notFound('Trade not found.');
      const row: TradeJournalsTable = {
        id: newId(),
        user_id: user.id,
        trade_id: body.trade,
        action: text(body.action) || 'Opened Position',
        trade_timeframe: text(body.trade_timeframe) || '1H',
        reason,
        details: text(body.details),
        strategy_tag: text(body.strategy_tag),
        emotional_state: text(body.emotional_state),
        market_condition: text(body.market_condition),
        created_at: nowIso(),
      };
      await repo.insertJournal(row);
      return toEntry(row, []);
    },

    async list(user: AuthUser, q: JournalListQuery): Promise<JournalPage> {
      const tradeId = q.trade || undefined;
      if (tradeId && !(await repo.tradeOwned(user.id, tradeId))) throw notFound('Trade not found.');
      const limit = q.limit ?? JOURNAL_PAGE.default;
      const rows = await repo.journalsFor(
        user.id,
        tradeId,
        limit + 1,
        q.cursor ? decodeCursor(q.cursor) : undefined,
      );
      const journals = rows.slice(0, limit);
      const attachments = await repo.attachmentsOf(
        user.id,
        journals.map((j) => j.id),
      );
      const last = journals.at(-1);
      return {
        results: journals.map((j) => toEntry(j, attachments)),
        next_cursor: rows.length > limit && last ? encodeCursor(last) : null,
      };
    },

    /** Stores one image (checked by its bytes) under DATA_DIR/attachments with a random name. */
    attach(
      user: AuthUser,
      journalId: string | undefined,
      file: { data: Buffer; filename: string } | undefined,
    ): Promise<JournalAttachment> {
      return attachFile(user.id, journalId, file);
    },
    /** The same for work done on a user's behalf (chart snapshots), by the owner's id. */
    attachFile,
    /** Attachments of the user by id, in the order asked (missing ones left out). */
    async attachmentsByIds(userId: string, ids: string[]): Promise<JournalAttachment[]> {
      const rows = await repo.attachmentsByIds(userId, ids);
      return ids.flatMap((id) => rows.filter((r) => r.id === id).map(toAttachment));
    },
    /**
     * The file of an attachment for its owner only: a bearer token of the owner, or a signed link.
     * Anyone else gets 404, as if it did not exist.
     */
    async file(
      id: string,
      auth: { bearerUser?: AuthUser | null; token?: string },
    ): Promise<{ path: string; contentType: string; size: number }> {
      const row = await repo.attachmentById(id);
      if (!auth.bearerUser && !auth.token)
        throw unauthorized('Authentication credentials were not provided.');
      let allowed = false;
      if (row && auth.bearerUser && auth.bearerUser.id === row.user_id) allowed = true;
      if (row && !allowed && auth.token) {
        const v = links.verify(auth.token, row.id, row.user_id);
        if (v === 'expired') throw new HttpError(401, 'This file link has expired; reload the journal.');
        allowed = v === 'ok';
      }
      if (!row || !allowed) throw notFound();
      return { path: path.join(dir, row.stored_name), contentType: row.content_type, size: Number(row.size) };
    },
  };
}
