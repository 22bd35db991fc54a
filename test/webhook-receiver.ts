// A real webhook receiver for tests and benchmarks: verifies X-Hash as a shop would (HMAC-SHA512 of the raw body
// with the subscription secret, constant-time compare, 401 on mismatch) and records every request, numbered in the
// order of what happened (requests received, answers ended), so that tests assert order without clocks.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  topic: string | undefined;
  eventId: string | undefined;
  hash: string | undefined;
  contentType: string | undefined;
  host: string | undefined;
  raw: string;
  /** Whether X-Hash matched; a request that did not is answered 401. */
  verified: boolean;
  /** Date.now() when the request was complete. */
  at: number;
  /** Its place in the order of events: requests complete and answers ended share one count. */
  seq: number;
  /** The place at which its answer ended or the sender gave up on it; unset while it is still open. */
  endSeq?: number;
}

/**
 * What the receiver answers a verified request with: a status, optionally after a delay, with headers; or `hang`:
 * no answer at all, until the sender gives up or the receiver is closed. `until`: the answer waits for it (a
 * receiver that stalls until the test says).
 */
type Responder = (
  req: Received,
  count: number,
) => number | { status: number; delayMs?: number; until?: Promise<void>; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** The secret per path (set it from the subscribe answer). */
  secrets: Map<string, string>;
  /** Answers per path; the default answers 200. */
  responders: Map<string, Responder>;
  at(path: string): Received[];
  waitFor(check: () => boolean, ms?: number): Promise<void>;
  close(): Promise<void>;
}

export function verify(raw: string | Buffer, hash: string | undefined, secret: string): boolean {
  const expected = createHmac('sha512', secret).update(raw).digest('hex');
  return (
    typeof hash === 'string' &&
    hash.length === expected.length &&
    timingSafeEqual(Buffer.from(hash), Buffer.from(expected))
  );
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const secrets = new Map<string, string>();
  const responders = new Map<string, Responder>();
  let seq = 0;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const path = (req.url ?? '/').split('?')[0]!;
    const hash = header(req, 'x-hash');
    const secret = secrets.get(path);
    const entry: Received = {
      path,
      topic: header(req, 'x-topic'),
      eventId: header(req, 'x-event-id'),
      hash,
      contentType: header(req, 'content-type'),
      host: header(req, 'host'),
      raw: raw.toString('utf8'),
      verified: secret !== undefined && verify(raw, hash, secret),
      at: Date.now(),
      seq: ++seq,
    };
    received.push(entry);
    res.on('close', () => (entry.endSeq = ++seq));
    if (!entry.verified) {
      res.writeHead(401).end('bad signature');
      return;
    }
    const count = received.filter((r) => r.path === path && r.verified).length;
    const answer = responders.get(path)?.(entry, count) ?? 200;
    if (answer === 'hang') return;
    const { status, delayMs = 0, until, headers = {} } = typeof answer === 'number' ? { status: answer } : answer;
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    await until;
    res.writeHead(status, headers).end('ok');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    secrets,
    responders,
    at: (path) => received.filter((r) => r.path === path),
    // As long as a busy machine may need: it is never a bound on how soon.
    waitFor: async (check, ms = 60_000) => {
      const end = Date.now() + ms;
      while (!check()) {
        if (Date.now() > end) throw new Error('timed out waiting for webhook deliveries');
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    // Ends every connection, those of requests left hanging included.
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
