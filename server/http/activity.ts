// The API's writes in flight in this process, for background work that shares the database's one writer. On the
// embedded database (FerretDB on SQLite) a write that finds another one running sleeps and retries, so a request's
// write that arrives while a bulk import writes keeps waiting as long as the import writes back to back. In ROLE=all
// the import runs in the process that answers the API: before each of its writes it lets the requests in flight at
// that moment end first (up to a cap). Requests that arrive later wait for that one write only, so a steady stream of
// requests never stops the import. Another process's requests are not seen here.
import type { Middleware } from 'koa';

/** Methods whose requests may write; the others only read. */
const WRITING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export class WriteActivity {
  private readonly inFlight = new Set<Promise<void>>();

  /** Whether a request that may write is in flight. */
  get busy(): boolean {
    return this.inFlight.size > 0;
  }

  /** A request that may write has begun; the function returned marks its end. */
  begin(): () => void {
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    this.inFlight.add(ended);
    return () => {
      this.inFlight.delete(ended);
      end();
    };
  }

  /** Resolves once the requests in flight now have ended (at once if none is), or after `maxWaitMs`. */
  async yieldTo(maxWaitMs: number): Promise<void> {
    if (!this.inFlight.size) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.inFlight]),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, maxWaitMs))),
    ]);
    clearTimeout(timer);
  }
}

/** Counts the requests that may write (by their method) from their start to their answer. */
export function countWrites(activity: WriteActivity): Middleware {
  return async (ctx, next) => {
    if (!WRITING.has(ctx.method)) return next();
    const end = activity.begin();
    try {
      await next();
    } finally {
      end();
    }
  };
}
