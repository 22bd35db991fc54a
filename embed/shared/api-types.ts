// The embed API's answers (server/embed/api.ts builds them, the embed reads them): one set of types for both sides.
// Types only: nothing here reaches either bundle. The embed treats fields added later as optional, because a page
// may still run an app built before them against a newer server, or the other way round.
import type { Settings } from './settings.js';

type Badge =
  | { key: 'approved'; since: string }
  | { key: 'verified_share'; value: number }
  | { key: 'member_years'; value: number };

/** `GET {base}/embed/{id}/shop.json` */
export interface Shop {
  id: number;
  name: string;
  url: string;
  page: string;
  logo: string;
  language: string;
  languages: string[];
  /** 1–10 with one decimal; 0 without reviews. */
  score: number;
  count: number;
  badges: Badge[];
  settings: Partial<Settings>;
  /** The shop accepts only signed order data: an unsigned order-data element gets no dialog. */
  require_signed_order_data?: boolean;
}

/** How a review came to us (issue 11): shown as a label on each review. */
type Origin = 'verified_order' | 'email_confirmed' | 'imported';

/** One review in `GET {base}/embed/{id}/reviews.json`. */
export interface EmbedReview {
  /** The public id: also in the report form's address, `{base}/reviews/{id}/report`. */
  id: number;
  name: string;
  rating: number;
  ratings?: Record<string, number>;
  comment: string | null;
  date: string;
  country: string;
  verified: boolean;
  origin?: Origin;
  incentivised?: boolean;
  /** The platform an imported review came from. */
  imported_from?: string | null;
  reply: string | null;
  reply_date?: string | null;
  /** Issue 20: its shown photos (absent when it has none). */
  photos?: { url: string; thumb_url: string; width: number; height: number; alt: string }[];
}

/** `GET {base}/embed/{id}/reviews.json?offset=&limit=` */
export interface ReviewsPage {
  total: number;
  reviews: EmbedReview[];
}

/** `POST {base}/embed/{id}/order/verify` */
export interface VerifyAnswer {
  valid: boolean;
  recorded: boolean;
}

/** `POST {base}/embed/{id}/consent` (201) */
export interface ConsentAnswer {
  recorded: true;
  signed: boolean;
  reviewToken?: string;
}

/** `POST {base}/embed/{id}/reviews` and `…/experiences` (201 or 202): `published`, or waiting for the writer. */
export interface ReviewAnswer {
  status: string;
  id?: number;
}
