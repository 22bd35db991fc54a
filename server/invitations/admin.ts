// Operator API: GET /admin/api/webshops/:id/invitations?email=…&order=… — a shop's invitations to an address and/or
// for an order, each with its history: queued, how its e-mail ended, and its reminder (due, sent, skipped and why,
// failed). The answer to "did this customer get our e-mails?" without reading the database.
import type Router from '@koa/router';
import { z } from 'zod';
import type { ObjectId } from 'mongodb';
import { requireAdmin } from '../admin/auth.js';
import { idParam, validate } from '../http/validate.js';
import type { InvitationStore } from './store.js';
import { isValidEmail, normalizeEmail } from '../email.js';
import type { InvitationOutcome } from './queue.js';
import type { DueReminder, ReminderOutcome } from './reminder-queue.js';
import type { historyEvent } from './openapi.js';
import { requireWebshop, type ShopFinder } from '../webshops/service.js';

export const historyQuery = z
  .object({
    email: z.string().transform(normalizeEmail).refine(isValidEmail, 'must be a valid e-mail address').optional(),
    order: z.string().trim().min(1).max(200).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  })
  .refine((q) => q.email !== undefined || q.order !== undefined, 'give an email, an order, or both');

type HistoryEvent = z.infer<typeof historyEvent>;

/** An invitation's history, oldest first, from its records (pure: the records are read by the route). */
export function historyOf(
  created: Date,
  outcome: InvitationOutcome | undefined,
  reminder: { due: DueReminder | null; outcome: ReminderOutcome | undefined },
): HistoryEvent[] {
  const events: HistoryEvent[] = [{ event: 'queued', at: created.toISOString() }];
  const detail = (o: { messageId: string | null; reason: string | null }) => ({
    ...(o.messageId ? { message_id: o.messageId } : {}),
    ...(o.reason ? { reason: o.reason } : {}),
  });
  if (outcome) {
    const event = outcome.status === 'sent' ? 'sent' : outcome.status === 'failed' ? 'failed' : 'not_sent';
    events.push({ event, at: outcome.at.toISOString(), ...detail(outcome) });
  }
  if (reminder.outcome) {
    const o = reminder.outcome;
    const event =
      o.status === 'sent' ? 'reminder_sent' : o.status === 'skipped' ? 'reminder_skipped' : 'reminder_failed';
    events.push({ event, at: o.at.toISOString(), ...detail(o) });
  } else if (reminder.due) {
    events.push({
      event: 'reminder_due',
      at: reminder.due.due.toISOString(),
      ...(reminder.due.lastError ? { reason: reminder.due.lastError } : {}),
    });
  }
  return events;
}

/**
 * What the operator's invitation history uses: the operator token, the invitation store (its own feature's) and
 * whether the shop exists (any shop look-up: app.ts passes the webshop store).
 */
export interface InvitationAdminDeps extends ShopFinder<object> {
  config: { adminToken: string | undefined };
  invitations: Pick<InvitationStore, 'search' | 'queue' | 'reminders'>;
}

export function registerInvitationAdminRoutes(router: Router, deps: InvitationAdminDeps): void {
  const admin = requireAdmin(deps.config.adminToken);
  const { invitations } = deps;

  router.get('/admin/api/webshops/:id/invitations', admin, async (ctx) => {
    const shopId = idParam(ctx.params.id, 'webshop');
    const q = validate(historyQuery, { email: ctx.query.email, order: ctx.query.order, limit: ctx.query.limit });
    await requireWebshop(deps, shopId);
    const found = await invitations.search(shopId, q, q.limit);
    const ids: ObjectId[] = found.map((i) => i._id);
    const [outcomes, reminderOutcomes, due] = await Promise.all([
      invitations.queue.outcomesOf(ids),
      invitations.reminders.outcomesOf(ids),
      Promise.all(ids.map((id) => invitations.reminders.entryOf(id))),
    ]);
    ctx.body = {
      invitations: found.map((i, n) => {
        const key = i._id.toHexString();
        return {
          id: key,
          email: i.email,
          order: i.order,
          language: i.language,
          created: i.created.toISOString(),
          scheduled: i.scheduled.toISOString(),
          history: historyOf(i.created, outcomes.get(key), { due: due[n] ?? null, outcome: reminderOutcomes.get(key) }),
        };
      }),
    };
  });
}
