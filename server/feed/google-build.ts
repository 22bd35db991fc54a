// The built Google feed of a shop: a gzip file under DATA_DIR/google-feeds, written by streaming the shop's
// published reviews in batches (memory stays bounded whatever the shop's size), and kept until the shop's public
// data changes. The file is named by the shop's public review version and its settings' `updated`: a fetch that
// finds the file for the current names answers it; else one build runs (per shop and version in this process) and
// the older files of the shop are removed. Other processes on the host find the same file (docs/decisions/feed.md).
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { ReviewStore } from '../reviews/store.js';
import type { Webshop } from '../webshops/store.js';
import { feedHead, feedTail, type GoogleFeedContext, productReviewsOf, productReviewXml } from './google-feed.js';
import type { FeedKey } from './key-store.js';
import { ReadinessCounter, type ReadinessTally } from './readiness.js';

/** Reviews read from the database per batch of the build. */
const BUILD_BATCH = 500;

export interface BuiltFeed {
  /** The gzip file. */
  file: string;
  /** Of the gzip file. */
  bytes: number;
  /** A digest of the XML, as an entity tag (quoted). */
  etag: string;
  lastModified: Date;
  tally: ReadinessTally;
}

interface Meta {
  etag: string;
  lastModified: string;
  bytes: number;
  tally: ReadinessTally;
}

interface Deps {
  reviews: Pick<ReviewStore, 'versionsOf' | 'publishedForFeed'>;
  dir: string;
  brandName: string;
  baseUrl: string;
  now: () => Date;
}

export class GoogleFeedFiles {
  private readonly building = new Map<string, Promise<BuiltFeed>>();

  constructor(private readonly deps: Deps) {}

  /** The feed as the shop's public data stands now: the built file, or a build of it. */
  async current(shop: Pick<Webshop, 'id' | 'name' | 'url' | 'logo' | 'updated'>, key: FeedKey): Promise<BuiltFeed> {
    const version = (await this.deps.reviews.versionsOf(shop.id)).public;
    const prefix = `${shop.id}-${key.files}-`;
    const base = `${prefix}${version}-${new Date(shop.updated).getTime()}`;
    const built = await this.read(base);
    if (built) return built;
    let running = this.building.get(base);
    if (!running) {
      running = this.build(shop, base, prefix).finally(() => this.building.delete(base));
      this.building.set(base, running);
    }
    return running;
  }

  private async read(base: string): Promise<BuiltFeed | null> {
    try {
      const meta = JSON.parse(await readFile(join(this.deps.dir, `${base}.json`), 'utf8')) as Meta;
      return { ...meta, file: join(this.deps.dir, `${base}.xml.gz`), lastModified: new Date(meta.lastModified) };
    } catch {
      return null;
    }
  }

  private async build(
    shop: Pick<Webshop, 'id' | 'name' | 'url' | 'logo'>,
    base: string,
    prefix: string,
  ): Promise<BuiltFeed> {
    const { dir } = this.deps;
    await mkdir(dir, { recursive: true });
    const ctx: GoogleFeedContext = { shop, brandName: this.deps.brandName, baseUrl: this.deps.baseUrl };
    const counter = new ReadinessCounter(this.deps.now());
    const digest = createHash('sha256');
    const reviews = this.deps.reviews;
    async function* parts(): AsyncGenerator<string> {
      let opened = false;
      const head = feedHead(ctx);
      digest.update(head);
      yield head;
      for await (const batch of reviews.publishedForFeed(shop.id, BUILD_BATCH)) {
        let out = '';
        for (const review of batch) {
          counter.add(review);
          for (const { entry, leftOut } of productReviewsOf(review)) {
            if (leftOut) continue;
            if (!opened) out += '<reviews>';
            opened = true;
            out += productReviewXml(entry, ctx);
          }
        }
        if (out) {
          digest.update(out);
          yield out;
        }
      }
      const tail = feedTail(opened);
      digest.update(tail);
      yield tail;
    }
    const file = join(dir, `${base}.xml.gz`);
    const temp = `${file}.${randomBytes(6).toString('hex')}.part`;
    try {
      await pipeline(Readable.from(parts()), createGzip(), createWriteStream(temp));
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    const meta: Meta = {
      etag: `"${digest.digest('base64url').slice(0, 32)}"`,
      lastModified: new Date(Math.floor(this.deps.now().getTime() / 1000) * 1000).toISOString(),
      bytes: (await stat(file)).size,
      tally: counter.result(),
    };
    // The metadata last: its presence says the file is whole.
    const metaFile = join(dir, `${base}.json`);
    await writeFile(`${metaFile}.part`, JSON.stringify(meta));
    await rename(`${metaFile}.part`, metaFile);
    await this.removeOlder(prefix, base);
    return { ...meta, file, lastModified: new Date(meta.lastModified) };
  }

  /** The shop's files of earlier versions (an answer still sending one keeps it open: removal waits for it). */
  private async removeOlder(prefix: string, base: string): Promise<void> {
    const names = await readdir(this.deps.dir).catch(() => [] as string[]);
    const older = names.filter((n) => n.startsWith(prefix) && !n.startsWith(`${base}.`) && !n.endsWith('.part'));
    await Promise.all(older.map((n) => rm(join(this.deps.dir, n), { force: true })));
  }
}
