// The only module that reads process.env. Everything is validated once at start-up and passed down;
// a bad value stops start-up with a message that names the variable.
import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './retry-schedule.js';
import type { SignalName } from './signal-names.js';

const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** The default of WEBHOOK_MAX_PER_SHOP. */
export const DEFAULT_WEBHOOKS_PER_SHOP = 100;

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(0, 65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
    .optional(),
  MONGODB_DB: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,60}$/)
    .default('reviews'),
  DATA_DIR: z.string().min(1).default('./data'),
  ADMIN_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
  BRAND: z
    .string()
    .regex(/^[a-z][a-z0-9]{0,30}$/, 'lowercase letters and digits, starting with a letter')
    .default('service'),
  BRAND_NAME: z.string().min(1).max(60).default('Service'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool.default(false),
  /** How many proxies of ours append to X-Forwarded-For: the client is that many entries from the right. */
  TRUST_PROXY_HOPS: int(1, 20).optional(),
  TLS_CERT_FILE: z.string().optional(),
  TLS_KEY_FILE: z.string().optional(),
  /** Requests per minute per client address on /api and public endpoints; 0 turns the limit off. */
  RATE_LIMIT_PER_IP: int(0, 10_000_000).default(6000),
  /** Requests per minute per webshop on /api; 0 turns the limit off. */
  RATE_LIMIT_PER_SHOP: int(0, 10_000_000).default(12000),
  /** How long a cached read may be served after another process changed the data (ms). */
  CACHE_TTL_MS: int(0, 3_600_000).default(5000),
  /** Deprecated (caches are bounded by CACHE_MEMORY_MB alone): accepted, ignored, with a warning. */
  CACHE_MAX_ENTRIES: int(10, 10_000_000).optional(),
  /** Deprecated name of CACHE_MEMORY_MB (it bounded each cache; now the total): used as the total, with a warning. */
  CACHE_MAX_MB: int(1, 100_000).optional(),
  /** The memory budget (MB, estimated) of all in-process caches together (server/cache.ts). */
  CACHE_MEMORY_MB: int(1, 100_000).optional(),
  /** Do not create the demo webshop on first start (development only does it anyway). */
  DEMO_SHOP: bool.default(true),
  /** `all` serves the API and runs scheduled work; `api` and `worker` split them across processes. */
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  /** How often a worker reads the wake-ups of API-only processes (a few small documents); Agenda polls at most every second. */
  SCHEDULER_POLL_MS: int(50, 60_000).default(200),
  JOB_LOCK_MS: int(1000, 600_000).default(30_000),
  /** ROLE=worker: the port of its wake-up listener, to which API-only processes push their wake-ups; unset: none. */
  WORKER_PORT: int(1, 65535).optional(),
  /** The wake-up listener's address: loopback unless the API processes run on other machines. */
  WORKER_HOST: z.string().min(1).default('127.0.0.1'),
  /** ROLE=api: the workers' wake-up listeners, comma-separated `http://host:port` (one per worker process). */
  WORKER_WAKE_URL: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^https?$/, error: 'must be http:// or https:// URLs, comma-separated' })).min(1))
    .optional(),
  /** The shared secret of API processes and workers for wake-ups (at least 24 characters). */
  WORKER_SECRET: z.string().min(24, 'must be at least 24 characters').optional(),
  /** `smtp://user:pass@host:587` or `smtps://…`; unset (development only): e-mails go to DATA_DIR/outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/\S+$/, 'must start with smtp:// or smtps://')
    .optional(),
  /** `Name <address>` or an address; no line breaks (it becomes a header). */
  MAIL_FROM: z
    .string()
    .regex(
      /^(?:[^<>\r\n]*<[^\s<>@]+@[A-Za-z0-9.-]+>|[^\s<>@]+@[A-Za-z0-9.-]+)$/,
      'must be an address or Name <address>',
    )
    .optional(),
  DKIM_DOMAIN: z
    .string()
    .regex(/^[A-Za-z0-9.-]{1,253}$/, 'must be a domain name')
    .optional(),
  DKIM_SELECTOR: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,63}$/, 'must be a DNS label')
    .optional(),
  DKIM_PRIVATE_KEY_FILE: z.string().optional(),
  /** Waits before the 2nd, 3rd, … attempt after a transient SMTP failure, e.g. `1m,5m,1h`; then give up. */
  MAIL_RETRY_SCHEDULE: z
    .string()
    .refine((v) => parseRetrySchedule(v) !== undefined, 'must be a list like 1m,5m,1h (units s, m, h, d)')
    .default(DEFAULT_RETRY_SCHEDULE),
  /** Pooled SMTP connections per worker process. */
  MAIL_CONNECTIONS: int(1, 50).default(5),
  /** Hosts (names or IPs, comma-separated) that webhooks may reach over plain http and at private addresses. */
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((h) =>
          h
            .trim()
            .toLowerCase()
            .replace(/^\[(.*)\]$/, '$1'),
        )
        .filter(Boolean),
    ),
  /** Seconds between webhook retries, comma-separated; after the last one a delivery is failed. */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\s*\d{1,7}\s*(,\s*\d{1,7}\s*){0,49}$/, 'comma-separated whole seconds, e.g. 60,300,1800')
    .default('60,300,1800,7200,21600,43200,86400')
    .transform((v) => v.split(',').map((s) => Number(s.trim()))),
  /** Consecutive failed events after which a subscription is switched off; 0 never switches off. */
  WEBHOOK_DISABLE_AFTER: int(0, 100_000).default(10),
  /**
   * Subscriptions a shop may have. A shop whose receivers all hang holds up its own next events for this many
   * timeouts ÷ its 2 lanes per event (100 × 10 s ÷ 2 = 500 s by default); other shops are not held up.
   */
  WEBHOOK_MAX_PER_SHOP: int(1, 1000).default(DEFAULT_WEBHOOKS_PER_SHOP),
  /** How long a webhook request may take, connecting included (ms). */
  WEBHOOK_TIMEOUT_MS: int(100, 60_000).default(10_000),
  /** Unsigned consent receipts without a review kept per shop; past it the oldest are dropped. */
  UNSIGNED_CONSENTS_PER_SHOP: int(10, 10_000_000).default(10_000),
  /** Bulk review imports from the dashboard wait for the operator's approval (`operator`) or not (`none`). */
  IMPORT_APPROVAL: z.enum(['operator', 'none']).default('operator'),
  /**
   * Hosts (names or IPs, comma-separated) that photo URLs of imported files may be fetched from at private or
   * loopback addresses (tests, a shop's own media server on the LAN). Empty: the webhooks' address rules, no exception.
   */
  IMPORT_PHOTO_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((h) =>
          h
            .trim()
            .toLowerCase()
            .replace(/^\[(.*)\]$/, '$1'),
        )
        .filter(Boolean),
    ),
  /** `operator`: a review's photos wait for the operator's look before they are shown; `none`: shown once encoded. */
  PHOTO_REVIEW: z.enum(['operator', 'none']).default('none'),
  /** The HMAC key of "Helpful" votes (one per address and review); unset: derived from ADMIN_TOKEN. */
  HELPFUL_VOTE_KEY: z.string().min(24, 'must be at least 24 characters').optional(),
  /** The fake-review signals that are on (issue 21): a comma-separated list, or `none`. */
  SIGNALS: z
    .string()
    .regex(
      /^(none|(insider|burst|duplicate_text|shared_network)(,(insider|burst|duplicate_text|shared_network))*)$/,
      'a comma-separated list of insider, burst, duplicate_text, shared_network, or none',
    )
    .default('insider,burst,duplicate_text,shared_network'),
  /** The HMAC key of the networks `shared_network` compares (≥ 32 bytes); required in production. */
  SIGNAL_KEY: z
    .string()
    .refine((v) => Buffer.byteLength(v, 'utf8') >= 32, 'must be at least 32 bytes')
    .optional(),
  /** `1`: incentivised reviews count in every score like any review (the spec's figures); `0`: they are left out. */
  INCENTIVISED_IN_SCORE: z.enum(['0', '1']).default('1'),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  production: boolean;
  port: number;
  host: string;
  baseUrl: string;
  mongodbUri: string | undefined;
  mongodbDb: string;
  dataDir: string;
  adminToken: string | undefined;
  brand: string;
  brandName: string;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  trustProxy: boolean;
  /** With trustProxy: the client address is the X-Forwarded-For entry this many from the right. */
  trustProxyHops: number;
  tls: { certFile: string; keyFile: string } | undefined;
  rateLimit: { perIpPerMinute: number; perShopPerMinute: number };
  /** One budget for every in-process cache (server/cache.ts): total bytes, and the bound for other processes' changes. */
  cache: { ttlMs: number; maxBytes: number };
  demoShop: boolean;
  role: 'all' | 'api' | 'worker';
  scheduler: {
    pollMs: number;
    lockLifetimeMs: number;
    /** Wake-ups pushed from API-only processes to the workers (the markers stay the fallback); see jobs/wake.ts. */
    push: { secret: string; listen: { host: string; port: number } | undefined; workerUrls: string[] } | undefined;
  };
  mail: {
    /** Unset: every message is written to `outbox/` under dataDir instead (development). */
    smtpUrl: string | undefined;
    from: string;
    dkim: { domain: string; selector: string; privateKeyFile: string } | undefined;
    retryScheduleMs: number[];
    connections: number;
  };
  webhooks: {
    allowedHosts: string[];
    retryScheduleSeconds: number[];
    disableAfter: number;
    maxPerShop: number;
    timeoutMs: number;
  };
  consents: { unsignedPerShop: number };
  /** Deprecated settings in use: logged once at start-up. */
  warnings: string[];
  /** Who approves a bulk import started from the dashboard (server/imports/): the operator, or nobody. */
  importApproval: 'operator' | 'none';
  /** Hosts imported files' photo URLs may be fetched from at private addresses (IMPORT_PHOTO_ALLOWED_HOSTS). */
  importPhotoAllowedHosts: string[];
  photos: { review: 'operator' | 'none' };
  /** Keys the hash of a voter's address in "Helpful" votes. */
  helpfulVoteKey: string;
  /** The fake-review signals that are on (server/signals/rules.ts names them). */
  signals: SignalName[];
  /** The HMAC key of the networks `shared_network` compares (server/signals/network.ts). */
  signalKey: string;
  /** Whether incentivised reviews count in the scores shown and served (reviews/rating.ts, countsInScore). */
  scorePolicy: { incentivisedInScore: boolean };
};

