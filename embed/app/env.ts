// The running embed's context and text, set once by main.tsx before the first render.
import type { EmbedContext } from '../shared/context.js';
import { fill, pluralOf } from '../shared/text.js';
import type { PluralKey, StringKey, Strings } from '../strings/index.js';

export let ctx: EmbedContext;
export let S: Strings;
let rules: Intl.PluralRules;

export function setEnv(context: EmbedContext, strings: Strings): void {
  ctx = context;
  S = strings;
  rules = new Intl.PluralRules(context.lang);
}

/** A string with `{shop}`, `{brand}` and the given placeholders filled. */
export function t(key: StringKey, values: Record<string, string | number> = {}): string {
  return fill(S[key], { shop: ctx.shop.name, brand: ctx.brandName, ...values });
}

/** "2 recenzije", "5 recenzija": the count's plural form in the page's language, filled. */
export function plural(key: PluralKey, n: number): string {
  return fill(pluralOf(S[key], rules, n), { n });
}

/** 9.25 → "9.3" (or "9,3"): one decimal, in the page's language. */
export const score = (value: number): string =>
  value.toLocaleString(ctx.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** `YYYY-MM-DD` in the page's language, or as given when it is not a date. */
export function date(ymd: string): string {
  const d = new Date(`${ymd.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? ymd : d.toLocaleDateString(ctx.lang, { dateStyle: 'medium', timeZone: 'UTC' });
}

/** Only http(s) addresses become links (the page must never get a `javascript:` href from data). */
export const safeHref = (url: string | undefined): string | undefined =>
  url && /^https?:\/\//i.test(url) ? url : undefined;

interface ApiAnswer<T> {
  status: number;
  body: T;
}

/** A call to the embed API (`{base}/embed/{id}/…`): JSON, no cookies; status 0 when the network failed. */
export async function api<T = Record<string, unknown>>(path: string, body?: unknown): Promise<ApiAnswer<T>> {
  try {
    const response = await fetch(`${ctx.base}/embed/${ctx.id}/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
    });
    return { status: response.status, body: (await response.json().catch(() => ({}))) as T };
  } catch {
    return { status: 0, body: {} as T };
  }
}
