// What the embed app may send (contract items 3–6), checked with zod. The order data comes from the shop's page as
// the shop printed it: numbers may be strings, and the values are kept as given for the signature check, which
// must see exactly what the shop's plugin signed.
import { z } from 'zod';
import { isValidEmail, normalizeEmail } from '../email.js';
import { noSubRatings, type SubRatings } from '../reviews/rules.js';
import type { OrderFields } from '../consents/signature.js';
import {
  INVITE_DELAY_MAX_DAYS,
  ORDER_NUMBER_MAX,
  REVIEWER_NAME_MAX,
  REVIEW_TEXT_MAX,
} from '../../embed/shared/limits.js';

const DEFAULT_INVITE_DELAY = 5;

const digits = (max: number) => z.string().regex(new RegExp(`^\\s*-?\\d{1,${max}}\\s*$`), 'an integer');

const order = z.object({
  webshopId: z.union([z.number().int().positive(), digits(15)]),
  orderNumber: z.union([z.string().max(ORDER_NUMBER_MAX), z.number().int().nonnegative()]),
  email: z.string().max(320).nullish(),
  firstName: z.string().max(200).nullish(),
  inviteDelay: z.union([z.number().int(), digits(6), z.literal('')]).nullish(),
});

type RawOrder = z.infer<typeof order>;

/** The order data as stored: the order number an exact (trimmed) string, an address only when it is one. */
export interface OrderData {
  webshopId: number;
  orderNumber: string;
  /** Normalised; '' when the element carried none (or not a usable one). */
  email: string;
  firstName: string;
  inviteDelay: number;
}

export function orderData(raw: RawOrder): OrderData {
  const email = raw.email ? normalizeEmail(raw.email) : '';
  const delay =
    raw.inviteDelay === null || raw.inviteDelay === undefined || raw.inviteDelay === ''
      ? DEFAULT_INVITE_DELAY
      : Number(raw.inviteDelay);
  return {
    webshopId: Number(raw.webshopId),
    orderNumber: String(raw.orderNumber).trim(),
    email: isValidEmail(email) ? email : '',
    firstName: (raw.firstName ?? '').trim().slice(0, 100),
    inviteDelay: Math.min(INVITE_DELAY_MAX_DAYS, Math.max(0, delay)),
  };
}

/** The fields exactly as the page had them, for verifyOrderSignature. */
export function signedFields(raw: RawOrder): OrderFields {
  return {
    webshopId: raw.webshopId,
    orderNumber: raw.orderNumber,
    email: raw.email ?? null,
    firstName: raw.firstName ?? null,
    inviteDelay: raw.inviteDelay ?? null,
  };
}

/** An empty signature is no signature: some plugins print the key with nothing in it. */
const signature = z
  .union([z.string().max(1024), z.null()])
  .optional()
  .transform((s) => (s ? s : undefined));

export const verifySchema = z.object({ order, signature: z.string().min(1).max(1024) });

export const consentSchema = z.object({
  order,
  signature,
  choice: z.enum(['write_now', 'ask_later']),
  language: z.string().max(20),
  textVersion: z.string().trim().min(1).max(40),
});

const score = z.number().int().min(1).max(5);

const subScore = z.number().int().min(0).max(5);
const subRatings = z
  .object({ shippingtime: subScore, customerservice: subScore, pricequality: subScore, aftersale: subScore })
  .partial()
  .optional()
  .transform((r): SubRatings => ({ ...noSubRatings(), ...r }));

const comment = z
  .string()
  .max(REVIEW_TEXT_MAX)
  .optional()
  .transform((c) => c?.trim() || null);

const name = z.string().trim().min(1).max(REVIEWER_NAME_MAX);

const country = z
  .union([
    z
      .string()
      .trim()
      .regex(/^([A-Za-z]{2})?$/, 'a two-letter country code'),
    z.null(),
  ])
  .optional()
  .transform((c) => (c ?? '').toUpperCase());

const email = z.string().max(320).transform(normalizeEmail).refine(isValidEmail, 'a valid e-mail address');

/** Issue 20: photos uploaded first (POST /embed/{id}/photos), named by the ids the uploads answered. */
const photos = z
  .array(
    z.object({
      id: z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'a photo id from POST /embed/{id}/photos'),
      alt: z.string().trim().max(200).default(''),
    }),
  )
  .max(5, 'at most 5 photos')
  .optional();

export const popupReviewSchema = z.object({
  reviewToken: z.string().min(1).max(200),
  rating: score,
  ratings: subRatings,
  comment,
  name,
  country,
  email: z.union([email, z.literal(''), z.null()]).optional(),
  photos,
});

export const experienceSchema = z.object({
  rating: score,
  ratings: subRatings,
  comment,
  name,
  email,
  country,
  language: z.string().max(20).optional(),
  /** The month of the experience, `YYYY-MM`, as the writer names it (no order dates a form review). */
  experience_date: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month as YYYY-MM')
    .optional(),
  // Checked before validation (isHoneypotFilled): a filled one is answered as if accepted.
  website: z.unknown().optional(),
  photos,
});

/** The honeypot: a hidden field people leave empty and form-filling bots do not. */
export function isHoneypotFilled(body: Record<string, unknown>): boolean {
  const value = body.website;
  return value !== undefined && value !== null && value !== '';
}

/** `offset` and `limit` of reviews.json: digits, clamped into range; undefined when not a number. */
export function pagingParam(value: unknown, min: number, max: number, fallback: number): number | undefined {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !/^\s*\d{1,15}\s*$/.test(value)) return undefined;
  return Math.min(max, Math.max(min, Number(value)));
}
