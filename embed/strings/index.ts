// Shopper-facing text of the embed, one JSON file per language (only the language in use is loaded by the page).
// English is the reference: every other file has exactly its keys, and each plural text has exactly the plural
// categories of its language (checked in strings.test.ts). Filling and plural forms: ../shared/text.ts.
import type en from './en.json';

export type Strings = typeof en;
export type StringKey = { [K in keyof Strings]: Strings[K] extends string ? K : never }[keyof Strings];
export type PluralKey = Exclude<keyof Strings, StringKey>;
