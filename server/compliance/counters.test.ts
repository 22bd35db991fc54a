import { describe, expect, it } from 'vitest';
import type { Review } from '../reviews/model.js';
import {
  addCounts,
  complianceRows,
  countsOf,
  publicationBucket,
  shopCompliance,
  starTable,
  type ComplianceEvent,
  type Counts,
} from './counters.js';
import { writeEvents } from './follower.js';
import { csvLine } from '../spreadsheet-csv.js';

const fold = (events: ComplianceEvent[]): Counts => events.reduce((c, e) => addCounts(c, countsOf(e)), {} as Counts);

describe('publicationBucket', () => {
  it('puts each delay in its fixed bucket, bounds exclusive', () => {
    const h = 3_600_000;
    expect([0, h - 1, h, 24 * h, 72 * h, 7 * 24 * h, 30 * 24 * h, 400 * 24 * h, -5].map(publicationBucket)).toEqual([
      'under_1h',
      'under_1h',
      'under_1d',
      'under_3d',
      'under_7d',
      'under_30d',
      'over_30d',
      'over_30d',
      'under_1h',
    ]);
  });
});

describe('the compliance report of a shop', () => {
  const counts = fold([
    { kind: 'invitation_queued' },
    { kind: 'invitation_queued' },
    { kind: 'invitation_sent' },
    { kind: 'review_received', origin: 'verified_order', rating: 1 },
    { kind: 'review_received', origin: 'email_confirmed', rating: 5 },
    { kind: 'review_received', origin: 'imported', rating: 5 },
    { kind: 'review_published', rating: 1, delayMs: 0 },
    { kind: 'review_published', rating: 5, delayMs: 2 * 86_400_000 },
    { kind: 'review_published', rating: 5, delayMs: null },
    { kind: 'report_received' },
    { kind: 'decided', source: 'report', outcome: 'removed' },
    { kind: 'review_removed', ground: 'offensive', rating: 1 },
    { kind: 'signal_raised', signal: 'burst' },
    { kind: 'decided', source: 'signal', signal: 'burst', outcome: 'dismissed' },
    { kind: 'decided', source: 'check', outcome: 'removed' },
    { kind: 'review_removed', ground: 'spam', rating: 5 },
    { kind: 'review_redacted', ground: 'personal_data', rating: 1 },
    { kind: 'complaint_received' },
    { kind: 'complaint_answered', outcome: 'reversed' },
    { kind: 'removal_reversed', ground: 'offensive', rating: 1 },
  ]);

  it('has every figure, 0 where nothing happened', () => {
    const report = shopCompliance(7, counts);
    expect(report).toMatchObject({
      webshop_id: 7,
      invitations: { queued: 2, sent: 1 },
      received: {
        by_origin: { verified_order: 1, email_confirmed: 1, imported: 1 },
        by_star: { 1: 1, 2: 0, 3: 0, 4: 0, 5: 2 },
      },
      published: { by_star: { 1: 1, 2: 0, 3: 0, 4: 0, 5: 2 } },
      time_to_publication: { under_1h: 1, under_1d: 0, under_3d: 1, under_7d: 0, under_30d: 0, over_30d: 0 },
      reports: { received: 1, kept: 0, removed: 1, redacted: 0, dismissed: 0 },
      checks: { removed: 1 },
      complaints: { received: 1, upheld: 0, reversed: 1 },
    });
    expect(report.removed.offensive).toEqual({ 1: 1, 2: 0, 3: 0, 4: 0, 5: 0 });
    expect(report.removed.spam[5]).toBe(1);
    expect(report.redacted.personal_data[1]).toBe(1);
    expect(report.restored.offensive[1]).toBe(1);
    expect(report.signals.burst).toEqual({ raised: 1, kept: 0, removed: 0, redacted: 0, dismissed: 1 });
    // Signal kinds not raised are listed with zeros.
    expect(report.signals.insider!.raised).toBe(0);
  });

  it('as spreadsheet rows: one per figure, the star in its own column', () => {
    const rows = complianceRows([shopCompliance(7, counts)]);
    expect(rows[0]).toEqual(['webshop_id', 'section', 'figure', 'star', 'count']);
    expect(rows).toContainEqual([7, 'invitations', 'queued', '', 2]);
    expect(rows).toContainEqual([7, 'removed', 'offensive', '1', 1]);
    expect(rows).toContainEqual([7, 'received', 'by_star', '5', 2]);
    expect(rows).toContainEqual([7, 'signals', 'burst:dismissed', '', 1]);
    // Every cell goes through the exports' inert-cell rule (a signal's name is not ours to trust).
    const hostile = complianceRows([shopCompliance(1, { 'signals:=HYPERLINK("x"):raised': 1 })]);
    expect(hostile.map((r) => csvLine(r)).join('')).toContain(`'=HYPERLINK`);
  });

  it('the per-star table counts removals given back after a complaint no more', () => {
    const table = starTable(counts);
    expect(table.received).toEqual({ 1: 1, 2: 0, 3: 0, 4: 0, 5: 2 });
    expect(table.published).toEqual({ 1: 1, 2: 0, 3: 0, 4: 0, 5: 2 });
    expect(table.removed.offensive[1]).toBe(0);
    expect(table.removed.spam[5]).toBe(1);
  });
});

describe('writeEvents: what a review write counts', () => {
  const base = {
    id: 1,
    shopId: 1,
    rating: 4,
    source: 'invitation',
    verified: true,
    origin: 'verified_order',
    published: true,
    announced: true,
    created: new Date('2026-01-01T00:00:00Z'),
  } as Review;
  const now = new Date('2026-01-01T05:00:00Z');

  it('a new published review: received and published at once', () => {
    expect(writeEvents(undefined, base, now)).toEqual([
      { kind: 'review_received', origin: 'verified_order', rating: 4 },
      { kind: 'review_published', rating: 4, delayMs: 0 },
    ]);
  });

  it('a review released from quarantine: published, with the time since receipt', () => {
    const before = { ...base, published: false, announced: false };
    expect(writeEvents(before, base, now)).toEqual([{ kind: 'review_published', rating: 4, delayMs: 5 * 3_600_000 }]);
  });

  it('a later edit counts nothing; an import is published without a delay of ours', () => {
    expect(writeEvents(base, { ...base, comment: 'edited' }, now)).toEqual([]);
    const imported = { ...base, source: 'import', origin: 'imported' } as Review;
    expect(writeEvents(undefined, imported, now)).toContainEqual({
      kind: 'review_published',
      rating: 4,
      delayMs: null,
    });
  });
});
