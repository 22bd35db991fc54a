// The compliance counters (issue 21), as pure functions: what each thing that happens adds to its shop's counters of
// the day, and how a range of days reads as the compliance report and the policy page's per-star table. The counts
// are kept as things happen (store.ts), so neither needs to look at the history of reviews, reports or e-mails.
// Counter names are flat, `:`-separated (never dots: they are keys of one stored object).
import type { ReviewOrigin } from '../reviews/origin.js';
import { ORIGINS } from '../reviews/origin.js';
import { GROUNDS, type Ground } from '../moderation/schema.js';
import type { ComplaintOutcome, DecisionOutcome, ModerationEvent } from '../moderation/events.js';

export const STARS = [1, 2, 3, 4, 5] as const;

/** Time from receipt to publication, in fixed buckets (upper bounds, exclusive; the last is open). */
const PUBLICATION_BUCKETS = [
  { name: 'under_1h', belowMs: 3_600_000 },
  { name: 'under_1d', belowMs: 86_400_000 },
  { name: 'under_3d', belowMs: 3 * 86_400_000 },
  { name: 'under_7d', belowMs: 7 * 86_400_000 },
  { name: 'under_30d', belowMs: 30 * 86_400_000 },
  { name: 'over_30d', belowMs: Number.POSITIVE_INFINITY },
] as const;
type PublicationBucket = (typeof PUBLICATION_BUCKETS)[number]['name'];

const SIGNAL_KINDS = ['insider', 'burst', 'duplicate_text', 'shared_network'] as const;
/** Outcomes of a report, a signal or the operator's own check (moderation/events.ts), a row each. */
const DECISION_OUTCOMES = ['kept', 'removed', 'redacted', 'dismissed'] as const satisfies readonly DecisionOutcome[];
const COMPLAINT_OUTCOMES = ['upheld', 'reversed'] as const satisfies readonly ComplaintOutcome[];

/** One shop-day's counters: counter name → count. */
export type Counts = Record<string, number>;

/** Stars outside 1–5 (none should be stored) are not counted per star. */
const star = (rating: number): number | null =>
  Number.isInteger(rating) && rating >= 1 && rating <= 5 ? rating : null;

export function publicationBucket(delayMs: number): PublicationBucket {
  return PUBLICATION_BUCKETS.find((b) => Math.max(0, delayMs) < b.belowMs)!.name;
}

/** Everything that is counted, as it happens: the invitations and reviews, and what moderation decides. */
export type ComplianceEvent =
  | { kind: 'invitation_queued' }
  | { kind: 'invitation_sent' }
  | { kind: 'review_received'; origin: ReviewOrigin; rating: number }
  /** First publication; `delayMs` null for imports (published elsewhere first: no delay of ours to measure). */
  | { kind: 'review_published'; rating: number; delayMs: number | null }
  | ModerationEvent;

/** What one event adds to its shop-day's counters. */
export function countsOf(event: ComplianceEvent): Counts {
  switch (event.kind) {
    case 'invitation_queued':
      return { 'invitations:queued': 1 };
    case 'invitation_sent':
      return { 'invitations:sent': 1 };
    case 'review_received': {
      const s = star(event.rating);
      return { [`received:origin:${event.origin}`]: 1, ...(s ? { [`received:star:${s}`]: 1 } : {}) };
    }
    case 'review_published': {
      const s = star(event.rating);
      return {
        ...(s ? { [`published:star:${s}`]: 1 } : {}),
        ...(event.delayMs === null ? {} : { [`publication:${publicationBucket(event.delayMs)}`]: 1 }),
      };
    }
    case 'review_removed':
    case 'review_redacted':
    case 'removal_reversed': {
      const s = star(event.rating);
      const what = { review_removed: 'removed', review_redacted: 'redacted', removal_reversed: 'restored' }[event.kind];
      return s ? { [`${what}:${event.ground}:${s}`]: 1 } : {};
    }
    case 'signal_raised':
      return { [`signals:${event.signal}:raised`]: 1 };
    case 'report_received':
      return { 'reports:received': 1 };
    case 'complaint_received':
      return { 'complaints:received': 1 };
    case 'decided':
      if (event.source === 'signal') return { [`signals:${event.signal ?? 'unknown'}:${event.outcome}`]: 1 };
      return { [`${event.source === 'check' ? 'checks' : 'reports'}:${event.outcome}`]: 1 };
    case 'complaint_answered':
      return { [`complaints:${event.outcome}`]: 1 };
  }
}

/** Adds `more` into `into` (in place). */
export function addCounts(into: Counts, more: Counts): Counts {
  for (const [key, n] of Object.entries(more)) into[key] = (into[key] ?? 0) + n;
  return into;
}

