// The rules of moderation that span stores: a decision on a report changes the review through the review store's
// write path (so reviews.updated/reviews.deleted events follow), records the removal for the policy page's counts,
// queues the writer's e-mail and writes the audit trail. The shop has no part in it: only the operator decides.
import type { AuditActor } from '../audit/model.js';
import { OPERATOR } from '../audit/changes.js';
import { recordOperatorAction } from '../audit/service.js';
import { HttpError } from '../http/errors.js';
import type { Review, ReviewChanges } from '../reviews/model.js';
import { givenBackPhotos, photoIsOn, withheldPhotos } from '../reviews/rules.js';
import { JOB } from '../jobs/names.js';
import type { Services } from '../services.js';
import { queueMail } from '../mail/outbox-mail.js';
import { decisionRemovalKey } from './jobs.js';
import type { Decision, Ground, ReportFormValues } from './schema.js';
import {
  APPEAL_DAYS,
  type AppealRole,
  type AppealToken,
  type DecisionTrigger,
  type NoticeKind,
  type Report,
  type ReportDecision,
  type SignalEvidence,
} from './store.js';
import { isLanguage, type Language } from '../languages.js';
import type { Webshop } from '../webshops/model.js';
import { findWebshop, type ShopFinder } from '../webshops/service.js';
import { OPERATOR_REMOVAL_STATEMENT } from './notice-strings.js';
import { addDays } from '../time.js';
import type { SignalName } from '../signal-names.js';
import type { ModerationEvent } from './events.js';

/**
 * What moderation's rules use: its own store, the reviews' write path, the trail, the compliance counters, the photo
 * records (photos given back), the day's e-mails per address and the outbox the notices are queued in.
 */
export type ModerationDeps = Pick<
  Services,
  'audit' | 'compliance' | 'moderation' | 'now' | 'outbox' | 'photos' | 'recipientLimit' | 'reviews' | 'scheduler'
>;

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
  const taken = review.photos?.find((p) => p.id === photo && isOn(p));
  // Hidden, not deleted: a complaint may give it back (restoreTexts); its files go when the six months are over.
  if (taken) changes.photos = withheldPhotos(review.photos!, [taken.id]);
  if (passage && chars === 0) return null;
  if (photo && !taken) return null;
  return chars > 0 || taken ? { changes, chars } : null;
}

/** A photo still on the review (shown, held or being encoded): one a redaction can take. */
const isOn = photoIsOn;

/** What finding a review to report takes: the review store's `get`, and the shop's (webshops/service.ts). */
export interface ReportedReviewDeps extends ShopFinder {
  reviews: { get(id: number): Promise<Review | null> };
}

/**
 * The review the public report form names (`/reviews/{id}/report`) and its shop; null when the id names no
 * published review of a shop that still exists (the form's 404 page).
 */
export async function reviewToReport(
  deps: ReportedReviewDeps,
  rawId: string,
): Promise<{ review: Review; shop: Webshop } | null> {
  const review = /^\d{1,15}$/.test(rawId) ? await deps.reviews.get(Number(rawId)) : null;
  if (!review?.published) return null;
  const shop = await findWebshop(deps, review.shopId);
  return shop && { review, shop };
}

/**
 * A report from the public form, on a published review, or from the shop's dashboard (`actor` the signed-in user,
 * `via` 'dashboard'): the same queue and the same decisions.
 */
