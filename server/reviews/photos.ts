// Which photos of a review the public sees, and how they are described: pure functions of the stored review
// (the photos themselves, their files and worker: server/photos/).
import type { Language } from '../languages.js';
import type { Review, ReviewPhoto } from './model.js';

/** The alternative text of a photo its writer did not describe. */
const DEFAULT_ALT: Record<Language, (n: number, of: number, name: string) => string> = {
  en: (n, of, name) => `Photo ${n} of ${of} by ${name}`,
  nl: (n, of, name) => `Foto ${n} van ${of} door ${name}`,
  de: (n, of, name) => `Foto ${n} von ${of} von ${name}`,
  fr: (n, of, name) => `Photo ${n} sur ${of} de ${name}`,
  es: (n, of, name) => `Foto ${n} de ${of} de ${name}`,
  it: (n, of, name) => `Foto ${n} di ${of} di ${name}`,
  hr: (n, of, name) => `Fotografija ${n} od ${of}, autor ${name}`,
};

/** A photo as ratings.json, webhook bodies and the pages give it. */
export interface PublicPhoto {
  url: string;
  thumb_url: string;
  width: number;
  height: number;
  /** The thumbnail's size, for pages that lay it out before it loads (not in the API's `photos`). */
  thumb_width: number;
  thumb_height: number;
  alt: string;
}

export const photoPath = (id: string, thumb = false) => `/photos/${id}${thumb ? '-320' : ''}.webp`;

/** The photos shown with the review: encoded and not held or removed. Public only while the review is. */
const shownPhotos = (review: Pick<Review, 'photos'>): ReviewPhoto[] =>
  (review.photos ?? []).filter((p) => p.state === 'shown');

/**
 * The shown photos with absolute addresses (`baseUrl` '' gives paths) and their alternative text: the writer's
 * description, or "Photo 1 of 3 by {name}" in the review's language.
 */
export function publicPhotos(review: Pick<Review, 'photos' | 'name' | 'language'>, baseUrl: string): PublicPhoto[] {
  const shown = shownPhotos(review);
  const alt = DEFAULT_ALT[review.language] ?? DEFAULT_ALT.en;
  return shown.map((p, i) => ({
    url: baseUrl + photoPath(p.id),
    thumb_url: baseUrl + photoPath(p.id, true),
    width: p.width,
    height: p.height,
    thumb_width: p.thumbWidth,
    thumb_height: p.thumbHeight,
    alt: p.alt || alt(i + 1, shown.length, review.name.trim() || '…'),
  }));
}

/** What the API says of a photo: `{url, thumb_url, width, height, alt}`. */
export const apiPhoto = ({ url, thumb_url, width, height, alt }: PublicPhoto) => ({
  url,
  thumb_url,
  width,
  height,
  alt,
});
