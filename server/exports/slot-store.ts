// One export at a time per shop, across every API process: an export reads all of a shop's reviews or invitations
// (FerretDB scans the collection for it), so a shop (or a stolen session) asking for many at once could load the
// database for everyone. The slot is a claim (server/db/claims.ts) keyed by the shop, with a lease its holder renews
// while the file streams; a process that dies holding one frees it when the lease runs out.
import { randomUUID } from 'node:crypto';
import { Claims } from '../db/claims.js';
import type { Db } from '../db/index.js';

/** How long a slot lasts without renewal: the holder renews it every third of this while it streams. */
const LEASE_MS = 120_000;

export interface ExportSlot {
  /** Gives the slot back; safe to call more than once. */
  release(): Promise<void>;
}

export class ExportSlots {
  private readonly claims: Claims<string>;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.claims = new Claims<string>(db, 'export_claims', now);
  }

  ensureIndexes(): Promise<void> {
    return this.claims.ensureIndexes();
  }

  /** The shop's export slot, or null while another export of the shop runs. */
  async take(shopId: number): Promise<ExportSlot | null> {
    const holder = randomUUID();
    // Markers and claims that dead holders left behind (no TTL indexes on FerretDB): a collection of a few documents.
    await this.claims.prune(new Date(this.now().getTime() - LEASE_MS));
    if (!(await this.claims.claimOne(String(shopId), holder, LEASE_MS))) return null;
    const renewal = setInterval(() => {
      this.claims.renew(holder, LEASE_MS).catch(() => undefined);
    }, LEASE_MS / 3);
    renewal.unref();
    let released: Promise<void> | undefined;
    return {
      release: () => {
        clearInterval(renewal);
        released ??= this.claims.release(holder);
        return released;
      },
    };
  }
}
