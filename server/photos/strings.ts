// The photos' texts in the seven languages: the form's picker, its messages, and the default alternative text.
import type { Language } from '../languages.js';
import type { PhotoRefusal } from './service.js';

export interface PhotoStrings {
  legend: string;
  hint: string;
  photo: (n: number) => string;
  description: (n: number) => string;
  descriptionHint: string;
  /** The message, naming the file. */
  unreadable: (file: string) => string;
  tooLarge: (file: string) => string;
  tooManyPixels: (file: string) => string;
  tooMany: string;
  limited: string;
  /** The shop page's dialog. */
  open: (n: number) => string;
  close: string;
  /** The dialog's name until a photo is opened in it (then the photo's description). */
  dialog: string;
  photosOf: (name: string) => string;
  /** The edit page (issue 20): the photos the review has, each kept or removed, its description editable. */
  currentLegend: string;
  remove: (n: number) => string;
  notShown: string;
}

const en: PhotoStrings = {
  legend: 'Photos (optional, up to 5)',
  hint: 'JPEG, PNG, WebP or AVIF, at most 10 MB each. They are shown once they have been processed.',
  photo: (n) => `Photo ${n}`,
  description: (n) => `Description of photo ${n} (optional)`,
  descriptionHint: 'Used for people who cannot see the photo; at most 200 characters.',
  unreadable: (file) => `${file}: This file is not a photo we can read: use JPEG, PNG or WebP`,
  tooLarge: (file) => `${file}: This photo is larger than 10 MB: choose a smaller one`,
  tooManyPixels: (file) => `${file}: This photo has more than 40 megapixels: choose a smaller one`,
  tooMany: 'At most 5 photos can be added to a review',
  limited: 'No more photos can be added from here today: send your review without them, or try again tomorrow',
  open: (n) => `Open photo ${n}`,
  close: 'Close',
  dialog: 'Photo',
  photosOf: (name) => `Photos by ${name}`,
  currentLegend: 'Your photos',
  remove: (n) => `Remove photo ${n}`,
  notShown: 'Not shown yet (being processed or checked)',
};

const nl: PhotoStrings = {
  legend: "Foto's (optioneel, maximaal 5)",
  hint: 'JPEG, PNG, WebP of AVIF, elk maximaal 10 MB. Ze worden getoond zodra ze verwerkt zijn.',
  photo: (n) => `Foto ${n}`,
  description: (n) => `Beschrijving van foto ${n} (optioneel)`,
  descriptionHint: 'Voor wie de foto niet kan zien; maximaal 200 tekens.',
  unreadable: (file) => `${file}: Dit bestand is geen foto die we kunnen lezen: gebruik JPEG, PNG of WebP`,
  tooLarge: (file) => `${file}: Deze foto is groter dan 10 MB: kies een kleinere`,
  tooManyPixels: (file) => `${file}: Deze foto heeft meer dan 40 megapixels: kies een kleinere`,
  tooMany: "Er kunnen maximaal 5 foto's bij een review",
  limited:
    "Vandaag kunnen vanaf hier geen foto's meer worden toegevoegd: verstuur uw review zonder, of probeer het morgen",
  open: (n) => `Foto ${n} openen`,
  close: 'Sluiten',
  dialog: 'Foto',
  photosOf: (name) => `Foto's van ${name}`,
  currentLegend: "Je foto's",
  remove: (n) => `Foto ${n} verwijderen`,
  notShown: 'Nog niet getoond (wordt verwerkt of gecontroleerd)',
};

const de: PhotoStrings = {
  legend: 'Fotos (optional, bis zu 5)',
  hint: 'JPEG, PNG, WebP oder AVIF, je höchstens 10 MB. Sie erscheinen, sobald sie verarbeitet sind.',
  photo: (n) => `Foto ${n}`,
  description: (n) => `Beschreibung von Foto ${n} (optional)`,
  descriptionHint: 'Für Menschen, die das Foto nicht sehen können; höchstens 200 Zeichen.',
  unreadable: (file) => `${file}: Diese Datei ist kein Foto, das wir lesen können: verwenden Sie JPEG, PNG oder WebP`,
  tooLarge: (file) => `${file}: Dieses Foto ist größer als 10 MB: wählen Sie ein kleineres`,
  tooManyPixels: (file) => `${file}: Dieses Foto hat mehr als 40 Megapixel: wählen Sie ein kleineres`,
  tooMany: 'Zu einer Bewertung passen höchstens 5 Fotos',
  limited: 'Heute können von hier keine Fotos mehr hinzugefügt werden: senden Sie Ihre Bewertung ohne, oder morgen',
  open: (n) => `Foto ${n} öffnen`,
  close: 'Schließen',
  dialog: 'Foto',
  photosOf: (name) => `Fotos von ${name}`,
  currentLegend: 'Ihre Fotos',
  remove: (n) => `Foto ${n} entfernen`,
  notShown: 'Noch nicht sichtbar (wird verarbeitet oder geprüft)',
};

