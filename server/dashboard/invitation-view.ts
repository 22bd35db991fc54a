// The dashboard's read model of a shop's invitations, held in memory (shop-view.ts says how it stays up to date and
// bounded): the invitations page lists them newest first and searches a substring of the address or order number,
// and the integration page counts the plugins of the recent ones. On the embedded database each of those was a read
// of the whole invitations collection (13.6 s for a first page at 31,300 invitations; BENCHMARKS.md). Invitations do
// not change once added: the counter is InvitationStore.counter (added and erased), the changes are those created
// since the last check, and an erasure reloads the view.
import type { ObjectId } from 'mongodb';
import type { ListedRecord } from '../invitations/model.js';
import { ShopView, type HeldShop, type RowKind, type RowSource, type ShopViewLimits } from './shop-view.js';
import type { Cache } from '../cache.js';

/** An invitation as the view holds it. */
export interface InvitationRow {
  /** The `_id` in hex: the key of its sending records. */
  id: string;
  /** ms since the epoch: sorting compares numbers. */
  created: number;
  scheduled: Date;
  email: string;
  order: string;
  /** The "same address and order" key (InvitationStore's dedupe). */
  dedupe: string;
  name: string;
  language: string;
  client: string | null;
  platform_version: string | null;
  plugin_version: string | null;
  /** Address and order number, lower-cased: where a search looks. */
  text: string;
}

function toInvitationRow(i: ListedRecord): InvitationRow {
  return {
    id: i._id.toHexString(),
    created: i.created.getTime(),
    scheduled: i.scheduled,
    email: i.email,
    order: i.order,
    dedupe: i.dedupe,
    name: i.customer_name,
    language: i.language,
    client: i.client,
    platform_version: i.platform_version,
    plugin_version: i.plugin_version,
    text: `${i.email}\n${i.order}`.toLowerCase(),
  };
}

const textBytes = (s: string | null) => 2 * (s?.length ?? 0);

const INVITATION_ROWS: RowKind<InvitationRow> = {
  key: (r) => r.id,
  // An invitation never changes once added: a second sighting is the same row.
  version: () => 0,
  bytes: (r) =>
    200 +
    textBytes(r.id) +
    textBytes(r.email) +
    textBytes(r.order) +
    textBytes(r.dedupe) +
    textBytes(r.name) +
    textBytes(r.client) +
    textBytes(r.platform_version) +
    textBytes(r.plugin_version) +
    textBytes(r.text),
  // The id (an ObjectId: time, then a counter) orders those added in the same millisecond.
  newestFirst: (a, b) => b.created - a.created || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
};

/** What the view reads of the invitations (invitations/store.ts has them), and the writes it follows. */
export interface ViewInvitations {
  changeCounters(shopId: number): Promise<{ all: number; removals: number }>;
  allOfShops(shopIds: readonly number[], batchSize: number): AsyncGenerator<ListedRecord[]>;
  createdSince(shopId: number, since: Date, batchSize: number): AsyncGenerator<ListedRecord[]>;
  onChange(listener: (shopId: number, change: { added: ListedRecord } | { erased: ObjectId[] }) => void): void;
}

function invitationRows(invitations: ViewInvitations): RowSource<InvitationRow> {
  const rows = async function* (batches: AsyncIterable<ListedRecord[]>) {
    for await (const batch of batches) yield batch.map(toInvitationRow);
  };
  return {
    counter: (shopId) => invitations.changeCounters(shopId),
    all: async function* (shopIds, size) {
      for await (const batch of invitations.allOfShops(shopIds, size))
        yield batch.map((i) => ({ shopId: i.shopId, row: toInvitationRow(i) }));
    },
    changedSince: (shopId, since, size) => rows(invitations.createdSince(shopId, since, size)),
    subscribe: (apply) =>
      invitations.onChange((shopId, change) =>
        apply(
          shopId,
          'erased' in change
            ? { removed: change.erased.map((id) => id.toHexString()) }
            : { row: toInvitationRow(change.added) },
        ),
      ),
  };
}

export class InvitationView {
  private readonly view: ShopView<InvitationRow>;

  constructor(
    invitations: ViewInvitations,
    cache: Cache<HeldShop<InvitationRow>>,
    limits: ShopViewLimits,
    clock: () => number = Date.now,
  ) {
    this.view = new ShopView(invitationRows(invitations), INVITATION_ROWS, cache, limits, clock);
  }

  /** A page of the shop's invitations, newest first, those whose address or order contains `q` (any case) if given. */
  page(
    shopId: number,
    q: string | undefined,
    offset: number,
    limit: number,
  ): Promise<{ items: InvitationRow[]; total: number }> {
    const needle = q?.toLowerCase();
    return this.view.page(shopId, (row) => needle === undefined || row.text.includes(needle), offset, limit);
  }

  /** The shop's newest invitations created at or after `since`, at most `limit` (for the plugins calling). */
  async newestSince(shopId: number, since: Date, limit: number): Promise<InvitationRow[]> {
    const from = since.getTime();
    const rows = await this.view.rows(shopId);
    if (rows) {
      const found: InvitationRow[] = [];
      for (const row of rows) {
        if (row.created < from || found.length === limit) break;
        found.push(row);
      }
      return found;
    }
    return (await this.view.page(shopId, (row) => row.created >= from, 0, limit)).items;
  }

  /** Which of these dedupe keys the shop's invitations hold already, as far as this view knows. */
  async known(shopId: number, keys: Iterable<string>): Promise<Set<string>> {
    const rows = await this.view.rows(shopId);
    const asked = new Set(keys);
    const found = new Set<string>();
    for (const row of rows ?? []) if (asked.has(row.dedupe)) found.add(row.dedupe);
    return found;
  }

  holds(shopId: number): boolean {
    return this.view.holds(shopId);
  }

  warmUp(shopIds: Iterable<number>): Promise<void> {
    return this.view.warmUp(shopIds);
  }
}
