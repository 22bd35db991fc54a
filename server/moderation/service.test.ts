import { describe, expect, it } from 'vitest';
import type { Review } from '../reviews/model.js';
import { redacted } from './service.js';

const review = (over: Partial<Review>) => ({ comment: null, products: [], reply: null, ...over }) as Review;

describe('redacting a passage', () => {
  it('replaces every occurrence in the comment, the product texts and the reply, and counts what it replaced', () => {
    const result = redacted(
      review({
        comment: 'Call 0612 or 0612.',
        products: [{ content: 'mine: 0612' } as Review['products'][number]],
        reply: { text: 'We called 0612', date: new Date(0), notify: false, revision: 1, notified: null },
      }),
      '0612',
      '[…]',
    );
    expect(result!.chars).toBe(16);
    expect(result!.changes.comment).toBe('Call […] or […].');
    expect(result!.changes.products![0]!.content).toBe('mine: […]');
    expect(result!.changes.reply!.text).toBe('We called […]');
  });

  it('is nothing when the passage is not there (exact, case-sensitive text)', () => {
    expect(redacted(review({ comment: 'Call ME' }), 'call me', '[…]')).toBeNull();
  });
});
