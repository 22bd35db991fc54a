// Wake-ups pushed from API-only processes to the workers over HTTP: an API process that queued work tells the
// workers at once, instead of leaving a marker that they read on their next poll (scheduler.ts). A push carries the
// kinds of work and, for some kinds, the ids of what was queued (a review event's id), so that a worker can take
// those by `_id` instead of searching its queues: on FerretDB every other filter reads the whole collection.
//
// A push only says "look now": everything it names is already stored. Pushed ids are looked up in the database, so
// a forged push can at most make a worker send something that was due anyway; it still needs the shared secret,
// compared in constant time. When a push fails (worker down, timeout, wrong secret) the scheduler raises the
// kinds' markers instead, which every worker reads: nothing waits for more than a poll.
//
// Coalesced: one request in flight per worker; what is queued meanwhile goes in the next one, merged by kind. Kinds
// whose drain runs are spaced (the invitation sender) are pushed no more often than that: a push per invitation
// would cost the API process and the worker an HTTP request each, for a run that waits anyway.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { z } from 'zod';
import { safeEqualDigest, secretDigest } from '../http/credentials.js';
import type { Logger } from '../log.js';
import { realClock, type Clock } from './clock.js';
import { Episode } from './transient.js';

const WAKE_PATH = '/wake';
/** Ids carried per kind and push at most; past it the push says "some" and the worker searches as it would anyway. */
export const MAX_ITEMS = 1000;
/** A worker answers at once (it only starts drains): longer than this means it is not there. */
const PUSH_TIMEOUT_MS = 2000;
const MAX_BODY_BYTES = 256 * 1024;

/** One kind of work to run; `items` lists what was queued when the sender kept count, absent when it did not. */
export interface WakeUpCall {
  kind: string;
  items?: string[];
}

const wakeBody = z.object({
  wake: z
    .array(
      z.object({
        kind: z.string().min(1).max(100),
        items: z.array(z.string().min(1).max(200)).max(MAX_ITEMS).optional(),
      }),
    )
    .min(1)
    .max(100),
});

/** Kinds waiting to be pushed: the ids queued for each, or null once there were too many to list. */
type Pending = Map<string, Set<string> | null>;

/** Adds one queued item (or just the kind) to what waits for the next push. */
export function addPending(pending: Pending, kind: string, item: string | undefined): void {
  if (!pending.has(kind)) pending.set(kind, item === undefined ? null : new Set());
  const items = pending.get(kind);
  if (items === null || items === undefined) return;
  if (item === undefined || items.size >= MAX_ITEMS) pending.set(kind, null);
  else items.add(item);
}

/** The body of one push. */
export function wakeUpCalls(pending: Pending): WakeUpCall[] {
  return [...pending].map(([kind, items]) => (items ? { kind, items: [...items] } : { kind }));
}

/**
 * API-only side: pushes wake-ups to every worker, one request in flight per worker. A kind with a spacing (its
 * drain's `spacingMs`: the worker would not run it sooner anyway) is pushed at most that often; the others go at
 * once. `fallBack` is called with the kinds of a push that did not reach a worker (it raises their markers).
 */
export class WakePusher {
  private readonly targets: Target[];
  private flushing = false;

  constructor(
    urls: readonly string[],
    secret: string,
    private readonly log: Logger,
    private readonly fallBack: (kinds: string[]) => Promise<void>,
    private readonly spacingOf: (kind: string) => number = () => 0,
    private readonly clock: Clock = realClock,
  ) {
    this.authorization = `Bearer ${secret}`;
    this.targets = urls.map((url) => ({
      url: new URL(WAKE_PATH, url).toString(),
      pending: new Map(),
      lastSent: new Map(),
      flight: undefined,
      cancelTimer: undefined,
      episode: new Episode(log, `pushing wake-ups to ${url}`),
    }));
  }

  private readonly authorization: string;

  push(kind: string, item?: string): void {
    for (const target of this.targets) {
      addPending(target.pending, kind, item);
      this.schedule(target);
    }
  }

  /** Sends what is pending now, spacing or not, and resolves when every push was sent or handed to the fallback. */
  async flushed(): Promise<void> {
    this.flushing = true;
    for (const target of this.targets) {
      this.cancelTimer(target);
      this.schedule(target);
    }
    await Promise.allSettled(this.targets.map((t) => t.flight));
  }

  /** Resolves once no push is in flight (one that a finished push started included); what waits for its spacing stays. */
  async settled(): Promise<void> {
    while (this.targets.some((t) => t.flight)) await Promise.allSettled(this.targets.map((t) => t.flight));
  }

