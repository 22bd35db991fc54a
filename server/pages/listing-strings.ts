// The shop page's sort and filter form in the seven languages.
import type { Language } from '../languages.js';
import type { Sort } from './listing.js';

export interface ListingStrings {
  form: string;
  sort: string;
  sorts: Record<Sort, string>;
  stars: string;
  star: (n: number) => string;
  photos: string;
  apply: string;
  reset: string;
  matching: (n: number) => string;
  none: string;
}

export const LISTING_STRINGS: Record<Language, ListingStrings> = {
  en: {
    form: 'Sort and filter reviews',
    sort: 'Sort by',
    sorts: {
      newest: 'Newest',
      oldest: 'Oldest',
      highest: 'Highest rating',
      lowest: 'Lowest rating',
      helpful: 'Most helpful',
    },
    stars: 'Stars',
    star: (n) => `${n} ${n === 1 ? 'star' : 'stars'}`,
    photos: 'With photos only',
    apply: 'Show reviews',
    reset: 'Show all reviews, newest first',
    matching: (n) => `${n} ${n === 1 ? 'review matches' : 'reviews match'}`,
    none: 'No reviews match this choice.',
  },
  nl: {
    form: 'Reviews sorteren en filteren',
    sort: 'Sorteren op',
    sorts: {
      newest: 'Nieuwste',
      oldest: 'Oudste',
      highest: 'Hoogste score',
      lowest: 'Laagste score',
      helpful: 'Meest nuttig',
    },
    stars: 'Sterren',
    star: (n) => `${n} ${n === 1 ? 'ster' : 'sterren'}`,
    photos: "Alleen met foto's",
    apply: 'Reviews tonen',
    reset: 'Alle reviews tonen, nieuwste eerst',
    matching: (n) => `${n} ${n === 1 ? 'review past' : 'reviews passen'}`,
    none: 'Geen reviews passen bij deze keuze.',
  },
  de: {
    form: 'Bewertungen sortieren und filtern',
    sort: 'Sortieren nach',
    sorts: {
      newest: 'Neueste',
      oldest: 'Älteste',
      highest: 'Beste Bewertung',
      lowest: 'Schlechteste Bewertung',
      helpful: 'Hilfreichste',
    },
    stars: 'Sterne',
    star: (n) => `${n} ${n === 1 ? 'Stern' : 'Sterne'}`,
    photos: 'Nur mit Fotos',
    apply: 'Bewertungen zeigen',
    reset: 'Alle Bewertungen zeigen, neueste zuerst',
    matching: (n) => `${n} ${n === 1 ? 'Bewertung passt' : 'Bewertungen passen'}`,
    none: 'Keine Bewertung passt zu dieser Auswahl.',
  },
  fr: {
    form: 'Trier et filtrer les avis',
    sort: 'Trier par',
    sorts: {
      newest: 'Plus récents',
      oldest: 'Plus anciens',
      highest: 'Meilleure note',
      lowest: 'Note la plus basse',
      helpful: 'Plus utiles',
    },
    stars: 'Étoiles',
    star: (n) => `${n} ${n === 1 ? 'étoile' : 'étoiles'}`,
    photos: 'Avec photos seulement',
    apply: 'Afficher les avis',
    reset: 'Afficher tous les avis, les plus récents d’abord',
    matching: (n) => `${n} ${n <= 1 ? 'avis correspond' : 'avis correspondent'}`,
    none: 'Aucun avis ne correspond à ce choix.',
  },
  es: {
    form: 'Ordenar y filtrar opiniones',
    sort: 'Ordenar por',
    sorts: {
      newest: 'Más recientes',
      oldest: 'Más antiguas',
      highest: 'Mejor valoración',
      lowest: 'Peor valoración',
      helpful: 'Más útiles',
    },
    stars: 'Estrellas',
    star: (n) => `${n} ${n === 1 ? 'estrella' : 'estrellas'}`,
    photos: 'Solo con fotos',
    apply: 'Mostrar opiniones',
    reset: 'Mostrar todas las opiniones, las más recientes primero',
    matching: (n) => `${n} ${n === 1 ? 'opinión coincide' : 'opiniones coinciden'}`,
    none: 'Ninguna opinión coincide con esta elección.',
  },
  it: {
    form: 'Ordina e filtra le recensioni',
    sort: 'Ordina per',
    sorts: {
      newest: 'Più recenti',
      oldest: 'Meno recenti',
      highest: 'Voto più alto',
      lowest: 'Voto più basso',
      helpful: 'Più utili',
    },
    stars: 'Stelle',
    star: (n) => `${n} ${n === 1 ? 'stella' : 'stelle'}`,
    photos: 'Solo con foto',
    apply: 'Mostra recensioni',
    reset: 'Mostra tutte le recensioni, le più recenti prima',
    matching: (n) => `${n} ${n === 1 ? 'recensione corrisponde' : 'recensioni corrispondono'}`,
    none: 'Nessuna recensione corrisponde a questa scelta.',
  },
  hr: {
    form: 'Poredaj i filtriraj recenzije',
    sort: 'Poredaj po',
    sorts: {
      newest: 'Najnovije',
      oldest: 'Najstarije',
      highest: 'Najviša ocjena',
      lowest: 'Najniža ocjena',
      helpful: 'Najkorisnije',
    },
    stars: 'Zvjezdice',
    star: (n) => `${n} ${n === 1 ? 'zvjezdica' : 'zvjezdice'}`,
    photos: 'Samo s fotografijama',
    apply: 'Prikaži recenzije',
    reset: 'Prikaži sve recenzije, najnovije prve',
    matching: (n) => `Odgovara: ${n}`,
    none: 'Nijedna recenzija ne odgovara ovom izboru.',
  },
};