export async function submitReport(
  services: ModerationDeps,
  review: Review,
  values: ReportFormValues,
  actor: AuditActor = { kind: 'user' },
  via?: 'dashboard',
  language?: Language,
): Promise<Report> {
  const report = await services.moderation.add({
    reviewId: review.id,
    shopId: review.shopId,
    ground: values.ground!,
    text: values.text,
    email: values.email,
    ...(language ? { language } : {}),
    ...(values.photo ? { photo: values.photo } : {}),
  });
  services.compliance.count(review.shopId, { kind: 'report_received' });
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

const STATUS = {
  keep: 'kept',
  remove: 'removed',
  redact: 'redacted',
  uphold: 'upheld',
  reverse: 'reversed',
  dismiss: 'dismissed',
} as const;

interface DecisionResult {
  report: Report;
  review: Review | null;
}

/** Writers of imported reviews are told nothing: the address came from another platform, not from them. */
const mayTellWriter = (review: Review): boolean => review.email !== '' && review.source !== 'import';

/** What the writer is told started the decision (never who reported, nor what they wrote). */
const triggerOf = (report: Report): DecisionTrigger =>
  report.source === 'check'
    ? 'own_check'
    : report.source === 'appeal'
      ? 'report'
      : ((report.source as DecisionTrigger | undefined) ?? 'report');

/**
 * Applies an operator's decision to an open report, or answers an open complaint (`uphold | reverse`). Errors are
 * HttpErrors in the operator API's terms.
 */
export async function decideReport(
  services: ModerationDeps,
  reportId: string,
  decision: Decision,
  actor: AuditActor,
): Promise<DecisionResult> {
  const { moderation, reviews } = services;
  const report = await moderation.get(reportId);
  if (!report) throw new HttpError(404, 'No such report.');
  if (report.status !== 'open')
    throw new HttpError(409, `The report was decided already (${report.status}).`, 'conflict');
  const isAppeal = report.source === 'appeal';
  const answersAppeal = decision.action === 'uphold' || decision.action === 'reverse';
  if (decision.action === 'dismiss') return dismissSignal(services, report, decision.note, actor);
  if (isAppeal !== answersAppeal) {
    throw new HttpError(
      422,
      isAppeal
        ? 'action: a complaint is answered with uphold or reverse'
        : 'action: uphold and reverse answer complaints (source "appeal") only',
      'validation_failed',
    );
  }
  if (decision.action === 'uphold' || decision.action === 'reverse') {
    return answerAppeal(services, report, decision, actor);
  }
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
        : decision.photo && !review!.photos?.some((p) => p.id === decision.photo && isOn(p))
          ? 'photo: not a photo of this review'
          : 'passage: not found in the review’s texts (comment, product texts, reply)';
    throw new HttpError(422, message, 'validation_failed');
  }

  const record: ReportDecision = {
    action: decision.action,
    ground: decision.ground ?? null,
    note: decision.note,
    ...(decision.action === 'keep' ? {} : { statement: decision.statement }),
    at: services.now(),
    by: actor.id ?? actor.kind,
    ...(redaction ? { redactedChars: redaction.chars } : {}),
  };
  // The report is claimed first: of two operators deciding at once, one wins and the other gets a 409.
  if (!(await moderation.decide(report._id, STATUS[decision.action], record))) {
    throw new HttpError(409, 'The report was decided already.', 'conflict');
  }

  let written: Review | null = review;
  if (decision.action === 'remove') {
    await withhold(services, review!, reportId, services.now(), photosOn(review!));
    written = await remove(services, review!, decision.ground, report, record);
  }
  if (decision.action === 'redact') {
    const { passage, replacement, photo } = decision;
    await withhold(services, review!, reportId, services.now(), photo ? [photo] : []);
    // Applied to the version written, so a change made meanwhile is redacted too.
    written = await reviews.update(
      review!.id,
      (before) => redacted(before, passage, replacement, photo)?.changes ?? {},
    );
    if (written && mayTellWriter(review!)) {
      await queueNotice(services, review!, {
        key: `report.${reportId}.redacted`,
        to: review!.email,
        kind: 'redacted',
        role: 'writer',
        ground: decision.ground,
        statement: decision.statement,
        trigger: triggerOf(report),
        report: reportId,
      });
    }
  }
  await tellReporter(services, report, decision.action === 'keep' ? 'kept' : STATUS[decision.action], record.ground);
  countDecision(services, report, review, decision.action, record.ground);

  await services.audit.record({
    shopId: report.shopId,
    actor,
    action: `report.${STATUS[decision.action]}`,
    target: `review:${report.reviewId}`,
    details: {
      report: reportId,
      ground: record.ground,
      note: record.note,
      // The statement is what the writer reads: the trail keeps it whole.
      ...(record.statement ? { statement: record.statement } : {}),
      ...(redaction ? { redacted_chars: redaction.chars } : {}),
      ...(decision.action === 'redact' && decision.photo ? { removed_photo: decision.photo } : {}),
    },
  });
  return { report: { ...report, status: STATUS[decision.action], decision: record }, review: written };
}

