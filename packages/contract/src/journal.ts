import { z } from 'zod';
import { text } from './common';

export const JOURNAL_MESSAGES = {
  reasonRequired: 'Please enter a reason before submitting the journal.',
  submitted: 'Journal entry submitted successfully.',
  imagesOnly: 'Only images can be attached: PNG, JPEG, WebP or GIF.',
  tooLarge: 'The file is too large: attachments are limited to 10 MB.',
  fileRequired: 'Attach one image file in the "files" field.',
  journalRequired: 'The "journal" field must name one of your journal entries.',
} as const;

export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

const journalText = text().max(5000).nullable().optional();

/** Fields are loose so that the service answers with the spec's own messages. */
export const journalCreate = z.object({
  trade: text().min(1).max(64),
  action: journalText,
  trade_timeframe: journalText,
  reason: journalText,
  details: journalText,
  strategy_tag: journalText,
  emotional_state: journalText,
  market_condition: journalText,
});
export type JournalCreate = z.infer<typeof journalCreate>;

export const journalAttachment = z.object({
  id: z.string(),
  journal: z.string(),
  /** URL of the image, signed for a short time so that an <img> tag can load it without headers. */
  file: z.string(),
  content_type: z.string(),
  size: z.number().int(),
  created_at: z.string(),
});
export type JournalAttachment = z.infer<typeof journalAttachment>;

/**
 * The multipart/form-data body of POST /api/trade_journal/attachments/, for the OpenAPI document:
 * the route reads the parts from the stream and the service checks them (an image by its bytes).
 */
export const journalAttachmentForm = z.object({
  journal: text().min(1).max(64).meta({ description: 'The id of one of your journal entries.' }),
  files: z.file().meta({
    description: `One image: PNG, JPEG, WebP or GIF, at most ${ATTACHMENT_MAX_BYTES / 1024 / 1024} MB.`,
  }),
});

export const journalEntry = z.object({
  id: z.string(),
  trade: z.string(),
  action: z.string(),
  trade_timeframe: z.string(),
  reason: z.string(),
  details: z.string(),
  strategy_tag: z.string(),
  emotional_state: z.string(),
  market_condition: z.string(),
  created_at: z.string(),
  attachments: z.array(journalAttachment),
});
export type JournalEntry = z.infer<typeof journalEntry>;

export const JOURNAL_PAGE = { default: 50, max: 200 } as const;

/**
 * Newest first, a page at a time: pass `cursor=<next_cursor>` (with the same `trade`) for the next
 * page; `next_cursor` is null on the last one. Cursors are opaque, as in the trade history.
 */
export const journalListQuery = z.object({
  trade: text().max(64).optional(),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(JOURNAL_PAGE.max, `Ensure this value is at most ${JOURNAL_PAGE.max}.`)
    .optional(),
  cursor: text().max(500).optional(),
});
export type JournalListQuery = z.infer<typeof journalListQuery>;

export const journalPage = z.object({ results: z.array(journalEntry), next_cursor: z.string().nullable() });
export type JournalPage = z.infer<typeof journalPage>;

export const JOURNAL_CURSOR_MESSAGE =
  'This cursor is not valid for this list; start again from the first page.';
