// An imported product review as stored (product-review-store.ts keeps them): types only, so the product surfaces
// that read them name what they handle without importing the store and the database behind it.
import type { ReviewPhoto } from '../reviews/model.js';
import type { ImportedProduct } from './rules.js';

export interface ImportedProductReview {
  _id: string;
  shopId: number;
  import_id: string;
  product: ImportedProduct;
  rating: number;
  title: string;
  text: string;
  name: string;
  /** Kept only so that an erasure request finds it: never shown, never written to. */
  email: string;
  country: string;
  origin: 'imported';
  imported_from: string;
  original_date: Date;
  experience_date: Date | null;
  incentivised: boolean;
  source_verified: boolean;
  reply: { text: string; date: Date } | null;
  /** Kept as data only: never shown or hot-linked; the worker fetches them into `photos` (photo-import.ts). */
  photo_urls: string[];
  /**
   * Its photos, fetched from `photo_urls` by the worker: the shape and states of a review's photos, keyed by the
   * photo records' `productReviewId` (photos/store.ts). Absent on reviews imported before photos were fetched.
   */
  photos?: ReviewPhoto[];
  /** `held`: unpublished at the source, waiting for the operator; `removed`: by the operator, or the import undone. */
  status: 'published' | 'held' | 'removed';
  source_status: string;
  removal_ground: string | null;
  created: Date;
  modified: Date;
}