/** The compliance counters of a decision on a report, a signal or the operator's own check (compliance/counters.ts). */
function countDecision(
  services: ModerationDeps,
  report: Report,
  review: Review | null,
  action: 'keep' | 'remove' | 'redact' | 'dismiss',
  ground: Ground | null,
): void {
  const count = (event: ModerationEvent) => services.compliance.count(report.shopId, event);
  const source = report.source === 'signal' ? 'signal' : report.source === 'check' ? 'check' : 'report';
  const outcome = action === 'keep' ? 'kept' : action === 'dismiss' ? 'dismissed' : STATUS[action];
  count({ kind: 'decided', source, ...(report.signal ? { signal: report.signal.name } : {}), outcome });
  if (review && ground && action === 'remove') count({ kind: 'review_removed', ground, rating: review.rating });
  if (review && ground && action === 'redact') count({ kind: 'review_redacted', ground, rating: review.rating });
}

/**
 * The operator's own removal (DELETE /admin/api/reviews/{id} with a statement): recorded as a queue entry of source
 * `check` ("our own check", never a report) and decided at once through the same path as the queue's `remove`, so
 * the writer gets the same e-mail and complaint link, the text is kept for a complaint, and the trail has it all.
 */
async function removeByOperator(
  services: ModerationDeps,
  review: Review,
  removal: { ground: Ground; statement: string; note: string },
): Promise<DecisionResult> {
  const check = await services.moderation.add({
    reviewId: review.id,
    shopId: review.shopId,
    ground: removal.ground,
    text: '',
    email: '',
    source: 'check',
  });
  return decideReport(services, check._id.toHexString(), { action: 'remove', ...removal }, OPERATOR);
}

/** The internal note of a removal through DELETE without a body: the queue shows why the statement is generic. */
const GENERIC_NOTE = 'DELETE /admin/api/reviews/{id} without a body: the writer was sent the generic statement.';

/**
 * DELETE /admin/api/reviews/{id}: the operator's removal of a live review (else the 404 `No such review.`), always
 * a decision (removeByOperator). Without a ground and statement (the spec's DELETE has no body) the ground is
 * `other` and the writer reads a generic statement in their language saying the operator removed it
 * (docs/decisions/integrity-delete.md); the trail then also has the `review.deleted` entry the spec's DELETE left.
 */
export async function deleteReviewByOperator(
  services: ModerationDeps,
  id: number,
  given: { ground: Ground; statement: string; note: string } | null,
): Promise<void> {
  const review = await services.reviews.get(id);
  if (!review || review.deleted) throw new HttpError(404, 'No such review.');
  await removeByOperator(
    services,
    review,
    given ?? {
      ground: 'other',
      statement: OPERATOR_REMOVAL_STATEMENT[isLanguage(review.language) ? review.language : 'en'],
      note: GENERIC_NOTE,
    },
  );
  if (!given) {
    // The spec's DELETE also left this entry; trail readers keep finding it.
    await recordOperatorAction(services, {
      shopId: review.shopId,
      action: 'review.deleted',
      target: `review:${id}`,
      details: { rating: review.rating, published: { from: review.published, to: false } },
    });
  }
}

/** The photos a removal withholds with its review (the ones still on it). */
const photosOn = (review: Review): string[] => (review.photos ?? []).filter(photoIsOn).map((p) => p.id);

/**
 * The texts a removal or redaction takes, kept apart by decision for as long as it can be contested; and the photos
 * it withholds (their files kept as long, then deleted: removeExpiredPhotos).
 */
async function withhold(
  services: ModerationDeps,
  review: Review,
  reportId: string,
  now: Date,
  photos: readonly string[],
): Promise<void> {
  await services.moderation.withhold({
    _id: reportId,
    reviewId: review.id,
    shopId: review.shopId,
    name: review.name,
    email: review.email,
    comment: review.comment,
    reply: review.reply,
    products: review.products.map((p) => p.content),
    expires: addDays(now, APPEAL_DAYS),
    ...(photos.length ? { photos: [...photos] } : {}),
  });
  await services.audit.record({
    shopId: review.shopId,
    actor: { kind: 'system' },
    action: 'report.text_withheld',
    target: `review:${review.id}`,
    details: { report: reportId, until: addDays(now, APPEAL_DAYS).toISOString() },
  });
}

