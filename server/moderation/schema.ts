// What the report form and the operator's decisions accept. The grounds are a fixed list: the policy page names
// them, the removal e-mail names the one that applied, and counts per ground are published.
import { z } from 'zod';
import { isValidEmail, normalizeEmail } from '../email.js';
import type { Fields } from '../http/body.js';

export const GROUNDS = [
  'not_experience',
  'offensive',
  'personal_data',
  'spam',
  'conflict_of_interest',
  'other',
] as const;
export type Ground = (typeof GROUNDS)[number];

const isGround = (value: unknown): value is Ground =>
  typeof value === 'string' && (GROUNDS as readonly string[]).includes(value);

export const REPORT_LIMITS = { text: 2000, email: 254 } as const;

export interface ReportFormValues {
  ground: Ground | null;
  text: string;
  email: string;
  /** Issue 20: the one photo reported (its id), '' for the whole review. */
  photo?: string;
}

export type ReportProblem = 'ground' | 'text' | 'email' | 'photo';

const PHOTO_ID = /^[A-Za-z0-9_-]{22}$/;

const field = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Reads the posted form; anything but a single string (arrays, objects) counts as empty. */
export function readReportForm(fields: Fields): ReportFormValues {
  const ground = field(fields.ground);
  return {
    ground: isGround(ground) ? ground : null,
    text: field(fields.text).replace(/\r\n?/g, '\n').trim(),
    email: normalizeEmail(field(fields.email)),
    ...(field(fields.photo) ? { photo: field(fields.photo) } : {}),
  };
}

/** `photos`: the ids of the review's shown photos, the ones a report may name. */
export function reportProblems(values: ReportFormValues, photos: readonly string[] = []): ReportProblem[] {
  const problems: ReportProblem[] = [];
  if (values.photo && !(PHOTO_ID.test(values.photo) && photos.includes(values.photo))) problems.push('photo');
  if (values.ground === null) problems.push('ground');
  if (values.text.length > REPORT_LIMITS.text) problems.push('text');
  if (values.email && (values.email.length > REPORT_LIMITS.email || !isValidEmail(values.email)))
    problems.push('email');
  return problems;
}

const note = z.string().trim().max(2000);
/**
 * The statement of reasons (DSA Art. 17): required where a review is restricted, e-mailed to its writer. The `note`
 * stays internal and is never e-mailed.
 */
const statement = z.string().trim().min(1, 'a statement of reasons for the writer is required').max(5000);

/**
 * An operator's decision. `redact` replaces every occurrence of `passage` in the review's texts (comment, product
 * texts, the shop's reply) by `replacement`, and/or removes one `photo`, and keeps the review; the others need no
 * passage. A complaint (`source: "appeal"`) is answered with `uphold` (the decision stands) or `reverse`: a removal or
 * redaction is undone; a "keep" contested by its reporter is reversed into a removal, which then needs its ground and
 * statement.
 */
export const decisionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('keep'), ground: z.enum(GROUNDS).optional(), note: note.default('') }).strict(),
  z.object({ action: z.literal('remove'), ground: z.enum(GROUNDS), note: note.default(''), statement }).strict(),
  z
    .object({
      action: z.literal('redact'),
      ground: z.enum(GROUNDS),
      note: note.default(''),
      statement,
      passage: z.string().min(1).max(5000).optional(),
      replacement: z.string().max(200).default('[…]'),
      /** Issue 20: one photo of the review to remove (its id, as in its address), with or without a passage. */
      photo: z
        .string()
        .regex(/^[A-Za-z0-9_-]{22}$/, 'a photo id of the review')
        .optional(),
    })
    .strict()
    .refine((d) => d.passage !== undefined || d.photo !== undefined, {
      message: 'give the passage to hide, or the photo to remove',
      path: ['passage'],
    }),
  z.object({ action: z.literal('uphold'), note: note.default('') }).strict(),
  /** A signal (`source: "signal"`) dismissed as a whole: the reviews it names stay as they are. */
  z.object({ action: z.literal('dismiss'), note: note.default('') }).strict(),
  z
    .object({
      action: z.literal('reverse'),
      note: note.default(''),
      ground: z.enum(GROUNDS).optional(),
      statement: statement.optional(),
    })
    .strict(),
]);

export type Decision = z.infer<typeof decisionSchema>;

/**
 * The body of the operator's own removal, DELETE /admin/api/reviews/{id} (issue 21): as the queue's `remove`, its
 * ground and statement of reasons (e-mailed to the writer with a complaint link) and the internal note.
 */
export const operatorRemovalSchema = z
  .object({ ground: z.enum(GROUNDS), statement, note: note.default('') })
  .strict()
  .meta({ id: 'OperatorRemoval' });

export const REPORT_STATUSES = ['open', 'kept', 'removed', 'redacted', 'upheld', 'reversed', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const listQuerySchema = z
  .object({
    status: z.enum([...REPORT_STATUSES, 'all']).default('open'),
    limit: z.coerce.number().int().min(1).max(100).default(50),
    /** The last id of the previous page. */
    after: z
      .string()
      .regex(/^[0-9a-f]{24}$/, 'a report id from the previous page')
      .optional(),
  })
  .strict();

/** What put a review in the queue. */
/** `check`: the operator's own removal through DELETE /admin/api/reviews/{id} with a statement (issue 21). */
export const REPORT_SOURCES = ['report', 'appeal', 'signal', 'check'] as const;
export type ReportSource = (typeof REPORT_SOURCES)[number];

export const APPEAL_LIMITS = { text: 5000 } as const;

/** The complaint form: its text is required (what is contested and why). */
export function readAppealText(fields: Fields): string {
  return field(fields.text).replace(/\r\n?/g, '\n').trim();
}
