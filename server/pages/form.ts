// The review form of the /review and /edit pages, posted urlencoded: reading its fields into values, and the
// problems to show next to them. Pure functions; the routes store what passes.
import type { Fields } from '../http/body.js';
import { SUB_RATINGS, noSubRatings, type SubRatings } from '../reviews/rules.js';
import type { PageStrings } from './strings.js';
import { REVIEWER_NAME_MAX, REVIEW_TEXT_MAX } from '../../embed/shared/limits.js';
import { PHOTO_LIMITS } from '../photos/detect.js';

export const LIMITS = {
  comment: REVIEW_TEXT_MAX,
  name: REVIEWER_NAME_MAX,
  productText: REVIEW_TEXT_MAX,
  photoAlt: PHOTO_LIMITS.alt,
} as const;

interface ProductAnswer {
  /** 1–5, or null when not rated. */
  rating: number | null;
  content: string;
}

export interface ReviewFormValues {
  /** 1–5, or null while not chosen. */
  rating: number | null;
  ratings: SubRatings;
  comment: string;
  name: string;
  country: string;
  products: ProductAnswer[];
  /** The descriptions typed for the photo slots (the review page only; the files themselves cannot be kept). */
  photoAlts?: string[];
}

export interface FieldProblem {
  /** The id of the control it belongs to (the error summary links to it). */
  field: string;
  message: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A score from a radio group: `min`–5, anything else (absent, arrays, junk) is null. */
function score(value: unknown, min: number): number | null {
  const v = text(value).trim();
  if (!/^\d$/.test(v)) return null;
  const n = Number(v);
  return n >= min && n <= 5 ? n : null;
}

/** Line breaks as one form: browsers send CRLF, and a limit should not count them twice. */
const clean = (value: unknown) => text(value).replace(/\r\n?/g, '\n').trim();

export const productField = (index: number, part: 'rating' | 'content') => `product_${index}_${part}`;

export function readReviewForm(fields: Fields, productCount: number): ReviewFormValues {
  const ratings = noSubRatings();
  for (const key of SUB_RATINGS) ratings[key] = score(fields[key], 0) ?? 0;
  return {
    rating: score(fields.rating, 1),
    ratings,
    comment: clean(fields.comment),
    name: clean(fields.name).replace(/\s+/g, ' '),
    country: clean(fields.country).toUpperCase(),
    products: Array.from({ length: productCount }, (_, i) => ({
      rating: score(fields[productField(i, 'rating')], 1),
      content: clean(fields[productField(i, 'content')]),
    })),
  };
}

export const photoField = (slot: number) => `photo_${slot}`;
export const photoAltField = (slot: number) => `photo_${slot}_alt`;

/** The photo slots' descriptions, one per slot (1-based fields, 0-based array). */
export function readPhotoAlts(fields: Fields, slots: number): string[] {
  return Array.from({ length: slots }, (_, i) => clean(fields[photoAltField(i + 1)]).replace(/\s+/g, ' '));
}

export function formProblems(values: ReviewFormValues, t: PageStrings, countries: readonly string[]): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (values.rating === null) problems.push({ field: 'rating-1', message: t.ratingRequired });
  if (values.comment.length > LIMITS.comment) problems.push({ field: 'comment', message: t.tooLong(LIMITS.comment) });
  if (!values.name || values.name.length > LIMITS.name) problems.push({ field: 'name', message: t.nameRequired });
  if (values.country && !countries.includes(values.country))
    problems.push({ field: 'country', message: t.countryInvalid });
  values.products.forEach((p, i) => {
    if (p.content.length > LIMITS.productText) {
      problems.push({ field: productField(i, 'content'), message: t.tooLong(LIMITS.productText) });
    }
  });
  values.photoAlts?.forEach((alt, i) => {
    if (alt.length > LIMITS.photoAlt)
      problems.push({ field: photoAltField(i + 1), message: t.tooLong(LIMITS.photoAlt) });
  });
  return problems;
}
