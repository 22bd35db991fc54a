// The seven languages the service speaks, and the mapping from the many forms shop plugins send
// (`nl`, `nld`, `nl_NL`, `de-DE`, a country code such as `be`, `cus`, …) to one of them.

export const LANGUAGES = ['nl', 'en', 'de', 'fr', 'es', 'it', 'hr'] as const;
export type Language = (typeof LANGUAGES)[number];

/** ISO 639-3 codes used by the embeds and the widget. */
export const ISO3: Record<Language, string> = {
  nl: 'nld',
  en: 'eng',
  de: 'deu',
  fr: 'fra',
  es: 'spa',
  it: 'ita',
  hr: 'hrv',
};

export const LANGUAGE_NAMES: Record<Language, string> = {
  nl: 'Nederlands',
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  hr: 'Hrvatski',
};

const FROM_ISO3: Record<string, Language> = Object.fromEntries(
  Object.entries(ISO3).map(([two, three]) => [three, two as Language]),
);
// Bibliographic 639-2 codes some systems send.
Object.assign(FROM_ISO3, { dut: 'nl', ger: 'de', fre: 'fr', scr: 'hr' });

/** Country codes whose main language we support, for plugins that send the shop's country as its language. */
const FROM_COUNTRY: Record<string, Language> = {
  be: 'nl',
  at: 'de',
  ch: 'de',
  li: 'de',
  lu: 'fr',
  gb: 'en',
  uk: 'en',
  us: 'en',
  ie: 'en',
  ca: 'en',
  au: 'en',
  nz: 'en',
  mx: 'es',
  ar: 'es',
  co: 'es',
  cl: 'es',
  pe: 'es',
  sm: 'it',
  va: 'it',
  ba: 'hr',
  mc: 'fr',
  sr: 'nl',
};

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

/** Maps what a client sent to a supported language, or undefined when nothing fits (then use the shop's default). */
export function normalizeLanguage(input: unknown): Language | undefined {
  if (typeof input !== 'string') return undefined;
  const lower = input.trim().toLowerCase();
  if (!lower) return undefined;
  // Only the first part is used: splitting all of a 4 MB `---…` made 4 million strings.
  const [head = ''] = lower.split(/[-_]/, 1);
  if (isLanguage(head)) return head;
  if (FROM_ISO3[head]) return FROM_ISO3[head];
  return FROM_COUNTRY[head];
}
