// The rules of moderation that span stores: a decision on a report changes the review through the review store's
// write path (so reviews.updated/reviews.deleted events follow), records the removal for the policy page's counts,
// queues the writer's e-mail and writes the audit trail. The shop has no part in it: only the operator decides.
import type { AuditActor } from '../audit/store.js';
import { HttpError } from '../http/errors.js';
import type { Review, ReviewChanges } from '../reviews/model.js';
import { removedPhotos } from '../reviews/rules.js';
import type { Services } from '../services.js';
import { queueMail } from '../mail/outbox-mail.js';
import { removalNoticeKey } from './jobs.js';
import type { Decision, Ground, ReportFormValues } from './schema.js';
import type { Report, ReportDecision } from './store.js';

/**
 * The texts a redaction looks into: the writer's comment, their product texts, and the shop's reply; and the one
 * photo it may remove (its files are then deleted: photos/service.ts). Null when it finds nothing to change.
 */
export function redacted(
  review: Review,
  passage: string | undefined,
  replacement: string,
  photo?: string,
): { changes: ReviewChanges; chars: number } | null {
  let chars = 0;
  const swap = (text: string) => {
    if (!passage) return text;
    const parts = text.split(passage);
    chars += (parts.length - 1) * passage.length;
    return parts.join(replacement);
  };
  const changes: ReviewChanges = {
    comment: review.comment === null ? null : swap(review.comment),
    products: review.products.map((p) => ({ ...p, content: swap(p.content) })),
    reply: review.reply && { ...review.reply, text: swap(review.reply.text) },
  };
  const taken = review.photos?.find((p) => p.id === photo && p.state !== 'removed');
  if (taken) changes.photos = review.photos!.map((p) => (p === taken ? removedPhotos([p])[0]! : p));
  if (passage && chars === 0) return null;
  if (photo && !taken) return null;
  return chars > 0 || taken ? { changes, chars } : null;
}

/**
 * A report from the public form, on a published review, or from the shop's dashboard (`actor` the signed-in user,
 * `via` 'dashboard'): the same queue and the same decisions.
 */
export async function submitReport(
  services: Services,
  review: Review,
  values: ReportFormValues,
  actor: AuditActor = { kind: 'user' },
  via?: 'dashboard',
): Promise<Report> {
  const report = await services.moderation.add({
    reviewId: review.id,
    shopId: review.shopId,
    ground: values.ground!,
    text: values.text,
    email: values.email,
  });
  // The trail names the report; its text and the reporter's address stay in the report (erasable there).
  await services.audit.record({
    shopId: review.shopId,
    actor,
    action: 'report.created',
    target: `review:${review.id}`,
    details: { report: report._id.toHexString(), ground: report.ground, ...(via ? { via } : {}) },
  });
  return report;
}

const STATUS = { keep: 'kept', remove: 'removed', redact: 'redacted' } as const;

interface DecisionResult {
  report: Report;
  review: Review | null;
}

/** Applies an operator's decision to an open report. Errors are HttpErrors in the operator API's terms. */
export async function decideReport(
  services: Services,
  reportId: string,
  decision: Decision,
  actor: AuditActor,
): Promise<DecisionResult> {
  const { moderation, reviews } = services;
  const report = await moderation.get(reportId);
  if (!report) throw new HttpError(404, 'No such report.');
  if (report.status !== 'open')
    throw new HttpError(409, `The report was decided already (${report.status}).`, 'conflict');
  const review = await reviews.get(report.reviewId);
  if (decision.action !== 'keep' && (!review || review.deleted)) {
    throw new HttpError(409, 'The review was deleted already; only "keep" can close this report.', 'conflict');
  }

  const redaction =
    decision.action === 'redact' ? redacted(review!, decision.passage, decision.replacement, decision.photo) : null;
  if (decision.action === 'redact' && !redaction) {
    const message =
      !decision.passage && !decision.photo
        ? 'passage: give the passage to hide, or the photo to remove'
        : decision.photo && !review!.photos?.some((p) => p.id === decision.photo && p.state !== 'removed')
          ? 'photo: not a photo of this review'
          : 'passage: not found in the review’s texts (comment, product texts, reply)';
    throw new HttpError(422, message, 'validation_failed');
  }

  const record: ReportDecision = {
    action: decision.action,
    ground: decision.ground ?? null,
    note: decision.note,
    at: services.now(),
    by: actor.id ?? actor.kind,
    ...(redaction ? { redactedChars: redaction.chars } : {}),
  };
  // The report is claimed first: of two operators deciding at once, one wins and the other gets a 409.
  if (!(await moderation.decide(report._id, STATUS[decision.action], record))) {
    throw new HttpError(409, 'The report was decided already.', 'conflict');
  }

  let written: Review | null = review;
  if (decision.action === 'remove') written = await remove(services, review!, decision.ground, report, record);
  if (decision.action === 'redact') {
    const { passage, replacement, photo } = decision;
    // Applied to the version written, so a change made meanwhile is redacted too.
    written = await reviews.update(
      review!.id,
      (before) => redacted(before, passage, replacement, photo)?.changes ?? {},
    );
  }

  await services.audit.record({
    shopId: report.shopId,
    actor,
    action: `report.${STATUS[decision.action]}`,
    target: `review:${report.reviewId}`,
    details: {
      report: reportId,
      ground: record.ground,
      note: record.note,
      ...(redaction ? { redacted_chars: redaction.chars } : {}),
      ...(decision.action === 'redact' && decision.photo ? { removed_photo: decision.photo } : {}),
    },
  });
  return { report: { ...report, status: STATUS[decision.action], decision: record }, review: written };
}

async function remove(
  services: Services,
  review: Review,
  ground: Ground,
  report: Report,
  record: ReportDecision,
): Promise<Review | null> {
  const { moderation } = services;
  const removed = await services.reviews.softDelete(review.id, ground);
  await moderation.recordRemoval({ _id: review.id, shopId: review.shopId, ground, at: record.at });
  await moderation.closeOthers(review.id, report._id, record);
  // The address is blank once deleted: the notice keeps the one the review had.
  if (removed && review.email) {
    await queueMail(services, removalNoticeKey(review.id), {
      kind: 'removal',
      reviewId: review.id,
      shopId: review.shopId,
      to: review.email,
      language: review.language,
      ground,
    });
  }
  return removed;
}
