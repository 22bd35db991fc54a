// The `mail.outbox` drain: takes the outbox's e-mails that are due (outbox-mail.ts), has each composed by its kind
// (a sign-in link is made then), sends it with its Message-ID, and finishes it, retries it on the mail schedule
// (MAIL_RETRY_SCHEDULE) or gives it up. Runs in worker processes (Agenda and the scheduler's wake-ups start it).
import { randomUUID } from 'node:crypto';
import { JOB } from '../jobs/names.js';
import type { WorkItem, WorkQueue } from '../queue/work-queue.js';
import type { Services } from '../services.js';
import type { OutboxIntent, OutboxKind, OutboxKinds } from './outbox-mail.js';
import { outboxMessageId } from './outbox-mail.js';
import { afterFailure, classifySendError, describeSendError, isServerFailure, mailSweepMs } from './retry.js';

type DrainServices<M extends OutboxIntent> = Pick<Services, 'mailer' | 'config' | 'log' | 'now' | 'scheduler'> & {
  outbox: WorkQueue<M>;
};

const PAGE = 100;
const DAY_MS = 86_400_000;

export function defineOutbox<M extends OutboxIntent>(services: DrainServices<M>, kinds: OutboxKinds<M>): void {
  services.scheduler.define(JOB.outbox, (signal) => drainOutbox(services, kinds, signal), mailSweepMs(services.config));
}

async function drainOutbox<M extends OutboxIntent>(
  services: DrainServices<M>,
  kinds: OutboxKinds<M>,
  signal: { touch: () => Promise<void> },
): Promise<void> {
  const { outbox, config } = services;
  const lease = config.scheduler.lockLifetimeMs;
  const holder = randomUUID();
  let tried = false;
  try {
    for (;;) {
      const items = await outbox.take(holder, PAGE, lease);
      if (items.length === 0) break;
      await signal.touch();
      let touched = services.now().getTime();
      for (const item of items) {
        // A long page (a slow server) keeps the job's lock and the items' claims.
        if (services.now().getTime() - touched > lease / 2) {
          await signal.touch();
          await outbox.renew(holder, lease);
          touched = services.now().getTime();
        }
        tried = true;
        const failure = await sendOne(services, kinds, holder, item);
        if (failure !== undefined && isServerFailure(failure)) {
          services.log.warn({ err: failure }, 'mail server failing; outbox e-mails will be retried');
          return;
        }
      }
      if (items.length < PAGE) break;
    }
  } finally {
    // What a stopped run did not get to stays due, for the next.
    await outbox.release(holder);
  }
  // Claims are released as items finish; a run that died left its own, and take-overs leave markers.
  if (tried) await outbox.prune(new Date(services.now().getTime() - DAY_MS));
}

/** Sends one e-mail and records what came of it; returns the error of a failed attempt that is retried. */
async function sendOne<M extends OutboxIntent>(
  services: DrainServices<M>,
  kinds: OutboxKinds<M>,
  holder: string,
  item: WorkItem<M>,
): Promise<unknown> {
  const { outbox, log } = services;
  const kind = kinds[item.payload.kind as M['kind']] as unknown as OutboxKind<M>;
  let composed: Awaited<ReturnType<typeof kind.compose>>;
  try {
    composed = await kind.compose(item.payload);
  } catch (err) {
    // A database hiccup, or an e-mail that cannot be composed: retried and in the end given up like a failed send,
    // so that one such e-mail never holds up the others behind it.
    await failed(services, kind, holder, item, err, 'transient');
    return undefined;
  }
  if ('drop' in composed) {
    log.info({ mail: item._id, reason: composed.drop }, 'outbox e-mail dropped');
    await outbox.giveUp(holder, item._id);
    return undefined;
  }
  try {
    await services.mailer.send({ ...composed, messageId: outboxMessageId(item._id, services.mailer.domain) });
  } catch (err) {
    return (await failed(services, kind, holder, item, err, classifySendError(err))) ? err : undefined;
  }
  // Right after the server's acceptance: the only moment in which a crash can cause a second copy.
  await outbox.finish(holder, item._id);
  await kind.sent?.(item.payload);
  return undefined;
}

/** Records a failed attempt: retried on the mail schedule (true), or given up (false). */
async function failed<M extends OutboxIntent>(
  services: DrainServices<M>,
  kind: OutboxKind<M>,
  holder: string,
  item: WorkItem<M>,
  err: unknown,
  failure: ReturnType<typeof classifySendError>,
): Promise<boolean> {
  const error = describeSendError(err);
  const next = afterFailure(item.attempts + 1, failure, services.config.mail.retryScheduleMs, services.now());
  if ('retryAt' in next) {
    await services.outbox.retryLater(holder, item._id, next.retryAt, error);
    return true;
  }
  services.log.warn({ mail: item._id, reason: next.giveUp, error }, 'outbox e-mail given up');
  await kind.gaveUp?.(item.payload, `${next.giveUp}: ${error}`);
  await services.outbox.giveUp(holder, item._id);
  return false;
}
