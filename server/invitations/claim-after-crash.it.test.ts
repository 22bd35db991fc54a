// A run that died after its e-mails went out (their outcomes recorded) but before it took their entries off the queue:
// a later run must find them done, however long after the dead run's claims ran out it comes (a restart under load
// can take longer than a lease), and not send them again.
import { expect, it } from 'vitest';
import { ObjectId } from 'mongodb';
import { InvitationQueue } from './queue.js';
import { scratchDatabase } from '../../test/scratch-db.js';

const { db } = await scratchDatabase('claim_after_crash');

const LEASE_MS = 4000;
let clock = new Date('2026-11-26T10:00:00Z');

for (const [what, after] of [
  ['just after its claims ran out', LEASE_MS + 500],
  ['long after its claims ran out (a slow restart)', 3 * LEASE_MS],
] as const) {
  it(`does not send again what a dead run sent, ${what}`, async () => {
    const queue = new InvitationQueue(db, () => clock);
    const sent = new ObjectId();
    const unsent = new ObjectId();
    await queue.enqueue(sent, clock);
    await queue.enqueue(unsent, clock);
    // The dead run: claimed both, sent one (outcome recorded), died before its clean-up.
    expect((await queue.claimDue('dead-run', 10, LEASE_MS, new Set())).length).toBeGreaterThanOrEqual(2);
    await queue.finish({
      _id: sent,
      status: 'sent',
      at: clock,
      messageId: `<invitation.${sent.toHexString()}@example>`,
      reason: null,
    });

    clock = new Date(clock.getTime() + after);
    const taken = await queue.claimDue('next-run', 10, LEASE_MS, new Set());
    const ids = taken.map((e) => e._id.toHexString());
    expect(ids).toContain(unsent.toHexString());
    expect(ids).not.toContain(sent.toHexString());
    await queue.release('next-run');
    await queue.dequeue(taken.map((e) => e._id));
    clock = new Date(clock.getTime() + 60_000);
  });
}
