// Shopper-facing text of the embed, one JSON file per language (only the language in use is loaded by the page).
// English is the reference: every other file has exactly its keys (checked in strings.test.ts).
import type en from './en.json';

export type Strings = typeof en;
export type StringKey = keyof Strings;

/** Fills `{name}` placeholders. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