export class ConfigError extends Error {}

/** Reads and validates the configuration; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "not set", as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const problems: string[] = [];
  if (production && !e.ADMIN_TOKEN) problems.push('ADMIN_TOKEN: required when NODE_ENV=production');
  if (production && !e.MONGODB_URI) problems.push('MONGODB_URI: required when NODE_ENV=production');
  if (production && !e.SMTP_URL) problems.push('SMTP_URL: required when NODE_ENV=production');
  if (production && !e.SIGNAL_KEY) problems.push('SIGNAL_KEY: required when NODE_ENV=production');
  const dkimSet = [e.DKIM_DOMAIN, e.DKIM_SELECTOR, e.DKIM_PRIVATE_KEY_FILE].filter(Boolean).length;
  if (dkimSet !== 0 && dkimSet !== 3)
    problems.push('DKIM_DOMAIN/DKIM_SELECTOR/DKIM_PRIVATE_KEY_FILE: set all three or none');
  if (e.TRUST_PROXY_HOPS !== undefined && !e.TRUST_PROXY) problems.push('TRUST_PROXY_HOPS: only with TRUST_PROXY=1');
  if (Boolean(e.TLS_CERT_FILE) !== Boolean(e.TLS_KEY_FILE)) {
    problems.push('TLS_CERT_FILE/TLS_KEY_FILE: set both or neither');
  }
  if ((e.WORKER_PORT !== undefined || e.WORKER_WAKE_URL) && !e.WORKER_SECRET) {
    problems.push('WORKER_SECRET: required with WORKER_PORT or WORKER_WAKE_URL');
  }
  if (e.WORKER_PORT !== undefined && e.ROLE !== 'worker') problems.push('WORKER_PORT: only with ROLE=worker');
  if (e.WORKER_WAKE_URL && e.ROLE !== 'api') problems.push('WORKER_WAKE_URL: only with ROLE=api');
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);

  const scheme = e.TLS_CERT_FILE ? 'https' : 'http';
  const baseUrl = (e.BASE_URL ?? `${scheme}://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    production,
    port: e.PORT,
    host: e.HOST,
    baseUrl,
    mongodbUri: e.MONGODB_URI,
    mongodbDb: e.MONGODB_DB,
    dataDir: e.DATA_DIR,
    adminToken: e.ADMIN_TOKEN,
    brand: e.BRAND,
    brandName: e.BRAND_NAME,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    trustProxyHops: e.TRUST_PROXY_HOPS ?? 1,
    tls: e.TLS_CERT_FILE && e.TLS_KEY_FILE ? { certFile: e.TLS_CERT_FILE, keyFile: e.TLS_KEY_FILE } : undefined,
    rateLimit: { perIpPerMinute: e.RATE_LIMIT_PER_IP, perShopPerMinute: e.RATE_LIMIT_PER_SHOP },
    cache: { ttlMs: e.CACHE_TTL_MS, maxBytes: cacheMegabytes(e) * 1024 * 1024 },
    demoShop: e.DEMO_SHOP,
    role: e.ROLE,
    scheduler: {
      pollMs: e.SCHEDULER_POLL_MS,
      lockLifetimeMs: e.JOB_LOCK_MS,
      push: e.WORKER_SECRET
        ? {
            secret: e.WORKER_SECRET,
            listen: e.WORKER_PORT !== undefined ? { host: e.WORKER_HOST, port: e.WORKER_PORT } : undefined,
            workerUrls: e.WORKER_WAKE_URL ?? [],
          }
        : undefined,
    },
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM ?? `${e.BRAND_NAME.replace(/[^\p{L}\p{N} .-]/gu, '')} <noreply@${new URL(baseUrl).hostname}>`,
      dkim:
        e.DKIM_DOMAIN && e.DKIM_SELECTOR && e.DKIM_PRIVATE_KEY_FILE
          ? { domain: e.DKIM_DOMAIN, selector: e.DKIM_SELECTOR, privateKeyFile: e.DKIM_PRIVATE_KEY_FILE }
          : undefined,
      retryScheduleMs: parseRetrySchedule(e.MAIL_RETRY_SCHEDULE)!,
      connections: e.MAIL_CONNECTIONS,
    },
    webhooks: {
      allowedHosts: e.WEBHOOK_ALLOWED_HOSTS,
      retryScheduleSeconds: e.WEBHOOK_RETRY_SCHEDULE,
      disableAfter: e.WEBHOOK_DISABLE_AFTER,
      maxPerShop: e.WEBHOOK_MAX_PER_SHOP,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
    },
    consents: { unsignedPerShop: e.UNSIGNED_CONSENTS_PER_SHOP },
    warnings: deprecations(e),
    importApproval: e.IMPORT_APPROVAL,
    importPhotoAllowedHosts: e.IMPORT_PHOTO_ALLOWED_HOSTS,
    photos: { review: e.PHOTO_REVIEW },
    // Derived rather than required, so that an upgrade needs no new secret; stable as long as ADMIN_TOKEN is.
    helpfulVoteKey:
      e.HELPFUL_VOTE_KEY ??
      createHmac('sha256', e.ADMIN_TOKEN ?? 'development-only')
        .update('helpful-votes')
        .digest('base64url'),
    signals: e.SIGNALS === 'none' ? [] : [...new Set(e.SIGNALS.split(',') as SignalName[])],
    // Outside production a stand-in derived from ADMIN_TOKEN, like HELPFUL_VOTE_KEY's.
    signalKey:
      e.SIGNAL_KEY ??
      createHmac('sha256', e.ADMIN_TOKEN ?? 'development-only')
        .update('signals')
        .digest('base64url'),
    scorePolicy: { incentivisedInScore: e.INCENTIVISED_IN_SCORE === '1' },
  };
}

type Env = z.infer<typeof schema>;

/** The default of CACHE_MEMORY_MB. */
const CACHE_MEMORY_MB = 256;

/** CACHE_MEMORY_MB, or the old CACHE_MAX_MB when only that is set (as the total: see docs/upgrading.md). */
const cacheMegabytes = (e: Env): number => e.CACHE_MEMORY_MB ?? e.CACHE_MAX_MB ?? CACHE_MEMORY_MB;

function deprecations(e: Env): string[] {
  const warnings: string[] = [];
  if (e.CACHE_MAX_MB !== undefined)
    warnings.push(
      e.CACHE_MEMORY_MB !== undefined
        ? 'CACHE_MAX_MB is deprecated and ignored: CACHE_MEMORY_MB is set'
        : `CACHE_MAX_MB is deprecated: read as CACHE_MEMORY_MB=${e.CACHE_MAX_MB}, the budget of all caches together (it bounded each cache)`,
    );
  if (e.CACHE_MAX_ENTRIES !== undefined)
    warnings.push('CACHE_MAX_ENTRIES is deprecated and ignored: caches are bounded by CACHE_MEMORY_MB alone');
  return warnings;
}

/** A configuration for tests: defaults plus overrides, never read from the process environment. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', ADMIN_TOKEN: 'test-admin-token-0123456789abcdef', ...overrides });
}
