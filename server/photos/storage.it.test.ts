import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDatabase } from '../../test/scratch-db.js';
import { DirectoryStorage, GridFsStorage, type PhotoStorage } from './storage.js';
import { newPhotoId } from './store.js';

const { db } = await scratchDatabase('photo_storage');
const dir = mkdtempSync(join(tmpdir(), 'photo-storage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const kinds: [string, PhotoStorage][] = [
  ['files under DATA_DIR/photos', new DirectoryStorage(join(dir, 'photos'))],
  // On FerretDB its chunk look-ups scan: a small file here; MongoDB is where GridFS is meant to run.
  ['GridFS', new GridFsStorage(db)],
];

describe.each(kinds)('%s', (_name, storage) => {
  // More than one GridFS chunk (255 KB), streamed in.
  const bytes = Buffer.alloc(600 * 1024).map((_, i) => (i * 7) % 251);

  it('stores a stream, reads it back whole and as a stream, replaces it, and removes it', async () => {
    const id = newPhotoId();
    await storage.write(`${id}.upload`, Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]));
    expect((await storage.readAll(`${id}.upload`))?.equals(bytes)).toBe(true);
    const found = await storage.read(`${id}.upload`);
    expect(found?.bytes).toBe(bytes.length);
    const chunks: Buffer[] = [];
    for await (const chunk of found!.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);

    await storage.write(`${id}.upload`, Buffer.from('second'));
    expect((await storage.readAll(`${id}.upload`))?.toString()).toBe('second');

    await storage.remove(`${id}.upload`);
    expect(await storage.read(`${id}.upload`)).toBeNull();
    // Removing what is gone is no error (a deletion task run twice).
    await storage.remove(`${id}.upload`);
  });

  it('keeps nothing of a write that failed half-way', async () => {
    const id = newPhotoId();
    const failing = new Readable({
      read() {
        this.push(bytes.subarray(0, 300 * 1024));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(storage.write(`${id}.webp`, failing)).rejects.toThrow();
    expect(await storage.read(`${id}.webp`)).toBeNull();
  });

  it('refuses names that are not photo files', async () => {
    await expect(storage.read('../../etc/passwd')).rejects.toThrow(/not a photo file name/);
  });
});
