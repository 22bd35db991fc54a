// The operator API validates the sidebar's dashboard configuration with the embed's own table
// (embed/shared/settings.ts): what a page global may say, the dashboard may say, and the embed gets it as stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const patch = (id: number, sidebar: unknown) =>
  t.admin(`/admin/api/webshops/${id}`, { method: 'PATCH', json: { sidebar } });

describe('sidebar settings in the operator API', () => {
  it('accepts the looser rule of the specification (decimals, any case) and hands the embed the normal form', async () => {
    const s = await t.createShop();
    const res = await patch(s.id, {
      top: '12.5px',
      position: ' RIGHT ',
      mobile: 'bottom_manual',
      mobile_tab: 'Center',
      sidebar: false,
    });
    expect(res.status).toBe(200);
    expect((await res.json()).sidebar).toEqual({
      top: '12.5px',
      position: 'right',
      mobile: 'bottom_manual',
      mobile_tab: 'center',
      sidebar: false,
    });
    const shop = await (await t.fetch(`/embed/${s.id}/shop.json`)).json();
    expect(shop.settings).toEqual({
      top: '12.5px',
      position: 'right',
      mobile: 'bottom_manual',
      mobile_tab: 'center',
      sidebar: false,
    });
  });

  it('rejects what the embed would ignore, naming the field, and changes nothing', async () => {
    const s = await t.createShop();
    for (const sidebar of [
      { top: 'high' },
      { mobile: 'sideways' },
      { tooltip: 'yes' },
      { theme: { $ne: 1 } },
      { colour: 'red' },
    ]) {
      const res = await patch(s.id, sidebar);
      expect(res.status).toBe(422);
      expect((await res.json()).error.message).toMatch(/^sidebar/);
    }
    const shop = await (await t.fetch(`/embed/${s.id}/shop.json`)).json();
    expect(shop.settings).toEqual({});
  });
});