const at = (c: Counts, key: string): number => c[key] ?? 0;
const perStar = (c: Counts, prefix: string) =>
  Object.fromEntries(STARS.map((s) => [String(s), at(c, `${prefix}:${s}`)])) as Record<string, number>;
const perGroundAndStar = (c: Counts, what: string) =>
  Object.fromEntries(GROUNDS.map((g) => [g, perStar(c, `${what}:${g}`)])) as Record<Ground, Record<string, number>>;

/** One shop's compliance report over a range of days: the counters summed, every figure present (0 when none). */
export interface ShopCompliance {
  webshop_id: number;
  invitations: { queued: number; sent: number };
  received: { by_origin: Record<ReviewOrigin, number>; by_star: Record<string, number> };
  published: { by_star: Record<string, number> };
  removed: Record<Ground, Record<string, number>>;
  redacted: Record<Ground, Record<string, number>>;
  /** Removals reversed after a complaint, per ground and star. */
  restored: Record<Ground, Record<string, number>>;
  time_to_publication: Record<PublicationBucket, number>;
  signals: Record<string, Record<'raised' | DecisionOutcome, number>>;
  reports: Record<'received' | DecisionOutcome, number>;
  checks: Record<DecisionOutcome, number>;
  complaints: Record<'received' | ComplaintOutcome, number>;
}

const outcomes = <K extends string>(c: Counts, prefix: string, keys: readonly K[]) =>
  Object.fromEntries(keys.map((k) => [k, at(c, `${prefix}:${k}`)])) as Record<K, number>;

export function shopCompliance(shopId: number, c: Counts): ShopCompliance {
  const signalKinds = new Set<string>(SIGNAL_KINDS);
  for (const key of Object.keys(c)) if (key.startsWith('signals:')) signalKinds.add(key.split(':')[1]!);
  return {
    webshop_id: shopId,
    invitations: { queued: at(c, 'invitations:queued'), sent: at(c, 'invitations:sent') },
    received: {
      by_origin: Object.fromEntries(ORIGINS.map((o) => [o, at(c, `received:origin:${o}`)])) as Record<
        ReviewOrigin,
        number
      >,
      by_star: perStar(c, 'received:star'),
    },
    published: { by_star: perStar(c, 'published:star') },
    removed: perGroundAndStar(c, 'removed'),
    redacted: perGroundAndStar(c, 'redacted'),
    restored: perGroundAndStar(c, 'restored'),
    time_to_publication: Object.fromEntries(
      PUBLICATION_BUCKETS.map((b) => [b.name, at(c, `publication:${b.name}`)]),
    ) as Record<PublicationBucket, number>,
    signals: Object.fromEntries(
      [...signalKinds].map((k) => [k, outcomes(c, `signals:${k}`, ['raised', ...DECISION_OUTCOMES] as const)]),
    ),
    reports: outcomes(c, 'reports', ['received', ...DECISION_OUTCOMES] as const),
    checks: outcomes(c, 'checks', DECISION_OUTCOMES),
    complaints: outcomes(c, 'complaints', ['received', ...COMPLAINT_OUTCOMES] as const),
  };
}

/** The report as spreadsheet rows: one per shop and figure (`section`, `figure`, `star`, `count`). */
export function complianceRows(report: readonly ShopCompliance[]): (string | number)[][] {
  const rows: (string | number)[][] = [['webshop_id', 'section', 'figure', 'star', 'count']];
  const nested = (id: number, section: string, value: unknown, path: string[] = []) => {
    if (typeof value === 'number') {
      // The innermost key of a per-star table is its star; other figures have none.
      const isStar = /^[1-5]$/.test(path[path.length - 1] ?? '');
      rows.push([
        id,
        section,
        (isStar ? path.slice(0, -1) : path).join(':'),
        isStar ? path[path.length - 1]! : '',
        value,
      ]);
      return;
    }
    for (const [key, inner] of Object.entries(value as Record<string, unknown>))
      nested(id, section, inner, [...path, key]);
  };
  for (const shop of report) {
    for (const [section, value] of Object.entries(shop))
      if (section !== 'webshop_id') nested(shop.webshop_id, section, value);
  }
  return rows;
}

/** The policy page's per-star table over the last 12 months: received, published, removed per ground. */
export interface StarTable {
  received: Record<string, number>;
  published: Record<string, number>;
  /** Removed less those given back after a complaint, per ground and star. */
  removed: Record<Ground, Record<string, number>>;
}

export function starTable(c: Counts): StarTable {
  const removed = perGroundAndStar(c, 'removed');
  const restored = perGroundAndStar(c, 'restored');
  for (const g of GROUNDS) for (const s of STARS) removed[g][s] = Math.max(0, removed[g][s]! - restored[g][s]!);
  return { received: perStar(c, 'received:star'), published: perStar(c, 'published:star'), removed };
}
