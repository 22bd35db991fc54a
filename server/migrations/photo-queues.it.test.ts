// Photo tasks queued by a version before the work queues (`photo_tasks`) move to `photo_encodes` and
// `photo_deletions` at start, and the worker does each once: a deleted photo's files and record go, an upload no
// review claimed goes, a task an old worker still holds waits for its claim to run out, and two processes starting
// at once queue nothing twice.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { drainPhotoTasks } from '../photos/jobs.js';
import { newPhotoId, PHOTO_QUEUES } from '../photos/store.js';
import { LEGACY_PHOTO_CLAIMS, LEGACY_PHOTO_TASKS, migratePhotoQueues } from './photo-queues.js';

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'photo-queues-'));
  t = await startTestApp({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('moves the old tasks, and the worker does each once', async () => {
  const shop = await t.createShop();
  const hourAgo = new Date(Date.now() - 3_600_000);
  const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
  const insertRecord = (id: string, reviewId: number | null) =>
    t.db.collection('photos').insertOne({ _id: id, reviewId, shopId: shop.id, size: 3, created: twoHoursAgo } as never);
  // A photo taken off: its files and record are to go.
  const removed = newPhotoId();
  await insertRecord(removed, 1);
  await t.services.photoStorage.write(`${removed}.webp`, Buffer.from('large'));
  await t.services.photoStorage.write(`${removed}-320.webp`, Buffer.from('thumb'));
  // An upload no review claimed, two hours on: its encoding task deletes it.
  const orphan = newPhotoId();
  await insertRecord(orphan, null);
  await t.services.photoStorage.write(`${orphan}.upload`, Buffer.from('upload'));
  // A deletion an old worker is running right now: left to it until its claim runs out.
  const running = newPhotoId();
  await insertRecord(running, 1);
  await t.services.photoStorage.write(`${running}.webp`, Buffer.from('large'));
  const until = new Date(Date.now() + 10 * 60_000);
  await t.db
    .collection(LEGACY_PHOTO_CLAIMS)
    .insertOne({ _id: `delete:${running}`, claim: 'old-worker', until } as never);
  await t.db.collection(LEGACY_PHOTO_TASKS).insertMany([
    { _id: `delete:${removed}`, kind: 'delete', photoId: removed, created: hourAgo },
    { _id: `encode:${orphan}`, kind: 'encode', photoId: orphan, created: twoHoursAgo },
    { _id: `delete:${running}`, kind: 'delete', photoId: running, created: hourAgo },
  ] as never[]);

  const moved = await Promise.all([migratePhotoQueues(t.services), migratePhotoQueues(t.services)]);
  expect(moved[0] + moved[1]).toBe(3);
  expect(await t.db.collection(LEGACY_PHOTO_TASKS).countDocuments()).toBe(0);
  expect(await t.services.photos.hasTask('delete', removed)).toBe(true);
  expect(await t.services.photos.hasTask('encode', orphan)).toBe(true);
  const waiting = await t.db.collection(PHOTO_QUEUES.delete).findOne({ _id: running as never });
  expect(waiting?.due).toEqual(until);
  expect(await migratePhotoQueues(t.services)).toBe(0);

  await drainPhotoTasks(t.services);
  for (const id of [removed, orphan]) {
    for (const name of [`${id}.upload`, `${id}.webp`, `${id}-320.webp`])
      expect(await t.services.photoStorage.readAll(name)).toBeNull();
    expect(await t.services.photos.get(id)).toBeNull();
  }
  // The old worker's task is not run alongside it; it stays queued for when the claim runs out.
  expect(await t.services.photoStorage.readAll(`${running}.webp`)).not.toBeNull();
  expect(await t.services.photos.hasTask('delete', running)).toBe(true);
  expect(await t.services.photos.hasTask('delete', removed)).toBe(false);
  expect(await t.services.photos.hasTask('encode', orphan)).toBe(false);
  expect(await t.db.collection(PHOTO_QUEUES.encode).countDocuments()).toBe(0);
});