interface NoticeFields {
  /** The outbox key, also the Message-ID's local part: one e-mail per decision and person, the same every attempt. */
  key: string;
  to: string;
  kind: NoticeKind;
  role: AppealRole;
  ground: Ground | null;
  statement?: string;
  trigger?: DecisionTrigger;
  report?: string;
}

/**
 * Queues a decision's e-mail in the mail outbox (moderation/jobs.ts composes it, with its complaint link, when it is
 * sent). Like every outbox e-mail it takes its place of the day's e-mails to the address when queued (typed
 * addresses: 3 a day); one over the limit is not queued, and the trail says so.
 */
async function queueNotice(
  services: ModerationDeps,
  review: Pick<Review, 'id' | 'shopId' | 'language'>,
  n: NoticeFields,
  language: Language = review.language,
): Promise<void> {
  const target = `review:${review.id}`;
  if (!(await services.recipientLimit.take(n.to))) {
    await services.audit.record({
      shopId: review.shopId,
      actor: { kind: 'system' },
      action: 'report.notice_limited',
      target,
      details: { kind: n.kind, role: n.role },
    });
    return;
  }
  await queueMail(services, n.key, {
    kind: 'decision',
    reviewId: review.id,
    shopId: review.shopId,
    to: n.to,
    language,
    ground: n.ground,
    notice: n.kind,
    role: n.role,
    ...(n.statement ? { statement: n.statement } : {}),
    ...(n.trigger ? { trigger: n.trigger } : {}),
    ...(n.report ? { report: n.report } : {}),
  });
}

/** The reporter who left an address is told the outcome (never the note or the statement), with a complaint link. */
async function tellReporter(
  services: ModerationDeps,
  report: Report,
  outcome: 'kept' | 'removed' | 'redacted',
  ground: Ground | null,
): Promise<void> {
  if (!report.email || report.source === 'appeal') return;
  const id = report._id.toHexString();
  await queueNotice(
    services,
    { id: report.reviewId, shopId: report.shopId, language: reporterLanguage(report) },
    {
      key: `report.${id}.outcome`,
      to: report.email,
      kind: outcome,
      role: 'reporter',
      ground,
      report: id,
    },
  );
}

/** The language of the page the report was made on; English for reports stored before it was kept. */
const reporterLanguage = (report: Report): Language => report.language ?? 'en';

/** Answers a complaint: the decision stands, or it is undone; the complainant is told which. */
async function answerAppeal(
  services: ModerationDeps,
  complaint: Report,
  decision: Extract<Decision, { action: 'uphold' | 'reverse' }>,
  actor: AuditActor,
): Promise<DecisionResult> {
  const { moderation, reviews } = services;
  const contested = complaint.appeal ? await moderation.get(complaint.appeal.report) : null;
  if (!contested?.decision) throw new HttpError(409, 'The contested decision is gone.', 'conflict');
  const was = contested.decision.action;
  if (decision.action === 'reverse' && was === 'keep' && (!decision.ground || !decision.statement)) {
    throw new HttpError(
      422,
      'ground, statement: reversing a "keep" removes the review, which needs its ground and a statement of reasons',
      'validation_failed',
    );
  }
  const record: ReportDecision = {
    action: decision.action,
    ground: decision.action === 'reverse' && was === 'keep' ? decision.ground! : contested.decision.ground,
    note: decision.note,
    ...(decision.action === 'reverse' && decision.statement ? { statement: decision.statement } : {}),
    at: services.now(),
    by: actor.id ?? actor.kind,
  };
  if (!(await moderation.decide(complaint._id, STATUS[decision.action], record))) {
    throw new HttpError(409, 'The complaint was answered already.', 'conflict');
  }
  const complaintId = complaint._id.toHexString();
  let review = await reviews.get(complaint.reviewId);
  if (decision.action === 'reverse') {
    if (was === 'keep') {
      if (!review || review.deleted)
        throw new HttpError(409, 'The review was deleted already; nothing to reverse.', 'conflict');
      await withhold(services, review, complaintId, services.now(), photosOn(review));
      review = await remove(services, review, record.ground!, complaint, record, complaintId);
    } else {
      review = await restoreTexts(services, contested, was, complaintId, actor);
    }
  }
  services.compliance.count(complaint.shopId, { kind: 'complaint_answered', outcome: STATUS[decision.action] });
  if (decision.action === 'reverse' && was === 'keep' && review)
    services.compliance.count(complaint.shopId, {
      kind: 'review_removed',
      ground: record.ground!,
      rating: review.rating,
    });
  if (complaint.email) {
    await queueNotice(
      services,
      { id: complaint.reviewId, shopId: complaint.shopId, language: complaint.appeal!.language },
      {
        key: `report.${complaintId}.answer`,
        to: complaint.email,
        kind: decision.action === 'uphold' ? 'appeal_upheld' : 'appeal_reversed',
        role: complaint.appeal!.role,
        ground: record.ground,
      },
    );
  }
  await services.audit.record({
    shopId: complaint.shopId,
    actor,
    action: `appeal.${STATUS[decision.action]}`,
    target: `review:${complaint.reviewId}`,
    details: { report: complaintId, contested: contested._id.toHexString(), was, note: record.note },
  });
  return { report: { ...complaint, status: STATUS[decision.action], decision: record }, review };
}

