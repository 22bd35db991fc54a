// A database of the test server (global-setup.ts) for one test file alone: connected when the file is collected,
// dropped and disconnected after its tests, after the file's own afterAll hooks (vitest runs them as a stack).
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { afterAll, inject } from 'vitest';

export async function scratchDatabase(prefix: string): Promise<{ db: Db; client: MongoClient }> {
  const client = new MongoClient(inject('mongoUri'));
  await client.connect();
  const db = client.db(`${prefix}_${randomBytes(6).toString('hex')}`);
  afterAll(async () => {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  });
  return { db, client };
}
