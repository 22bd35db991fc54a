import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';

let clock = new Date('2026-03-01T10:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { now: () => clock });
});
afterAll(async () => t.close());

describe('audit trail', () => {
  it('lists a shop’s entries newest first, pages back with `before`, and stores no address in clear', async () => {
    const { audit } = t.services;
    for (let i = 0; i < 3; i++) {
      clock = new Date(Date.UTC(2026, 2, 1, 10, i));
      await audit.record({ shopId: 7, actor: { kind: 'operator' }, action: `step.${i}`, target: 'review:1' });
    }
    await audit.record({
      shopId: 8,
      actor: { kind: 'user', id: 'Jane@Example.com' },
      action: 'report.created',
      details: { note: 'from jane@example.com', nested: ['x@y.org'] },
    });

    const shop7 = await audit.list({ shopId: 7, limit: 10 });
    expect(shop7.map((e) => e.action)).toEqual(['step.2', 'step.1', 'step.0']);
    expect(shop7[0]).toMatchObject({ shopId: 7, actor: { kind: 'operator' }, target: 'review:1', details: {} });

    const older = await audit.list({ shopId: 7, limit: 10, before: shop7[0]!.at });
    expect(older.map((e) => e.action)).toEqual(['step.1', 'step.0']);
    expect(await audit.list({ shopId: 7, limit: 1 })).toHaveLength(1);
    expect(await audit.list({ limit: 10 })).toHaveLength(4);

    const [report] = await audit.list({ shopId: 8, limit: 10 });
    expect(JSON.stringify(report)).not.toMatch(/@/);
    expect(report!.actor.id).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('is readable by the operator, newest first, per shop and paged back; the query is validated', async () => {
    clock = new Date('2026-03-02T09:00:00Z');
    await t.services.audit.record({ shopId: 9, actor: { kind: 'operator' }, action: 'a.one' });
    clock = new Date('2026-03-02T09:01:00Z');
    await t.services.audit.record({ shopId: 9, actor: { kind: 'system' }, action: 'a.two', target: 'review:5' });
    const res = await t.admin('/admin/api/audit?webshop=9');
    expect(res.status).toBe(200);
    const { entries } = await res.json();
    expect(entries).toEqual([
      expect.objectContaining({
        at: '2026-03-02T09:01:00.000Z',
        webshop_id: 9,
        actor: { kind: 'system' },
        action: 'a.two',
        target: 'review:5',
      }),
      expect.objectContaining({ action: 'a.one', target: null }),
    ]);
    const older = await (
      await t.admin(`/admin/api/audit?webshop=9&before=${encodeURIComponent(entries[0].at)}`)
    ).json();
    expect(older.entries.map((e: { action: string }) => e.action)).toEqual(['a.one']);
    expect((await t.fetch('/admin/api/audit')).status).toBe(401);
    for (const q of ['limit=0', 'webshop=x', 'before=yesterday', 'shop=9']) {
      const bad = await t.admin(`/admin/api/audit?${q}`);
      expect(bad.status, q).toBe(400);
      expect((await bad.json()).error.code).toBe('bad_request');
    }
  });
});
