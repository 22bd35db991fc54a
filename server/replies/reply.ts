// The rules of a review reply, apart from any I/O: what a valid request is and what the stored reply becomes.
import { z } from 'zod';
import type { Reply } from '../reviews/model.js';

/** Long enough for any real answer, short enough for the notification e-mail and the widget. */
const REPLY_MAX_LENGTH = 10_000;

const required = (expected: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? 'is required' : `must be ${expected}`;

// review_id must be a JSON number: the spec types it as an integer, and accepting "12" would hide client bugs
// that elsewhere send "12abc" (see docs/decisions.md).
export const replyRequestSchema = z.object({
  review_id: z
    .number({ error: required('an integer (a JSON number, not a string)') })
    .int({ error: 'must be an integer' })
    .positive({ error: 'must be a positive integer' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'is too large' }),
  reply: z
    .string({ error: required('a string') })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(REPLY_MAX_LENGTH, { error: `must be at most ${REPLY_MAX_LENGTH} characters` }),
  notify: z.boolean({ error: 'must be true or false' }).optional(),
});

type ReplyRequest = z.infer<typeof replyRequestSchema>;

/** Whether the reply's e-mail to the writer is still to be sent (it may be waiting for the day's end). */
const notificationWaiting = (reply: Reply | null): boolean => reply?.notify === true && reply.notified === null;

/**
 * The reply that replaces `previous`: a fresh revision whose notification (if wanted) is still to be sent. A
 * notification still waiting is taken over, whatever the request says: the writer is told once, with the latest
 * text (reply e-mails are at least a day apart, so a correction within the day must not drop the one held back).
 */
export function nextReply(previous: Reply | null, request: ReplyRequest, now: Date): Reply {
  return {
    text: request.reply,
    date: now,
    notify: request.notify === true || notificationWaiting(previous),
    revision: (previous?.revision ?? 0) + 1,
    notified: null,
  };
}
