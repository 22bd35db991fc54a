// A stored review with every required field, for tests and benchmarks that build reviews without the store (pure
// rules, read models, payloads, seeded databases): each gives only what matters to it.
import type { Review } from '../server/reviews/model.js';
import { noSubRatings } from '../server/reviews/rules.js';

export function storedReview(changes: Partial<Review> = {}): Review {
  const created = changes.created ?? new Date('2026-01-01T00:00:00Z');
  return {
    id: 1,
    shopId: 1,
    name: 'Jan',
    email: 'jan@example.com',
    rating: 4,
    ratings: noSubRatings(),
    comment: 'Goede winkel',
    language: 'nl',
    country: 'NL',
    order: '1001',
    created,
    modified: created,
    read: false,
    quarantine: false,
    is_spam: false,
    valid: true,
    deleted: false,
    published: true,
    announced: true,
    verified: true,
    source: 'invitation',
    products: [],
    reply: null,
    editToken: null,
    editMailDue: null,
    editMailSent: null,
    confirmToken: null,
    confirmMailSent: null,
    version: 1,
    pendingEvent: null,
    ...changes,
  };
}
