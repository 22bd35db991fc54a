// The operator's side of moderation:
// - GET /admin/api/reports?status=open&limit&after: the queue, oldest first, paged by the last id.
// - POST /admin/api/reports/{id}/decision {action: keep|remove|redact, ground, note, statement[, passage,
//   replacement]}; a complaint (source "appeal") {action: uphold|reverse, note[, ground, statement]}.
// - DELETE /admin/api/reviews/{id} [{ground, statement, note}]: the operator's own removal, always a decision.
import type Router from '@koa/router';
import { requireAdmin } from '../admin/auth.js';
import { readFields } from '../http/body.js';
import { idParam, validate } from '../http/validate.js';
import type { Services } from '../services.js';
import { decisionSchema, listQuerySchema, operatorRemovalSchema } from './schema.js';
import { decideReport, deleteReviewByOperator } from './service.js';
import type { Report } from './store.js';
import type { reportSchema } from './openapi.js';
import type { z } from 'zod';
import { photoPath } from '../reviews/photos.js';
import type { ModerationDeps } from './service.js';

const JSON_LIMIT = 64 * 1024;

/** What the operator API shows of a report: everything, ids as strings, dates as ISO 8601. */
function reportView(r: Report, baseUrl: string): z.infer<typeof reportSchema> {
  return {
    id: r._id.toHexString(),
    review_id: r.reviewId,
    webshop_id: r.shopId,
    ground: r.ground,
    text: r.text,
    email: r.email || null,
    created: r.created.toISOString(),
    status: r.status,
    decision: r.decision && { ...r.decision, at: r.decision.at.toISOString() },
    source: r.source ?? 'report',
    // A complaint: the decision it contests (a report id) and whose it is.
    ...(r.appeal ? { appeal: { report: r.appeal.report, role: r.appeal.role } } : {}),
    // A signal: its name and evidence (review ids and figures, never hashes).
    ...(r.signal ? { signal: r.signal } : {}),
    // Issue 20: the one photo reported (redact it with `photo`), with its address.
    ...(r.photo ? { photo: { id: r.photo, url: `${baseUrl}${photoPath(r.photo)}` } } : {}),
  };
}

export function registerModerationAdminRoutes(
  router: Router,
  services: ModerationDeps & Pick<Services, 'config'>,
): void {
  const { moderation, config } = services;
  const admin = requireAdmin(config.adminToken);

  router.get('/admin/api/reports', admin, async (ctx) => {
    const q = validate(listQuerySchema, ctx.query, 400);
    const reports = await moderation.list(q);
    const last = reports.length === q.limit ? reports[reports.length - 1] : undefined;
    ctx.body = {
      reports: reports.map((r) => reportView(r, config.baseUrl)),
      next_after: last ? last._id.toHexString() : null,
    };
  });

  router.post('/admin/api/reports/:id/decision', admin, async (ctx) => {
    const decision = validate(decisionSchema, await readFields(ctx, JSON_LIMIT));
    const { report, review } = await decideReport(services, ctx.params.id ?? '', decision, { kind: 'operator' });
    ctx.body = {
      report: reportView(report, config.baseUrl),
      review: review && { id: review.id, deleted: review.deleted, version: review.version },
    };
  });

  // The operator's removal of a review (declared here, not in reviews/: with a statement it is a moderation decision,
  // and reviews/ must not depend on moderation/).
  router.delete('/admin/api/reviews/:id', admin, async (ctx) => {
    const id = idParam(ctx.params.id, 'review');
    // Issue 21: a removal is a decision like the report queue's (the writer is told, with a complaint link). The body
    // is optional so that the spec's DELETE keeps working (deleteReviewByOperator says what it then does).
    const fields = await readFields(ctx, 64 * 1024);
    const given = Object.keys(fields).length > 0 ? validate(operatorRemovalSchema, fields) : null;
    await deleteReviewByOperator(services, id, given);
    ctx.status = 204;
  });
}
