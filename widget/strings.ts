// Every text the widget and the rich snippet show, in the seven widget languages, in one place.
// Plurals go through Intl.PluralRules (Croatian has three forms; the helper is shared with the embed: embed/shared/text.ts);
// numbers and dates through Intl.
import type { Language } from '../server/languages.js';
import { pluralOf, type PluralForms } from '../embed/shared/text.js';
import { experienceMonthStart } from '../server/reviews/experience.js';

interface Strings {
  /** Noun after a review count, by plural category (`one`, `few`, `other`). */
  reviews: PluralForms;
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
  /** Origin labels (issue 11): the label, then what it means, for screen readers. */
  verifiedOrder: string;
  verifiedOrderInfo: string;
  emailConfirmed: string;
  emailConfirmedInfo: string;
  importedFrom: (platform: string) => string;
  imported: string;
  importedInfo: string;
  incentivised: string;
  incentivisedInfo: string;
  /** The link to the shop's review policy page. */
  policy: string;
  report: string;
  /** After "Report", for screen readers: whose review. */
  reportWhose: (name: string) => string;
  /** The date of the experience a review is about (issue 21), e.g. "Experience: March 2026". */
  experience: (month: string) => string;
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
    verifiedOrder: 'Verified order',
    verifiedOrderInfo: 'the order was proven',
    emailConfirmed: 'E-mail confirmed',
    emailConfirmedInfo: 'the address was confirmed, not a purchase',
    importedFrom: (p) => `Imported from ${p}`,
    imported: 'Imported',
    importedInfo: 'written on another platform',
    incentivised: 'Incentivised',
    incentivisedInfo: 'the writer was offered something for a review',
    policy: 'How reviews are checked',
    report: 'Report',
    reportWhose: (n) => `review by ${n}`,
    experience: (m) => `Experience: ${m}`,
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
    verifiedOrder: 'Geverifieerde bestelling',
    verifiedOrderInfo: 'de bestelling is aangetoond',
    emailConfirmed: 'E-mail bevestigd',
    emailConfirmedInfo: 'het adres is bevestigd, geen aankoop',
    importedFrom: (p) => `Geïmporteerd van ${p}`,
    imported: 'Geïmporteerd',
    importedInfo: 'geschreven op een ander platform',
    incentivised: 'Met beloning',
    incentivisedInfo: 'de schrijver kreeg iets aangeboden voor een review',
    policy: 'Zo worden reviews gecontroleerd',
    report: 'Melden',
    reportWhose: (n) => `beoordeling van ${n}`,
    experience: (m) => `Ervaring: ${m}`,
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
    verifiedOrder: 'Verifizierte Bestellung',
    verifiedOrderInfo: 'die Bestellung ist nachgewiesen',
    emailConfirmed: 'E-Mail bestätigt',
    emailConfirmedInfo: 'die Adresse ist bestätigt, kein Kauf',
    importedFrom: (p) => `Importiert von ${p}`,
    imported: 'Importiert',
    importedInfo: 'auf einer anderen Plattform geschrieben',
    incentivised: 'Mit Anreiz',
    incentivisedInfo: 'dem Verfasser wurde für eine Bewertung etwas angeboten',
    policy: 'So werden Bewertungen geprüft',
    report: 'Melden',
    reportWhose: (n) => `Bewertung von ${n}`,
    experience: (m) => `Erfahrung: ${m}`,
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
    verifiedOrder: 'Commande vérifiée',
    verifiedOrderInfo: 'la commande a été prouvée',
    emailConfirmed: 'E-mail confirmé',
    emailConfirmedInfo: 'l’adresse a été confirmée, pas un achat',
    importedFrom: (p) => `Importé de ${p}`,
    imported: 'Importé',
    importedInfo: 'écrit sur une autre plateforme',
    incentivised: 'Avec contrepartie',
    incentivisedInfo: 'l’auteur s’est vu offrir quelque chose pour un avis',
    policy: 'Comment les avis sont vérifiés',
    report: 'Signaler',
    reportWhose: (n) => `avis de ${n}`,
    experience: (m) => `Expérience : ${m}`,
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
    verifiedOrder: 'Pedido verificado',
    verifiedOrderInfo: 'el pedido se ha comprobado',
    emailConfirmed: 'E-mail confirmado',
    emailConfirmedInfo: 'se confirmó la dirección, no una compra',
    importedFrom: (p) => `Importada de ${p}`,
    imported: 'Importada',
    importedInfo: 'escrita en otra plataforma',
    incentivised: 'Con incentivo',
    incentivisedInfo: 'al autor se le ofreció algo por una reseña',
    policy: 'Cómo se comprueban las reseñas',
    report: 'Denunciar',
    reportWhose: (n) => `reseña de ${n}`,
    experience: (m) => `Experiencia: ${m}`,
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
    verifiedOrder: 'Ordine verificato',
    verifiedOrderInfo: 'l’ordine è stato provato',
    emailConfirmed: 'E-mail confermata',
    emailConfirmedInfo: 'è confermato l’indirizzo, non un acquisto',
    importedFrom: (p) => `Importata da ${p}`,
    imported: 'Importata',
    importedInfo: 'scritta su un’altra piattaforma',
    incentivised: 'Con incentivo',
    incentivisedInfo: 'all’autore è stato offerto qualcosa per una recensione',
    policy: 'Come vengono verificate le recensioni',
    report: 'Segnala',
    reportWhose: (n) => `recensione di ${n}`,
    experience: (m) => `Esperienza: ${m}`,
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
    verifiedOrder: 'Potvrđena narudžba',
    verifiedOrderInfo: 'narudžba je dokazana',
    emailConfirmed: 'E-pošta potvrđena',
    emailConfirmedInfo: 'potvrđena je adresa, ne kupnja',
    importedFrom: (p) => `Uvezeno s ${p}`,
    imported: 'Uvezeno',
    importedInfo: 'napisano na drugoj platformi',
    incentivised: 'Uz poticaj',
    incentivisedInfo: 'autoru je za recenziju nešto ponuđeno',
    policy: 'Kako se provjeravaju recenzije',
    report: 'Prijavi',
    reportWhose: (n) => `recenzija korisnika ${n}`,
    experience: (m) => `Iskustvo: ${m}`,
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
  /** "March 2026": the month of an experience date (`YYYY-MM-DD` or `YYYY-MM`). */
  month(experience: string): string;
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
  const months = new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const reviewNoun = (count: number) => pluralOf(t.reviews, plural, count);
  locale = {
    language,
    t,
    number: (value) => numbers.format(value),
    reviewNoun,
    reviewCount: (count) => `${counts.format(count)} ${reviewNoun(count)}`,
    date: (date) => dates.format(date),
    month: (experience) => months.format(experienceMonthStart(experience)),
  };
  locales.set(language, locale);
  return locale;
}
