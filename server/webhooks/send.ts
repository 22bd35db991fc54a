// One HTTP POST of a webhook delivery. The target is checked and resolved once (ssrf.ts) and the connection goes
// to exactly that address: a second DNS answer (rebinding) never gets a say. TLS still verifies the host name.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolveTarget, RefusedTarget, type Resolver, type Target } from './ssrf.js';

/** For a caller that gives no timeout; deliveries give WEBHOOK_TIMEOUT_MS (the same by default). */
export const TIMEOUT_MS = 10_000;
/** Receivers answer with a few bytes; we read no more than this of the answer, and keep less in the log. */
const MAX_RESPONSE_BYTES = 4096;

export interface SendResult {
  /** The HTTP status, or null when there was none (refused target, DNS, network, timeout). */
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  allowedHosts: readonly string[];
  timeoutMs?: number;
  resolve?: Resolver;
}

// Keep-alive pools: a reused connection goes to an address that was checked when it was opened.
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 16 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 16 }),
};

/** A lookup that answers with the checked address, whatever Node asks (`all` or not). */
export function pinnedLookup(target: Target): LookupFunction {
  return (_host, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/** Sends the POST; never throws: every failure is a result with `error` set. */
export async function postWebhook(options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs ?? TIMEOUT_MS);
  try {
    const url = new URL(options.url);
    const target = await resolveTarget(url, options.allowedHosts, options.resolve);
    if (deadline.signal.aborted) throw new Error('timed out');
    const status = await request(url, target, options, deadline.signal);
    return { status, error: null, durationMs: elapsed() };
  } catch (err) {
    const error = deadline.signal.aborted
      ? `timed out after ${(options.timeoutMs ?? TIMEOUT_MS) / 1000} s`
      : describeError(err);
    return { status: null, error, durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}

function describeError(err: unknown): string {
  if (err instanceof RefusedTarget) return `refused: ${err.message}`;
  const e = err as { code?: string; message?: string };
  if (e.code === 'ENOTFOUND') return 'host not found';
  return [e.code, e.message].filter(Boolean).join(': ').slice(0, 300) || 'request failed';
}

function request(url: URL, target: Target, options: SendOptions, signal: AbortSignal): Promise<number> {
  const protocol = url.protocol as 'http:' | 'https:';
  return new Promise((resolve, reject) => {
    const req = (protocol === 'https:' ? https : http).request(
      {
        protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
        headers: { ...options.headers, 'Content-Length': String(Buffer.byteLength(options.body)) },
        agent: agents[protocol],
        lookup: pinnedLookup(target),
        signal,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // Enough: the status is what counts, and a receiver must not make us buffer its answer.
          if (read > MAX_RESPONSE_BYTES) {
            resolve(status);
            res.destroy();
          }
        });
        res.on('end', () => resolve(status));
        res.on('error', reject);
        res.on('aborted', () => reject(new Error('response aborted')));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
