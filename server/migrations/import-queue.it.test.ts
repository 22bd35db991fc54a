// Imports queued by a version before the work queue (`import_queue`) move to `import_work` at start, and the worker
// runs each once: a queued run imports its reviews once, a dead upload's file is removed, and two processes starting
// at once queue nothing twice.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { drainImports, ImportUpload, startImport } from '../imports/service.js';
import { IMPORT_WORK_QUEUE } from '../imports/store.js';
import { LEGACY_IMPORT_QUEUE, migrateImportQueue } from './import-queue.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const fixture = (name: string) => readFileSync(new URL(`../imports/fixtures/${name}`, import.meta.url));

it('moves the old entries, and the worker runs each once', async () => {
  const shop = await t.createShop();
  // An import that waits for approval, then as the old code left it once approved: running, queued in `import_queue`.
  const up = new ImportUpload(t.services, shop.id);
  await up.begin();
  await up.add(fixture('trustpilot.csv'));
  const started = await startImport(
    t.services,
    shop,
    up,
    { fileName: 'tp.csv', by: { kind: 'user', id: 'u1' } },
    { dryRun: false, replyAuthors: [], dateOrder: 'mdy' },
  );
  const id = started.dryRun ? '' : started.import._id;
  expect(await t.services.imports.queuedWork()).toEqual([]);
  await t.db.collection<{ _id: string }>('imports').updateOne({ _id: id }, { $set: { status: 'running' } });
  const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
  await t.db.collection(LEGACY_IMPORT_QUEUE).insertMany([
    { _id: id, shopId: shop.id, work: 'run', at: new Date() },
    // An upload whose process died two hours ago: its pieces are removed.
    { _id: 'imp_dead', shopId: shop.id, work: 'discard', at: twoHoursAgo },
  ] as never[]);
  await t.services.imports.putChunk('imp_dead', 0, new Uint8Array([1, 2, 3]));

  const moved = await Promise.all([migrateImportQueue(t.services), migrateImportQueue(t.services)]);
  expect(moved[0] + moved[1]).toBe(2);
  expect(await t.db.collection(LEGACY_IMPORT_QUEUE).countDocuments()).toBe(0);
  expect((await t.services.imports.queuedWork()).map((w) => [w.work, w.importId]).sort()).toEqual([
    ['discard', 'imp_dead'],
    ['run', id],
  ]);
  expect(await migrateImportQueue(t.services)).toBe(0);

  await drainImports(t.services, 'test-worker');
  const doc = await t.services.imports.get(shop.id, id);
  expect(doc).toMatchObject({ status: 'done', counts: { read: 2, imported: 2, duplicates: 0 } });
  expect(await t.db.collection('import_chunks').countDocuments({ _id: /^imp_dead:/ } as never)).toBe(0);
  expect(await t.db.collection(IMPORT_WORK_QUEUE).countDocuments()).toBe(0);
  await drainImports(t.services, 'test-worker');
  const reviews = await t.db.collection('reviews').countDocuments({ shopId: shop.id, deleted: { $ne: true } });
  expect(reviews).toBe(2);
});