/** Gives back what the contested removal or redaction took; the kept texts then go. */
async function restoreTexts(
  services: ModerationDeps,
  contested: Report,
  was: ReportDecision['action'],
  complaintId: string,
  actor: AuditActor,
): Promise<Review | null> {
  const { moderation, reviews } = services;
  const contestedId = contested.decision?.viaReport ?? contested._id.toHexString();
  const texts = await moderation.withheldTexts(contestedId);
  if (!texts)
    throw new HttpError(409, 'The removed text is no longer kept (six months are over, or erased).', 'conflict');
  const restored =
    was === 'remove'
      ? await reviews.restore(texts.reviewId, texts, texts.photos ?? [])
      : await reviews.update(texts.reviewId, (before) => ({
          comment: texts.comment,
          reply: texts.reply,
          products: before.products.map((p, i) => ({ ...p, content: texts.products[i] ?? p.content })),
          ...(texts.photos?.length && before.photos ? { photos: givenBackPhotos(before.photos, texts.photos) } : {}),
        }));
  if (restored) await resumePhotos(services, restored, texts.photos ?? []);
  if (was === 'remove') {
    await moderation.forgetRemoval(texts.reviewId);
    if (restored && contested.decision?.ground)
      services.compliance.count(contested.shopId, {
        kind: 'removal_reversed',
        ground: contested.decision.ground,
        rating: restored.rating,
      });
  }
  await moderation.dropWithheld(contestedId);
  await services.audit.record({
    shopId: contested.shopId,
    actor,
    action: was === 'remove' ? 'review.restored' : 'review.unredacted',
    target: `review:${texts.reviewId}`,
    details: { report: complaintId, contested: contestedId },
  });
  return restored;
}

/**
 * Photos given back where they were: one withheld while the worker had not encoded it yet is encoded now (its
 * encoding was skipped while withheld), one held for the operator's look is on the operator's list again.
 */
async function resumePhotos(services: ModerationDeps, review: Review, given: readonly string[]): Promise<void> {
  const back = (review.photos ?? []).filter((p) => given.includes(p.id));
  const pending = back.filter((p) => p.state === 'pending').map((p) => p.id);
  for (const p of back) if (p.state === 'held') await services.photos.hold(p.id, review.id, review.shopId);
  if (pending.length) {
    await services.photos.addTasks('encode', pending);
    services.scheduler.trigger(JOB.photos);
  }
}

/**
 * The six months of a redaction are over: the photos it took are removed for good (the review's write queues their
 * files' deletion). Run before the kept texts are dropped; run again, it changes nothing.
 */
export async function removeExpiredPhotos(services: ModerationDeps, now: Date): Promise<number> {
  let removed = 0;
  for (const { reviewId, photos } of await services.moderation.expiredPhotos(now)) {
    // The review live (a redaction) or deleted (a removal) alike.
    const before = await services.reviews.get(reviewId);
    const due = (before?.photos ?? []).filter((p) => p.state === 'withheld' && photos.includes(p.id));
    if (due.length && (await services.reviews.removeWithheldPhotos(reviewId, photos))) removed += due.length;
  }
  return removed;
}

