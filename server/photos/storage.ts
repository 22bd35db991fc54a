// Where photo files live, behind one small interface with two implementations:
// - files under DATA_DIR/photos/ with the embedded database (every process using it shares DATA_DIR already);
// - GridFS in the service's database with MONGODB_URI (indexed on MongoDB; on FerretDB its chunk look-ups scan,
//   so it is not the default there: docs/decisions/photos.md).
// Names are `<random photo id><suffix>`, never content hashes: deleting one review's photo never touches another's.
// Files are written whole or not at all (a temporary name, then a rename; GridFS publishes a file once its last chunk
// is written), so a reader never sees half a photo.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { GridFSBucket } from 'mongodb';
import type { Db } from '../db/index.js';

interface StoredFile {
  stream: Readable;
  bytes: number;
}

export interface PhotoStorage {
  readonly kind: 'files' | 'gridfs';
  /** Writes the stream under `name`, replacing what was there; nothing is left under `name` if it fails. */
  write(name: string, from: Readable | Buffer): Promise<void>;
  /** The file, or null when there is none. */
  read(name: string): Promise<StoredFile | null>;
  /** The whole file in memory (the encoder's input, at most PHOTO_LIMITS.bytes), or null. */
  readAll(name: string): Promise<Buffer | null>;
  /** Removes the file; nothing when there is none. */
  remove(name: string): Promise<void>;
}

/** File names we write: a photo id (22 base64url characters) and a fixed suffix. Anything else is refused. */
const SAFE_NAME = /^[A-Za-z0-9_-]{22}(?:\.upload|\.webp|-320\.webp)$/;

function checked(name: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`not a photo file name: ${name}`);
  return name;
}

export class DirectoryStorage implements PhotoStorage {
  readonly kind = 'files';
  private ready: Promise<unknown> | undefined;

  constructor(private readonly dir: string) {}

  private async made(): Promise<void> {
    this.ready ??= mkdir(this.dir, { recursive: true });
    await this.ready;
  }

  async write(name: string, from: Readable | Buffer): Promise<void> {
    await this.made();
    const target = join(this.dir, checked(name));
    const temp = `${target}.${randomBytes(6).toString('hex')}.part`;
    try {
      if (Buffer.isBuffer(from)) await pipeline([from], createWriteStream(temp));
      else await pipeline(from, createWriteStream(temp));
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async read(name: string): Promise<StoredFile | null> {
    const path = join(this.dir, checked(name));
    try {
      const { size } = await stat(path);
      return { stream: createReadStream(path), bytes: size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async readAll(name: string): Promise<Buffer | null> {
    const found = await this.read(name);
    if (!found) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of found.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async remove(name: string): Promise<void> {
    await rm(join(this.dir, checked(name)), { force: true });
  }
}

/** GridFS, the file's `_id` being its name: every look-up is by `_id`. */
export class GridFsStorage implements PhotoStorage {
  readonly kind = 'gridfs';
  private readonly bucket: GridFSBucket;

  constructor(db: Db) {
    this.bucket = new GridFSBucket(db, { bucketName: 'photos', chunkSizeBytes: 255 * 1024 });
  }

  async write(name: string, from: Readable | Buffer): Promise<void> {
    checked(name);
    // A rewrite (an encoding run again after a crash) replaces the file.
    await this.remove(name);
    const upload = this.bucket.openUploadStreamWithId(name as never, name);
    try {
      if (Buffer.isBuffer(from)) await pipeline([from], upload);
      else await pipeline(from, upload);
    } catch (err) {
      await this.remove(name).catch(() => undefined);
      throw err;
    }
  }

  async read(name: string): Promise<StoredFile | null> {
    checked(name);
    const [file] = await this.bucket.find({ _id: name as never }).toArray();
    if (!file) return null;
    return { stream: this.bucket.openDownloadStream(name as never), bytes: file.length };
  }

  async readAll(name: string): Promise<Buffer | null> {
    const found = await this.read(name);
    if (!found) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of found.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async remove(name: string): Promise<void> {
    checked(name);
    try {
      await this.bucket.delete(name as never);
    } catch (err) {
      // Already gone (GridFS says so with an error of its own).
      if (!/not found|FileNotFound/i.test(String((err as Error).message))) throw err;
    }
  }
}

/** Files beside the embedded database; GridFS when the operator runs their own MongoDB. */
export function createPhotoStorage(config: { mongodbUri: string | undefined; dataDir: string }, db: Db): PhotoStorage {
  return config.mongodbUri ? new GridFsStorage(db) : new DirectoryStorage(join(config.dataDir, 'photos'));
}
