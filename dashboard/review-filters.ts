// The reviews page's filters, as the page's address carries them (pure: the page and its tests share it).
import { query } from './api.js';

export interface Filters {
  q: string;
  rating: string;
  status: string;
  language: string;
  reply: string;
  unread: boolean;
  from: string;
  to: string;
}
export const NO_FILTERS: Filters = {
  q: '',
  rating: '',
  status: '',
  language: '',
  reply: '',
  unread: false,
  from: '',
  to: '',
};
export const STATUSES = ['published', 'quarantined', 'awaiting_confirmation', 'deleted'] as const;
export const LANGUAGE_CODES = ['nl', 'en', 'de', 'fr', 'es', 'it', 'hr'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters in the page's address (so a reload or a shared link shows the same list); unknown values are dropped. */
export function filtersOf(search: string): { filters: Filters; page: number } {
  const p = new URLSearchParams(search);
  const get = (key: string, ok: (v: string) => boolean) => {
    const value = p.get(key) ?? '';
    return ok(value) ? value : '';
  };
  const filters: Filters = {
    q: (p.get('q') ?? '').slice(0, 200),
    rating: get('rating', (v) => /^[1-5]$/.test(v)),
    status: get('status', (v) => (STATUSES as readonly string[]).includes(v)),
    language: get('language', (v) => (LANGUAGE_CODES as readonly string[]).includes(v)),
    reply: get('reply', (v) => v === 'with' || v === 'without'),
    unread: p.get('unread') === '1',
    from: get('from', (v) => DAY.test(v)),
    to: get('to', (v) => DAY.test(v)),
  };
  return { filters, page: Math.max(1, Math.min(1_000_000, Number(p.get('page')) || 1)) };
}

/** The query string of the filters and page that are set. */
export const filterQuery = (filters: Filters, page: number) => query({ ...filters, page: page > 1 ? page : undefined });
