// Pieces several benches share: the memory a step takes, and a bench shop seeded with reviews in their stored shape.
import { setTimeout as pause } from 'node:timers/promises';
import type { Db } from 'mongodb';

const MB = 1024 * 1024;
const DAY = 86_400_000;

export interface Measured<T> {
  value: T;
  ms: number;
  /** Peak growth over the step, in MB. */
  heapMb: number;
  rssMb: number;
}

/**
 * Runs one step and reports its time and peak memory. Memory is sampled every 250 ms after a full collection
 * (`--expose-gc`): what the process still holds then, not the garbage a busy stream leaves for the collector (which
 * V8 lets grow with the heap limit, not with the data). Without `--expose-gc` the samples include garbage.
 */
export async function measureMemory<T>(step: () => Promise<T>): Promise<Measured<T>> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  await pause(100);
  gc?.();
  const base = process.memoryUsage();
  let heap = base.heapUsed;
  let rss = base.rss;
  const sample = () => {
    const m = process.memoryUsage();
    heap = Math.max(heap, m.heapUsed);
    rss = Math.max(rss, m.rss);
  };
  const sampler = setInterval(() => {
    gc?.();
    sample();
  }, 250);
  const started = performance.now();
  try {
    const value = await step();
    const ms = performance.now() - started;
    sample();
    return { value, ms, heapMb: (heap - base.heapUsed) / MB, rssMb: (rss - base.rss) / MB };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * One bench shop (`id`, on `host`) with `count` reviews made by `review(n, now)`, inserted 1,000 at a time, and the
 * counters the service numbers shops and reviews from.
 */
export async function seedShopWithReviews(
  db: Db,
  shop: { id: number; host: string },
  count: number,
  review: (n: number, now: number) => object,
): Promise<void> {
  const now = Date.now();
  const created = new Date(now - 800 * DAY);
  const url = `https://${shop.host}/`;
  await db.collection('webshops').insertOne({
    id: shop.id,
    code: 'code1'.padEnd(32, '0'),
    name: 'Bench Shop',
    url,
    host: shop.host,
    logo: '',
    address: { street: '', housenumber: '', postalcode: '', city: '', country: '' },
    languages: [{ name: 'English', url, iso: 'en', all: false, main: true }],
    hero_color: '',
    hero_image: '',
    reply_access: true,
    approved_date: null,
    partner_assurances: {},
    sidebar: {},
    require_signed_order_data: false,
    created,
    updated: created,
  } as never);
  await db.collection('counters').insertMany([
    { _id: 'webshops' as never, seq: 1 },
    { _id: 'reviews' as never, seq: count },
  ]);
  for (let from = 1; from <= count; from += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - from + 1) }, (_, i) => review(from + i, now));
    await db.collection('reviews').insertMany(batch as never[]);
  }
}
