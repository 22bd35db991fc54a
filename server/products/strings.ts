// The product surfaces' own texts (the in-page fragment and the widget's product layout) in the seven languages.
// Origin labels, "Experience: …", the sort and filter form, "Helpful" and the photos' texts are the shop page's
// and the widget's (widget/strings.ts, pages/listing-strings.ts, helpful/strings.ts, photos/strings.ts).
import type { Language } from '../languages.js';

export interface ProductStrings {
  /** The block's name for assistive technology. */
  label: (product: string) => string;
  /** The average on the product scale, e.g. "4.3 out of 5". */
  outOf: (value: string) => string;
  /** A review's stars, read aloud. */
  stars: (n: number) => string;
  /** When the product is unknown or has no reviews yet. */
  empty: string;
  pagination: string;
  previous: string;
  next: string;
  pageOf: (page: number, pages: number) => string;
}

export const PRODUCT_STRINGS: Record<Language, ProductStrings> = {
  en: {
    label: (p) => (p ? `Reviews of ${p}` : 'Product reviews'),
    outOf: (v) => `${v} out of 5`,
    stars: (n) => `${n} out of 5 stars`,
    empty: 'No reviews of this product yet.',
    pagination: 'Review pages',
    previous: 'Previous reviews',
    next: 'More reviews',
    pageOf: (p, n) => `Page ${p} of ${n}`,
  },
  nl: {
    label: (p) => (p ? `Reviews van ${p}` : 'Productreviews'),
    outOf: (v) => `${v} van 5`,
    stars: (n) => `${n} van 5 sterren`,
    empty: 'Er zijn nog geen reviews van dit product.',
    pagination: 'Reviewpagina’s',
    previous: 'Vorige reviews',
    next: 'Meer reviews',
    pageOf: (p, n) => `Pagina ${p} van ${n}`,
  },
  de: {
    label: (p) => (p ? `Bewertungen von ${p}` : 'Produktbewertungen'),
    outOf: (v) => `${v} von 5`,
    stars: (n) => `${n} von 5 Sternen`,
    empty: 'Zu diesem Produkt gibt es noch keine Bewertungen.',
    pagination: 'Bewertungsseiten',
    previous: 'Vorherige Bewertungen',
    next: 'Weitere Bewertungen',
    pageOf: (p, n) => `Seite ${p} von ${n}`,
  },
  fr: {
    label: (p) => (p ? `Avis sur ${p}` : 'Avis produit'),
    outOf: (v) => `${v} sur 5`,
    stars: (n) => `${n} étoile${n > 1 ? 's' : ''} sur 5`,
    empty: 'Aucun avis sur ce produit pour l’instant.',
    pagination: 'Pages d’avis',
    previous: 'Avis précédents',
    next: 'Plus d’avis',
    pageOf: (p, n) => `Page ${p} sur ${n}`,
  },
  es: {
    label: (p) => (p ? `Opiniones sobre ${p}` : 'Opiniones del producto'),
    outOf: (v) => `${v} de 5`,
    stars: (n) => `${n} de 5 estrellas`,
    empty: 'Todavía no hay opiniones sobre este producto.',
    pagination: 'Páginas de opiniones',
    previous: 'Opiniones anteriores',
    next: 'Más opiniones',
    pageOf: (p, n) => `Página ${p} de ${n}`,
  },
  it: {
    label: (p) => (p ? `Recensioni di ${p}` : 'Recensioni del prodotto'),
    outOf: (v) => `${v} su 5`,
    stars: (n) => `${n} stell${n === 1 ? 'a' : 'e'} su 5`,
    empty: 'Ancora nessuna recensione di questo prodotto.',
    pagination: 'Pagine di recensioni',
    previous: 'Recensioni precedenti',
    next: 'Altre recensioni',
    pageOf: (p, n) => `Pagina ${p} di ${n}`,
  },
  hr: {
    label: (p) => (p ? `Recenzije proizvoda ${p}` : 'Recenzije proizvoda'),
    outOf: (v) => `${v} od 5`,
    stars: (n) => `${n} od 5 zvjezdica`,
    empty: 'Ovaj proizvod još nema recenzija.',
    pagination: 'Stranice recenzija',
    previous: 'Prethodne recenzije',
    next: 'Još recenzija',
    pageOf: (p, n) => `Stranica ${p} od ${n}`,
  },
};
