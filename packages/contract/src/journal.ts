import { z } from 'zod';

export const JOURNAL_MESSAGES = {
  reasonRequired: 'Please enter a reason before submitting the journal.',
  submitted: 'Journal entry submitted successfully.',
  imagesOnly: 'Only images can be attached: PNG, JPEG, WebP or GIF.',
  tooLarge: 'The file is too large: attachments are limited to 10 MB.',
  fileRequired: 'Attach one image file in the "files" field.',
  journalRequired: 'The "journal" field must name one of your journal entries.',
} as const;

export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;

const text = z.string().max(5000).nullable().optional();

/** Fields are loose so that the service answers with the spec's own messages. */
export const journalCreate = z.object({
  trade: z.string().min(1).max(64),
  action: text,
  trade_timeframe: text,
  reason: text,
  details: text,
  strategy_tag: text,
  emotional_state: text,
  market_condition: text,
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

export const journalListQuery = z.object({ trade: z.string().max(64).optional() });
