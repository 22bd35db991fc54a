// A shop's product index as held in memory, changed in place one review at a time (read-model.ts): a write of a
// review replaces that review's entries, so only the products it is (or was) in are built again (at the next read,
// once however many writes came); the rest stay the same objects. A product's entry is replaced by a new object, never mutated: a request rendering it meanwhile
// keeps a consistent copy.
import {
  buildProducts,
  identityKey,
  ProductLookup,
  type ProductEntry,
  type ProductInfo,
  type ProductReview,
} from './rules.js';

export interface ReviewEntry {
  info: ProductInfo;
  review: ProductReview;
}

interface HeldProduct {
  /** Each review's own description of the product, in the order they came. */
  entries: ReviewEntry[];
  /** The product as the surfaces show it (buildProducts over `entries`). */
  entry: ProductEntry;
}

/** The key of the imported product reviews' entries (rules.ts importedProductReviewOf). */
const isImported = (reviewKey: string) => reviewKey.startsWith('i:');

export class HeldProducts {
  /** Product identity key → the product. */
  private readonly products = new Map<string, HeldProduct>();
  /** Review key (`<id>`, `i:<key>`) → the products it is in. */
  private readonly byReview = new Map<string, Set<string>>();
  private lookupBuilt: ProductLookup | null = null;
  /** Products changed since the last read: built again once at the next read (an import writes thousands at once). */
  private readonly dirty = new Set<string>();
  /** Review entries held (a review of two products counts twice). */
  entryCount = 0;

  constructor(entries: Iterable<ReviewEntry>) {
    const added = new Set<string>();
    for (const e of entries) {
      const key = this.add(e);
      if (key) added.add(key);
    }
    this.rebuild(added);
  }

  /** Every reviewed product, the first reviewed first. */
  get all(): readonly ProductEntry[] {
    return this.lookup.products;
  }

  /** The product `asked` names (rules.ts ProductLookup). */
  find(asked: string): ProductEntry | undefined {
    return this.lookup.find(asked);
  }

  /** What one review now says: its entries replace those it had (none: it is no longer published). */
  replace(reviewKey: string, entries: readonly ReviewEntry[]): void {
    for (const key of this.remove(reviewKey)) this.dirty.add(key);
    for (const e of entries) {
      const key = this.add(e);
      if (key) this.dirty.add(key);
    }
  }

  /** Every imported product review at once (an import's decision changes many): these replace those held. */
  replaceImported(entries: readonly ReviewEntry[]): void {
    for (const reviewKey of [...this.byReview.keys()].filter(isImported))
      for (const key of this.remove(reviewKey)) this.dirty.add(key);
    for (const e of entries) {
      const key = this.add(e);
      if (key) this.dirty.add(key);
    }
  }

  private get lookup(): ProductLookup {
    if (this.dirty.size) {
      this.rebuild(this.dirty);
      this.dirty.clear();
    }
    // Built again only after a change added or removed a product or changed one: from memory, one pass.
    this.lookupBuilt ??= new ProductLookup([...this.products.values()].map((p) => p.entry));
    return this.lookupBuilt;
  }

  /** Adds one entry; the product's key, or undefined for a product without any id (never shown). */
  private add(e: ReviewEntry): string | undefined {
    const key = identityKey(e.info);
    if (key === undefined) return undefined;
    const held = this.products.get(key);
    if (held) held.entries.push(e);
    else this.products.set(key, { entries: [e], entry: { key, info: e.info, reviews: [] } });
    const products = this.byReview.get(e.review.key) ?? new Set<string>();
    products.add(key);
    this.byReview.set(e.review.key, products);
    this.entryCount++;
    return key;
  }

  /** Removes the review's entries; the products they were in. */
  private remove(reviewKey: string): Set<string> {
    const products = this.byReview.get(reviewKey);
    if (!products) return new Set();
    this.byReview.delete(reviewKey);
    for (const key of products) {
      const held = this.products.get(key)!;
      const kept = held.entries.filter((e) => e.review.key !== reviewKey);
      this.entryCount -= held.entries.length - kept.length;
      held.entries = kept;
    }
    return products;
  }

  /** The touched products built again from their entries (gone when none is left). */
  private rebuild(keys: Iterable<string>): void {
    for (const key of keys) {
      const held = this.products.get(key);
      if (!held) continue;
      if (held.entries.length === 0) this.products.delete(key);
      else held.entry = buildProducts(held.entries)[0]!;
      this.lookupBuilt = null;
    }
  }
}