const fr: PhotoStrings = {
  legend: "Photos (facultatif, jusqu'à 5)",
  hint: 'JPEG, PNG, WebP ou AVIF, 10 Mo au plus chacune. Elles apparaissent une fois traitées.',
  photo: (n) => `Photo ${n}`,
  description: (n) => `Description de la photo ${n} (facultatif)`,
  descriptionHint: 'Pour les personnes qui ne peuvent pas voir la photo ; 200 caractères au plus.',
  unreadable: (file) => `${file} : Ce fichier n'est pas une photo que nous pouvons lire : utilisez JPEG, PNG ou WebP`,
  tooLarge: (file) => `${file} : Cette photo dépasse 10 Mo : choisissez-en une plus petite`,
  tooManyPixels: (file) => `${file} : Cette photo dépasse 40 mégapixels : choisissez-en une plus petite`,
  tooMany: 'Un avis accepte 5 photos au plus',
  limited: "Plus aucune photo ne peut être ajoutée d'ici aujourd'hui : envoyez votre avis sans, ou réessayez demain",
  open: (n) => `Ouvrir la photo ${n}`,
  close: 'Fermer',
  dialog: 'Photo',
  photosOf: (name) => `Photos de ${name}`,
  currentLegend: 'Vos photos',
  remove: (n) => `Retirer la photo ${n}`,
  notShown: 'Pas encore affichée (en cours de traitement ou de vérification)',
};

const es: PhotoStrings = {
  legend: 'Fotos (opcional, hasta 5)',
  hint: 'JPEG, PNG, WebP o AVIF, 10 MB como máximo cada una. Se muestran cuando se han procesado.',
  photo: (n) => `Foto ${n}`,
  description: (n) => `Descripción de la foto ${n} (opcional)`,
  descriptionHint: 'Para quien no puede ver la foto; 200 caracteres como máximo.',
  unreadable: (file) => `${file}: Este archivo no es una foto que podamos leer: use JPEG, PNG o WebP`,
  tooLarge: (file) => `${file}: Esta foto supera los 10 MB: elija una más pequeña`,
  tooManyPixels: (file) => `${file}: Esta foto supera los 40 megapíxeles: elija una más pequeña`,
  tooMany: 'Una opinión admite 5 fotos como máximo',
  limited: 'Hoy ya no se pueden añadir más fotos desde aquí: envíe su opinión sin ellas o vuelva a intentarlo mañana',
  open: (n) => `Abrir la foto ${n}`,
  close: 'Cerrar',
  dialog: 'Foto',
  photosOf: (name) => `Fotos de ${name}`,
  currentLegend: 'Tus fotos',
  remove: (n) => `Quitar la foto ${n}`,
  notShown: 'Aún no se muestra (se está procesando o revisando)',
};

const it: PhotoStrings = {
  legend: 'Foto (facoltative, fino a 5)',
  hint: 'JPEG, PNG, WebP o AVIF, al massimo 10 MB ciascuna. Sono mostrate dopo l’elaborazione.',
  photo: (n) => `Foto ${n}`,
  description: (n) => `Descrizione della foto ${n} (facoltativa)`,
  descriptionHint: 'Per chi non può vedere la foto; al massimo 200 caratteri.',
  unreadable: (file) => `${file}: Questo file non è una foto che possiamo leggere: usa JPEG, PNG o WebP`,
  tooLarge: (file) => `${file}: Questa foto supera i 10 MB: scegline una più piccola`,
  tooManyPixels: (file) => `${file}: Questa foto supera i 40 megapixel: scegline una più piccola`,
  tooMany: 'Una recensione accetta al massimo 5 foto',
  limited: 'Oggi non si possono aggiungere altre foto da qui: invia la recensione senza foto o riprova domani',
  open: (n) => `Apri la foto ${n}`,
  close: 'Chiudi',
  dialog: 'Foto',
  photosOf: (name) => `Foto di ${name}`,
  currentLegend: 'Le tue foto',
  remove: (n) => `Rimuovi la foto ${n}`,
  notShown: 'Non ancora visibile (in elaborazione o in verifica)',
};

const hr: PhotoStrings = {
  legend: 'Fotografije (neobavezno, do 5)',
  hint: 'JPEG, PNG, WebP ili AVIF, najviše 10 MB svaka. Prikazuju se nakon obrade.',
  photo: (n) => `Fotografija ${n}`,
  description: (n) => `Opis fotografije ${n} (neobavezno)`,
  descriptionHint: 'Za one koji ne vide fotografiju; najviše 200 znakova.',
  unreadable: (file) => `${file}: Ova datoteka nije fotografija koju možemo pročitati: koristite JPEG, PNG ili WebP`,
  tooLarge: (file) => `${file}: Ova fotografija je veća od 10 MB: odaberite manju`,
  tooManyPixels: (file) => `${file}: Ova fotografija ima više od 40 megapiksela: odaberite manju`,
  tooMany: 'Recenzija može imati najviše 5 fotografija',
  limited: 'Danas se odavde ne mogu dodati nove fotografije: pošaljite recenziju bez njih ili pokušajte sutra',
  open: (n) => `Otvori fotografiju ${n}`,
  close: 'Zatvori',
  dialog: 'Fotografija',
  photosOf: (name) => `Fotografije korisnika ${name}`,
  currentLegend: 'Vaše fotografije',
  remove: (n) => `Ukloni fotografiju ${n}`,
  notShown: 'Još se ne prikazuje (obrađuje se ili provjerava)',
};

export const PHOTO_STRINGS: Record<Language, PhotoStrings> = { nl, en, de, fr, es, it, hr };

/** A refused file's message, as every form says it (the review page, the edit page, the pop-up). */
export function refusalMessage(p: PhotoStrings, reason: PhotoRefusal, filename: string): string {
  if (reason === 'too_large') return p.tooLarge(filename);
  if (reason === 'too_many_pixels') return p.tooManyPixels(filename);
  if (reason === 'limited') return p.limited;
  return p.unreadable(filename);
}
