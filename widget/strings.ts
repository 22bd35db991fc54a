// Every text the widget and the rich snippet show, in the seven widget languages, in one place.
// Plurals go through Intl.PluralRules (Croatian has three forms); numbers and dates through Intl.
import type { Language } from '../server/languages.js';

export interface Strings {
  /** Noun after a review count, by plural category (`one`, `few`, `other`). */
  reviews: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
  outOf: (value: string, best: string) => string;
  noReviews: string;
  anonymous: string;
  replyFrom: (shop: string) => string;
  newTab: string;
  title: (shop: string) => string;
  carousel: string;
  slideOf: (index: number, total: number) => string;
  previous: string;
  next: string;
  pause: string;
  play: string;
  readAll: string;
}

export const STRINGS: Record<Language, Strings> = {
  en: {
    reviews: { one: 'review', other: 'reviews' },
    outOf: (v, b) => `${v} out of ${b}`,
    noReviews: 'No reviews yet',
    anonymous: 'Anonymous',
    replyFrom: (s) => `Reply from ${s}`,
    newTab: '(opens in a new tab)',
    title: (s) => `Reviews of ${s}`,
    carousel: 'Customer reviews',
    slideOf: (i, n) => `${i} of ${n}`,
    previous: 'Previous review',
    next: 'Next review',
    pause: 'Pause',
    play: 'Play',
    readAll: 'Read all reviews',
  },
  nl: {
    reviews: { one: 'beoordeling', other: 'beoordelingen' },
    outOf: (v, b) => `${v} van de ${b}`,
    noReviews: 'Nog geen beoordelingen',
    anonymous: 'Anoniem',
    replyFrom: (s) => `Reactie van ${s}`,
    newTab: '(opent in een nieuw tabblad)',
    title: (s) => `Beoordelingen van ${s}`,
    carousel: 'Klantbeoordelingen',
    slideOf: (i, n) => `${i} van ${n}`,
    previous: 'Vorige beoordeling',
    next: 'Volgende beoordeling',
    pause: 'Pauzeren',
    play: 'Afspelen',
    readAll: 'Lees alle beoordelingen',
  },
  de: {
    reviews: { one: 'Bewertung', other: 'Bewertungen' },
    outOf: (v, b) => `${v} von ${b}`,
    noReviews: 'Noch keine Bewertungen',
    anonymous: 'Anonym',
    replyFrom: (s) => `Antwort von ${s}`,
    newTab: '(öffnet in einem neuen Tab)',
    title: (s) => `Bewertungen von ${s}`,
    carousel: 'Kundenbewertungen',
    slideOf: (i, n) => `${i} von ${n}`,
    previous: 'Vorherige Bewertung',
    next: 'Nächste Bewertung',
    pause: 'Pausieren',
    play: 'Abspielen',
    readAll: 'Alle Bewertungen lesen',
  },
  fr: {
    reviews: { one: 'avis', other: 'avis' },
    outOf: (v, b) => `${v} sur ${b}`,
    noReviews: 'Pas encore d’avis',
    anonymous: 'Anonyme',
    replyFrom: (s) => `Réponse de ${s}`,
    newTab: '(s’ouvre dans un nouvel onglet)',
    title: (s) => `Avis sur ${s}`,
    carousel: 'Avis clients',
    slideOf: (i, n) => `${i} sur ${n}`,
    previous: 'Avis précédent',
    next: 'Avis suivant',
    pause: 'Pause',
    play: 'Lecture',
    readAll: 'Lire tous les avis',
  },
  es: {
    reviews: { one: 'reseña', other: 'reseñas' },
    outOf: (v, b) => `${v} de ${b}`,
    noReviews: 'Todavía no hay reseñas',
    anonymous: 'Anónimo',
    replyFrom: (s) => `Respuesta de ${s}`,
    newTab: '(se abre en una pestaña nueva)',
    title: (s) => `Reseñas de ${s}`,
    carousel: 'Reseñas de clientes',
    slideOf: (i, n) => `${i} de ${n}`,
    previous: 'Reseña anterior',
    next: 'Reseña siguiente',
    pause: 'Pausar',
    play: 'Reproducir',
    readAll: 'Leer todas las reseñas',
  },
  it: {
    reviews: { one: 'recensione', other: 'recensioni' },
    outOf: (v, b) => `${v} su ${b}`,
    noReviews: 'Ancora nessuna recensione',
    anonymous: 'Anonimo',
    replyFrom: (s) => `Risposta di ${s}`,
    newTab: '(si apre in una nuova scheda)',
    title: (s) => `Recensioni di ${s}`,
    carousel: 'Recensioni dei clienti',
    slideOf: (i, n) => `${i} di ${n}`,
    previous: 'Recensione precedente',
    next: 'Recensione successiva',
    pause: 'Pausa',
    play: 'Riproduci',
    readAll: 'Leggi tutte le recensioni',
  },
  hr: {
    reviews: { one: 'recenzija', few: 'recenzije', other: 'recenzija' },
    outOf: (v, b) => `${v} od ${b}`,
    noReviews: 'Još nema recenzija',
    anonymous: 'Anonimno',
    replyFrom: (s) => `Odgovor trgovine ${s}`,
    newTab: '(otvara se u novoj kartici)',
    title: (s) => `Recenzije za ${s}`,
    carousel: 'Recenzije kupaca',
    slideOf: (i, n) => `${i} od ${n}`,
    previous: 'Prethodna recenzija',
    next: 'Sljedeća recenzija',
    pause: 'Pauziraj',
    play: 'Pokreni',
    readAll: 'Pročitajte sve recenzije',
  },
};

/** Formatting helpers bound to one language. */
export interface Locale {
  language: Language;
  t: Strings;
  /** `9.2` / `9,2`: one decimal at most. */
  number(value: number): string;
  /** The noun for a count, e.g. `reviews` for 12. */
  reviewNoun(count: number): string;
  /** `12 reviews`. */
  reviewCount(count: number): string;
  date(date: Date): string;
}

const locales = new Map<Language, Locale>();

export function localeFor(language: Language): Locale {
  let locale = locales.get(language);
  if (locale) return locale;
  const t = STRINGS[language];
  const plural = new Intl.PluralRules(language);
  const numbers = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const counts = new Intl.NumberFormat(language);
  const dates = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  const reviewNoun = (count: number) => t.reviews[plural.select(count)] ?? t.reviews.other;
  locale = {
    language,
    t,
    number: (value) => numbers.format(value),
    reviewNoun,
    reviewCount: (count) => `${counts.format(count)} ${reviewNoun(count)}`,
    date: (date) => dates.format(date),
  };
  locales.set(language, locale);
  return locale;
}
