// The "Helpful" button's texts in the seven languages.
import type { Language } from '../languages.js';

export interface HelpfulStrings {
  button: string;
  /** What a screen reader hears after the button's name: how many found it helpful. */
  count: (n: number) => string;
}

export const HELPFUL_STRINGS: Record<Language, HelpfulStrings> = {
  en: { button: 'Helpful', count: (n) => `${n} ${n === 1 ? 'person' : 'people'} found this helpful` },
  nl: { button: 'Nuttig', count: (n) => `${n} ${n === 1 ? 'persoon vond' : 'personen vonden'} dit nuttig` },
  de: { button: 'Hilfreich', count: (n) => `${n} ${n === 1 ? 'Person fand' : 'Personen fanden'} das hilfreich` },
  fr: { button: 'Utile', count: (n) => `${n} ${n <= 1 ? 'personne a trouvé' : 'personnes ont trouvé'} cet avis utile` },
  es: { button: 'Útil', count: (n) => `A ${n} ${n === 1 ? 'persona le' : 'personas les'} ha resultado útil` },
  it: {
    button: 'Utile',
    count: (n) => `${n} ${n === 1 ? 'persona l’ha trovata utile' : 'persone l’hanno trovata utile'}`,
  },
  hr: { button: 'Korisno', count: (n) => `${n} ${n === 1 ? 'osoba smatra' : 'osoba smatraju'} ovo korisnim` },
};
