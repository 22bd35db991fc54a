// The dashboard's languages: English and Dutch, complete (strings/en.ts is the reference, strings/nl.ts must have
// every key). Chosen from the browser's languages on the first visit, switchable, remembered in localStorage.
import { signal } from '@preact/signals';
import { en, type Key } from './strings/en.js';
import { nl } from './strings/nl.js';

export const LANGUAGES = { en: 'English', nl: 'Nederlands' } as const;
export type Language = keyof typeof LANGUAGES;
const TABLES: Record<Language, Record<Key, string>> = { en, nl };
const LOCALES: Record<Language, string> = { en: 'en-GB', nl: 'nl-NL' };
const STORAGE_KEY = 'dashboard.language';

const isLanguage = (value: unknown): value is Language => typeof value === 'string' && Object.hasOwn(LANGUAGES, value);

/** The remembered choice, else the first of the browser's languages we have, else English. */
export function chooseLanguage(stored: string | null, browser: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of browser) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

function stored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export const language = signal<Language>(
  chooseLanguage(stored(), typeof navigator === 'undefined' ? [] : (navigator.languages ?? [])),
);

export function setLanguage(next: Language): void {
  language.value = next;
  document.documentElement.lang = next;
  try {
    localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // Private windows may refuse storage: the choice lasts for this visit.
  }
}

/** A string with `{name}` placeholders filled in. Reading `language` subscribes the component to a switch. */
export function t(key: Key, vars?: Record<string, string | number>): string {
  const text = TABLES[language.value][key];
  return vars ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole)) : text;
}

type PluralBase<K> = K extends `${infer B}_one` ? B : never;
/** `base_one` / `base_other` by the language's plural rule, with `{n}` formatted. */
export function tn(base: PluralBase<Key>, n: number, vars?: Record<string, string | number>): string {
  const form = new Intl.PluralRules(locale()).select(n) === 'one' ? 'one' : 'other';
  return t(`${base}_${form}` as Key, { n: number(n), ...vars });
}

const locale = () => LOCALES[language.value];
export const number = (n: number, digits = 0) =>
  new Intl.NumberFormat(locale(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
export const percent = (share: number) =>
  new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 0 }).format(share);
export function date(iso: string | null | undefined): string {
  if (!iso) return '–';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : new Intl.DateTimeFormat(locale(), { dateStyle: 'medium' }).format(d);
}
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '–';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}
/** `2026-03` as "Mar 2026" (short) or "March 2026". */
export function month(ym: string, style: 'short' | 'long' = 'short'): string {
  const [y, m] = ym.split('-').map(Number);
  if (!y || !m) return ym;
  return new Intl.DateTimeFormat(locale(), { month: style, year: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(y, m - 1, 1),
  );
}
