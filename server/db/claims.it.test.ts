import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { ObjectId } from 'mongodb';
import { Claims } from './claims.js';
import { scratchDatabase } from '../../test/scratch-db.js';

const { db } = await scratchDatabase('claims');

let clock = new Date('2026-01-01T00:00:00Z');
const now = () => clock;
const later = (ms: number) => (clock = new Date(clock.getTime() + ms));

const fresh = async (): Promise<Claims> => {
  const claims = new Claims(db, `claims_${randomBytes(4).toString('hex')}`, now);
  await claims.ensureIndexes();
  return claims;
};

it('gives each item to exactly one of many racing claimers', async () => {
  const claims = await fresh();
  const keys = Array.from({ length: 50 }, (_, i) => `item-${i}`);
  const holders = ['a', 'b', 'c', 'd', 'e'];
  const won = await Promise.all(holders.map((h) => claims.claim(keys, h, 60_000)));
  const all = won.flat();
  expect(all.sort()).toEqual([...keys].sort());
  for (const h of holders) expect([...(await claims.keysOf(h))].sort()).toEqual([...won[holders.indexOf(h)]!].sort());
});

it('keeps a live claim from others, and lets one taker (only one) take over a claim that ran out', async () => {
  const claims = await fresh();
  const key = new ObjectId();
  const typed = claims as unknown as Claims<ObjectId>;
  expect(await typed.claimOne(key, 'dead', 10_000)).toBe(true);
  later(5_000);
  expect(await typed.claimOne(key, 'other', 10_000)).toBe(false);

  later(6_000);
  const { live, expired } = await typed.all();
  expect(live).toEqual([]);
  expect(expired.map((c) => [c.key.toHexString(), c.holder])).toEqual([[key.toHexString(), 'dead']]);

  const takers = ['t1', 't2', 't3', 't4', 't5', 't6'];
  const results = await Promise.all(takers.map((t) => typed.claimOne(key, t, 10_000)));
  expect(results.filter(Boolean)).toHaveLength(1);
  const winner = takers[results.indexOf(true)]!;
  expect(await typed.keysOf(winner)).toEqual(new Set([key.toHexString()]));
  expect(await typed.keysOf('dead')).toEqual(new Set());
  // The take-over marker is not a claim.
  expect((await typed.all()).live.map((c) => c.holder)).toEqual([winner]);
});

it('renews a holder’s claims and tells it which it lost', async () => {
  const claims = await fresh();
  expect(await claims.claim(['x', 'y'], 'slow', 10_000)).toEqual(['x', 'y']);
  later(11_000);
  expect(await claims.claimOne('y', 'quick', 10_000)).toBe(true);
  expect(await claims.renew('slow', 10_000)).toEqual(new Set(['x']));
  later(9_000);
  // Renewed: still held.
  expect(await claims.claimOne('x', 'quick', 10_000)).toBe(false);
});

it('releases claims so the items can be claimed again at once; forget and prune remove them too', async () => {
  const claims = await fresh();
  await claims.claim(['p', 'q', 'r'], 'h1', 10_000);
  await claims.release('h1', ['p']);
  expect(await claims.claimOne('p', 'h2', 10_000)).toBe(true);
  await claims.release('h1');
  expect(await claims.claim(['q', 'r'], 'h2', 10_000)).toEqual(['q', 'r']);
  await claims.forget(['q']);
  expect(await claims.keysOf('h2')).toEqual(new Set(['p', 'r']));

  later(11_000);
  expect(await claims.prune(now())).toBe(2);
  expect((await claims.all()).expired).toEqual([]);
});