async function remove(
  services: ModerationDeps,
  review: Review,
  ground: Ground,
  report: Report,
  record: ReportDecision,
  decided: string = report._id.toHexString(),
): Promise<Review | null> {
  const { moderation } = services;
  // Its photos withheld, not deleted: a complaint may give them back (restoreTexts) for six months.
  const removed = await services.reviews.softDelete(review.id, ground, { withholdPhotos: true });
  await moderation.recordRemoval({ _id: review.id, shopId: review.shopId, ground, at: record.at });
  await moderation.closeOthers(review.id, report._id, record);
  // The address is blank once deleted: the notice keeps the one the review had.
  if (removed && mayTellWriter(review)) {
    await queueNotice(services, review, {
      key: decisionRemovalKey(decided),
      to: review.email,
      kind: 'removed',
      role: 'writer',
      ground,
      statement: record.statement,
      trigger: triggerOf(report),
      report: decided,
    });
  }
  return removed;
}

/**
 * An automatic signal (server/signals) enters the operator's queue like a report: `source: "signal"`, its name and
 * evidence. It changes nothing about the review.
 */
export async function raiseSignal(
  services: ModerationDeps,
  review: Review,
  name: SignalName,
  evidence: SignalEvidence,
): Promise<Report> {
  const report = await services.moderation.add({
    reviewId: review.id,
    shopId: review.shopId,
    ground: name === 'insider' ? 'conflict_of_interest' : 'not_experience',
    text: '',
    email: '',
    source: 'signal',
    signal: { name, ...evidence },
  });
  services.compliance.count(review.shopId, { kind: 'signal_raised', signal: name });
  await services.audit.record({
    shopId: review.shopId,
    actor: { kind: 'system' },
    action: 'signal.raised',
    target: `review:${review.id}`,
    details: { report: report._id.toHexString(), signal: name, review_ids: evidence.review_ids.join(',') },
  });
  return report;
}

/** A signal dismissed as a whole: nothing changes about the reviews it named. */
async function dismissSignal(
  services: ModerationDeps,
  report: Report,
  note: string,
  actor: AuditActor,
): Promise<DecisionResult> {
  if (report.source !== 'signal') {
    throw new HttpError(422, 'action: dismiss answers signals (source "signal") only', 'validation_failed');
  }
  const record: ReportDecision = {
    action: 'dismiss',
    ground: null,
    note,
    at: services.now(),
    by: actor.id ?? actor.kind,
  };
  if (!(await services.moderation.decide(report._id, 'dismissed', record))) {
    throw new HttpError(409, 'The report was decided already.', 'conflict');
  }
  countDecision(services, report, null, 'dismiss', null);
  await services.audit.record({
    shopId: report.shopId,
    actor,
    action: 'signal.dismissed',
    target: `review:${report.reviewId}`,
    details: { report: report._id.toHexString(), signal: report.signal?.name ?? '', note },
  });
  return {
    report: { ...report, status: 'dismissed', decision: record },
    review: await services.reviews.get(report.reviewId),
  };
}

/**
 * A complaint through the link of a decision's e-mail: one per decision and person, into the operator's queue with
 * `source: "appeal"`. False when this person complained about this decision already.
 */
export async function submitAppeal(services: ModerationDeps, token: AppealToken, text: string): Promise<Report | null> {
  const { moderation } = services;
  const contested = await moderation.get(token.report);
  if (!contested) return null;
  if (await moderation.hasAppealed(token.report, token.role)) return null;
  const complaint = await moderation.add({
    reviewId: token.reviewId,
    shopId: token.shopId,
    ground: contested.decision?.ground ?? contested.ground,
    text,
    email: token.email,
    source: 'appeal',
    appeal: { report: token.report, role: token.role, language: token.language },
  });
  if (!(await moderation.claimAppeal(token.report, token.role, complaint._id.toHexString()))) {
    // Two posts at once: the other one stands.
    await moderation.removeReport(complaint._id);
    return null;
  }
  services.compliance.count(token.shopId, { kind: 'complaint_received' });
  await services.audit.record({
    shopId: token.shopId,
    actor: { kind: 'user' },
    action: 'appeal.created',
    target: `review:${token.reviewId}`,
    details: { report: complaint._id.toHexString(), contested: token.report, role: token.role },
  });
  return complaint;
}
