// Optimistic concurrency for documents that carry a `version`: read, decide, and write only where the version read
// is still the one stored; when another write landed in between, read again and decide again. Without transactions
// this is how a write never undoes one it did not see. The attempts are capped: a document changed faster than a
// write can read it ends in ConcurrentChangeError, not in a retry without end.
import type { Collection, Filter, UpdateFilter } from 'mongodb';

/** What `decide` makes of the version it read: a write over that version, or an answer without writing. */
export type VersionedStep<D, R> =
  | {
      /** Where the document is (its key); the version read is added to it. */
      where: Filter<D>;
      /** The fields to set, the next `version` among them. */
      set: Partial<D>;
      /** Once the write landed: what follows it, and the answer. */
      landed: () => Promise<R>;
      /** When another write came first, before reading again: undo what this attempt prepared. */
      missed?: () => Promise<void>;
    }
  | { answer: R };

/**
 * Other writes kept landing while this one read and decided. It carries an HTTP status the way Koa's own errors do,
 * so the error middleware (http/middleware.ts) answers 409 `conflict` in the endpoint's envelope, not a 500.
 */
export class ConcurrentChangeError extends Error {
  readonly status = 409;
  readonly expose = true;
}

const MAX_ATTEMPTS = 5;

/** Reads with `read` (null: no document, answered null), decides, writes over the version read, until one lands. */
export async function versionedUpdate<D extends { version: number }, R>(
  collection: Collection<D>,
  read: () => Promise<D | null>,
  decide: (current: D) => Promise<VersionedStep<D, R>>,
  { what, maxAttempts = MAX_ATTEMPTS }: { what: string; maxAttempts?: number },
): Promise<R | null> {
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const current = await read();
    if (!current) return null;
    const step = await decide(current);
    if ('answer' in step) return step.answer;
    const result = await collection.updateOne(
      { ...step.where, version: current.version } as Filter<D>,
      { $set: step.set } as UpdateFilter<D>,
    );
    if (result.matchedCount === 1) return step.landed();
    await step.missed?.();
  }
  throw new ConcurrentChangeError(`${what} is being changed by other requests at the same time; try again.`);
}
