// Fetching one photo named by an imported file (issue 19): a GET of a URL that someone else wrote, from inside the
// operator's network. It goes through the webhooks' address rules (webhooks/ssrf.ts): every address the host resolves
// to is checked, the connection goes to the address checked (no second DNS answer), every redirect is checked the same
// way, and loopback, private, link-local and metadata addresses are refused unless the host is in
// IMPORT_PHOTO_ALLOWED_HOSTS. The answer is read up to the photo size limit and no further, within one deadline.
// Nothing here decides what the bytes are: the photo pipeline sniffs and re-encodes them (photos/).
import http from 'node:http';
import https from 'node:https';
import { PHOTO_LIMITS } from '../photos/detect.js';
import { pinnedLookup } from '../webhooks/send.js';
import { RefusedTarget, resolveTarget, type Resolver, type Target } from '../webhooks/ssrf.js';

/** One fetch, redirects included: a photo host that takes longer is given up on (and tried again later). */
const TIMEOUT_MS = 20_000;
/** Image CDNs redirect once or twice (http → https, a signed URL); more is a loop. */
const MAX_REDIRECTS = 3;

export interface PhotoFetchOptions {
  allowedHosts: readonly string[];
  /** The User-Agent: the service's name, so a photo host can tell who asks. */
  userAgent: string;
  timeoutMs?: number;
  maxBytes?: number;
  resolve?: Resolver;
}

export type PhotoFetch =
  | { ok: true; bytes: Buffer }
  /** `transient`: worth another try later (a timeout, a 5xx, a dropped connection); otherwise final. */
  | { ok: false; reason: string; transient: boolean };

const fail = (reason: string, transient = false): PhotoFetch => ({ ok: false, reason, transient });

type Hop = { redirect: string } | PhotoFetch;

/** GETs the photo; never throws: every failure is an outcome with its reason. */
export async function fetchPhoto(url: string, options: PhotoFetchOptions): Promise<PhotoFetch> {
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      let parsed: URL;
      try {
        parsed = new URL(current);
      } catch {
        return fail('not a URL');
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return fail('not an http(s) URL');
      const target = await resolveTarget(parsed, options.allowedHosts, options.resolve, { plainHttp: true });
      if (deadline.signal.aborted) throw new Error('timed out');
      const outcome = await get(parsed, target, options, deadline.signal);
      if (!('redirect' in outcome)) return outcome;
      current = outcome.redirect;
    }
    return fail(`more than ${MAX_REDIRECTS} redirects`);
  } catch (err) {
    if (deadline.signal.aborted) return fail(`timed out after ${timeoutMs / 1000} s`, true);
    if (err instanceof RefusedTarget) return fail(`refused: ${err.message.replace('webhooks may', 'we may')}`);
    const e = err as { code?: string; message?: string };
    if (e.code === 'ENOTFOUND') return fail('host not found');
    return fail([e.code, e.message].filter(Boolean).join(': ').slice(0, 300) || 'request failed', true);
  } finally {
    clearTimeout(timer);
  }
}

function get(url: URL, target: Target, options: PhotoFetchOptions, signal: AbortSignal): Promise<Hop> {
  const maxBytes = options.maxBytes ?? PHOTO_LIMITS.bytes;
  const protocol = url.protocol as 'http:' | 'https:';
  return new Promise((resolve, reject) => {
    const req = (protocol === 'https:' ? https : http).request(
      {
        protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: {
          accept: 'image/avif,image/webp,image/png,image/jpeg;q=0.9,*/*;q=0.1',
          'user-agent': options.userAgent,
        },
        // No pooled connection: each one goes to the address checked for this very request.
        agent: false,
        lookup: pinnedLookup(target),
        signal,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // Settled first: destroying the answer makes it report itself aborted.
        const done = (hop: Hop) => {
          resolve(hop);
          res.destroy();
        };
        if (status >= 300 && status < 400 && res.headers.location) {
          // Checked like the first URL on the next hop: a redirect to a private address is refused there.
          let next: string;
          try {
            next = new URL(res.headers.location, url).href;
          } catch {
            return done(fail(`HTTP ${status} to an unreadable location`));
          }
          return done({ redirect: next });
        }
        if (status < 200 || status >= 300) {
          return done(fail(`HTTP ${status}`, status >= 500 || status === 429 || status === 408));
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) return done(fail(tooLarge(maxBytes)));
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          // Read no further than the limit: a host must not make us hold more.
          if (size > maxBytes) return done(fail(tooLarge(maxBytes)));
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ ok: true, bytes: Buffer.concat(chunks) }));
        res.on('error', reject);
        res.on('aborted', () => reject(new Error('response aborted')));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const tooLarge = (maxBytes: number) => `larger than ${maxBytes / 1024 / 1024} MB`;