  private cancelTimer(target: Target): void {
    target.cancelTimer?.();
    target.cancelTimer = undefined;
  }

  /** When the kind may be pushed next. */
  private dueAt(target: Target, kind: string): number {
    return this.flushing ? 0 : (target.lastSent.get(kind) ?? 0) + this.spacingOf(kind);
  }

  /** Starts a push now if a pending kind is due, else sets a timer for the first one that will be. */
  private schedule(target: Target): void {
    if (target.flight || target.pending.size === 0) return;
    const next = Math.min(...[...target.pending.keys()].map((kind) => this.dueAt(target, kind)));
    const wait = next - this.clock.now();
    if (wait <= 0) {
      this.cancelTimer(target);
      target.flight = this.send(target).finally(() => {
        target.flight = undefined;
        this.schedule(target);
      });
    } else if (!target.cancelTimer) {
      target.cancelTimer = this.clock.after(wait, () => {
        target.cancelTimer = undefined;
        this.schedule(target);
      });
    }
  }

  private async send(target: Target): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      const due = new Map([...target.pending].filter(([kind]) => this.dueAt(target, kind) <= now));
      if (due.size === 0) return;
      for (const kind of due.keys()) target.pending.delete(kind);
      const calls = wakeUpCalls(due);
      try {
        const request = fetch(target.url, {
          method: 'POST',
          headers: { authorization: this.authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ wake: calls }),
          signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
        });
        // The spacing counts from when the push left (read after the request started, never before it), so no two
        // pushes of a kind leave closer together than its spacing, whatever the clock's millisecond rounding.
        const leftAt = this.clock.now();
        for (const kind of due.keys()) target.lastSent.set(kind, leftAt);
        const res = await request;
        // The answer has no body worth reading; reading it frees the connection for the next push.
        await res.arrayBuffer().catch(() => undefined);
        if (res.status !== 204) throw new Error(`the worker answered ${res.status}`);
        target.episode.recovered();
      } catch (err) {
        target.episode.failed(err);
        await this.fallBack(calls.map((c) => c.kind)).catch((e: unknown) =>
          this.log.warn({ err: e }, 'could not raise the wake-up markers either; the periodic runs will find the work'),
        );
      }
    }
  }
}

interface Target {
  url: string;
  pending: Pending;
  /** When each kind was last pushed (for its spacing). */
  lastSent: Map<string, number>;
  flight: Promise<void> | undefined;
  /** Set while a timer waits for the first pending kind's spacing. */
  cancelTimer: (() => void) | undefined;
  episode: Episode;
}

export interface WakeListener {
  port: number;
  close(): Promise<void>;
}

/** Worker side: answers pushes (204) and hands each valid one to `onWake`. */
export async function startWakeListener(options: {
  host: string;
  port: number;
  secret: string;
  log: Logger;
  onWake: (calls: WakeUpCall[]) => void;
}): Promise<WakeListener> {
  const expected = secretDigest(options.secret);
  const server: Server = createServer((req, res) => {
    const answer = (status: number, message?: string) => {
      if (message === undefined) return res.writeHead(status).end();
      const code = {
        400: 'bad_request',
        401: 'unauthorized',
        404: 'not_found',
        405: 'method_not_allowed',
        413: 'payload_too_large',
      }[status];
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code, message } }));
    };
    const path = (req.url ?? '').split('?')[0];
    if (path !== WAKE_PATH) return answer(404, 'Not found.');
    if (req.method !== 'POST') return answer(405, 'Use POST.');
    const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!safeEqualDigest(given, expected)) return answer(401, 'Wrong or missing worker secret.');
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
      res.setHeader('connection', 'close');
      return answer(413, `The body is larger than ${MAX_BODY_BYTES} bytes.`);
    }
    readBody(req, MAX_BODY_BYTES).then(
      (raw) => {
        if (raw === undefined) return answer(413, `The body is larger than ${MAX_BODY_BYTES} bytes.`);
        let json: unknown;
        try {
          json = JSON.parse(raw);
        } catch {
          return answer(400, 'The body is not JSON.');
        }
        const parsed = wakeBody.safeParse(json);
        if (!parsed.success)
          return answer(
            400,
            `Not a wake-up: ${parsed.error.issues[0]!.path.join('.') || 'body'}: ${parsed.error.issues[0]!.message}`,
          );
        answer(204);
        options.onWake(parsed.data.wake);
      },
      () => answer(400, 'The body could not be read.'),
    );
  });
  // Pushes come in bursts from a few API processes: their connections are kept for the next one.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host, ok);
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeIdleConnections();
      }),
  };
}

/** The body as text, or undefined when it is larger than `limit` bytes. */
async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
