// Issue 21, "No suppression, provably": two reviews that differ only in their rating go through publication and
// moderation identically. A seeded loop over generated cases (no property-testing package is installed): each case
// writes a pair of reviews through the review store's single write path, confirms them where they wait for their
// writer, and applies the same moderation decision to each through the operator's decision path; at every step the
// two reviews must be in the same state, rating aside. Plus the pure rules that take a review: redaction, and
// whether a review counts in the score (which does not look at the rating at all).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { Review } from '../reviews/model.js';
import { releaseReview } from '../reviews/publication.js';
import { COUNT_ALL, countsInScore } from '../reviews/rating.js';
import { OPERATOR } from '../audit/changes.js';
import { decideReport, redacted, submitReport } from './service.js';
import type { Decision } from './schema.js';

/** mulberry32: a small seeded generator, so a failing case can be run again. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const SEED = 2126;
const CASES = 16;

interface Case {
  ratings: [number, number];
  source: 'invitation' | 'popup' | 'form' | 'import';
  verified: boolean;
  /** Waits for the writer's confirmation (then confirmed), held by the shop's rules, or published at once. */
  start: 'confirm' | 'held' | 'published';
  incentivised: boolean;
  comment: string;
  decision: Decision;
}

function generate(random: () => number): Case {
  const a = 1 + Math.floor(random() * 5);
  let b = 1 + Math.floor(random() * 5);
  if (b === a) b = (a % 5) + 1;
  return {
    ratings: [a, b],
    source: pick(random, ['invitation', 'popup', 'form', 'import'] as const),
    verified: random() < 0.5,
    start: pick(random, ['confirm', 'held', 'published'] as const),
    incentivised: random() < 0.3,
    comment: pick(random, ['Call me on 0612345678 about it.', 'Fine, 0612345678 is the shop’s number.']),
    decision: pick(random, [
      { action: 'keep', note: '' },
      { action: 'remove', ground: 'spam', note: '', statement: 'Advertising.' },
      {
        action: 'redact',
        ground: 'personal_data',
        note: '',
        statement: 'A phone number.',
        passage: '0612345678',
        replacement: '[…]',
      },
    ] as Decision[]),
  };
}

/** What the public and the shop see of a review's state, everything but its rating and identity. */
const stateOf = (r: Review | null | undefined) =>
  r && {
    published: r.published,
    quarantine: r.quarantine,
    deleted: r.deleted,
    announced: r.announced,
    pendingEvent: r.pendingEvent,
    origin: r.origin,
    incentivised: r.incentivised,
    valid: r.valid,
    is_spam: r.is_spam,
    comment: r.comment,
    removalGround: r.removalGround ?? null,
    version: r.version,
    confirmToken: r.confirmToken === null ? null : 'set',
  };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('two reviews that differ only in their rating', () => {
  it(`go through publication and moderation identically (seed ${SEED}, ${CASES} cases)`, async () => {
    const random = seeded(SEED);
    const covered = new Set<string>();
    for (let n = 0; n < CASES; n++) {
      const c = generate(random);
      covered.add(c.decision.action).add(c.start).add(c.source);
      const label = `case ${n}: ${JSON.stringify(c)}`;
      // A shop per case: the shop's other reviews (a burst) must not be what differs.
      const shop = await t.createShop({ name: `Shop ${n}` });
      const pair = await Promise.all(
        c.ratings.map((rating, i) =>
          t.services.reviews.create(shop.id, {
            name: 'Jan',
            email: `writer-${n}-${i}@example.com`,
            rating,
            language: 'en',
            comment: c.comment,
            source: c.source,
            verified: c.verified,
            incentivised: c.incentivised,
            quarantine: c.start !== 'published',
            ...(c.start === 'confirm' ? { confirmToken: `confirm-${n}-${i}-${SEED}` } : {}),
          }),
        ),
      );
      expect(stateOf(pair[1]), label).toEqual(stateOf(pair[0]));

      const released = c.start === 'confirm' ? await Promise.all(pair.map((r) => releaseReview(t.services, r))) : pair;
      expect(stateOf(released[1]), label).toEqual(stateOf(released[0]));

      const current = await Promise.all(pair.map((r) => t.services.reviews.get(r.id)));
      const outcomes = [];
      for (const review of current) {
        const report = await submitReport(t.services, review!, { ground: 'other', text: '', email: '' });
        try {
          const { report: decided } = await decideReport(t.services, report._id.toHexString(), c.decision, OPERATOR);
          outcomes.push({ status: decided.status });
        } catch (err) {
          outcomes.push({ refused: (err as { status?: number }).status });
        }
      }
      expect(outcomes[1], label).toEqual(outcomes[0]);
      const after = await Promise.all(pair.map((r) => t.services.reviews.get(r.id)));
      expect(stateOf(after[1]), label).toEqual(stateOf(after[0]));
    }
    // The seed's cases cover every decision, every way of starting out and every source.
    for (const kind of [
      'keep',
      'remove',
      'redact',
      'confirm',
      'held',
      'published',
      'invitation',
      'popup',
      'form',
      'import',
    ])
      expect(covered, kind).toContain(kind);
  });
});

describe('the pure rules that take a review', () => {
  it('redaction and counting in the score do not depend on the rating', () => {
    const random = seeded(SEED);
    for (let n = 0; n < 200; n++) {
      const c = generate(random);
      const review = (rating: number) =>
        ({
          rating,
          comment: c.comment,
          products: [{ content: c.comment }],
          reply: null,
          incentivised: c.incentivised,
        }) as unknown as Review;
      const [a, b] = c.ratings.map(review) as [Review, Review];
      expect(redacted(b, '0612345678', '[…]'), `case ${n}`).toEqual(redacted(a, '0612345678', '[…]'));
      for (const policy of [COUNT_ALL, { incentivisedInScore: false }]) {
        expect(countsInScore(b, policy)).toBe(countsInScore(a, policy));
      }
    }
  });
});
