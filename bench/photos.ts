// Photo re-encoding (issue 20): a 12-megapixel JPEG (4000 × 3000, camera-like noise so the encoder has real work)
// through the worker's encoder (server/photos/encode.ts: EXIF rotation, metadata dropped, WebP 1600 px + 320 px),
// one at a time as the worker does. Prints p50 and p95 per photo and the process's peak resident memory.
// Run alone on an idle machine: `npx tsx bench/photos.ts` (RUNS=20 by default). Target: p95 < 1.5 s.
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { encodePhoto } from '../server/photos/encode.js';

const RUNS = Number(process.env.RUNS ?? 20);

async function twelveMegapixelJpeg(): Promise<Buffer> {
  const width = 4000;
  const height = 3000;
  const raw = Buffer.alloc(width * height * 3);
  let seed = 42;
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    // A gradient with noise: compresses like a photo, not like a flat colour.
    raw[i] = ((i / 3) % width) / 16 + (seed & 63);
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const input = await twelveMegapixelJpeg();
let peakRss = process.memoryUsage().rss;
const baseRss = peakRss;
const watch = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 10);
const times: number[] = [];
await encodePhoto(input); // warm-up
for (let i = 0; i < RUNS; i++) {
  const start = performance.now();
  await encodePhoto(input);
  times.push(performance.now() - start);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}
clearInterval(watch);
times.sort((a, b) => a - b);
const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
console.log(
  `12-megapixel JPEG (${mb(input.length)} file) → WebP 1600 px + 320 px, ${RUNS} runs one at a time: ` +
    `p50 ${Math.round(percentile(times, 50))} ms, p95 ${Math.round(percentile(times, 95))} ms; ` +
    `peak RSS ${mb(peakRss)} (${mb(baseRss)} before)`,
);
