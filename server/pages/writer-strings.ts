// The words of the writer's own-review pages (delete with confirmation, a new edit link after the old expired), in
// the seven shopper languages.
import type { Language } from '../languages.js';

export interface WriterStrings {
  deleteLink: string;
  deleteTitle: string;
  deleteBody: (shop: string) => string;
  deleteButton: string;
  keepLink: string;
  deletedTitle: string;
  deletedBody: (shop: string) => string;
  renewIntro: string;
  renewButton: string;
  renewSentTitle: string;
  renewSentBody: string;
  renewLimited: string;
}

const en: WriterStrings = {
  deleteLink: 'Delete my review',
  deleteTitle: 'Delete your review?',
  deleteBody: (shop) => `Your review of ${shop} will be removed from every page that shows it. This cannot be undone.`,
  deleteButton: 'Yes, delete my review',
  keepLink: 'No, keep my review',
  deletedTitle: 'Your review was deleted',
  deletedBody: (shop) => `Your review of ${shop} is no longer shown anywhere.`,
  renewIntro: 'We can send a new link to the e-mail address you wrote the review with.',
  renewButton: 'E-mail me a new link',
  renewSentTitle: 'Check your inbox',
  renewSentBody: 'A new link to your review is on its way to the address you wrote it with.',
  renewLimited: 'Too many e-mails to this address today. Please try again tomorrow.',
};

const nl: WriterStrings = {
  deleteLink: 'Mijn review verwijderen',
  deleteTitle: 'Je review verwijderen?',
  deleteBody: (shop) =>
    `Je review van ${shop} verdwijnt van alle pagina’s waarop hij staat. Dit kan niet ongedaan worden gemaakt.`,
  deleteButton: 'Ja, verwijder mijn review',
  keepLink: 'Nee, mijn review houden',
  deletedTitle: 'Je review is verwijderd',
  deletedBody: (shop) => `Je review van ${shop} wordt nergens meer getoond.`,
  renewIntro: 'We kunnen een nieuwe link sturen naar het e-mailadres waarmee je de review schreef.',
  renewButton: 'Mail me een nieuwe link',
  renewSentTitle: 'Kijk in je inbox',
  renewSentBody: 'Een nieuwe link naar je review is onderweg naar het adres waarmee je hem schreef.',
  renewLimited: 'Te veel e-mails naar dit adres vandaag. Probeer het morgen opnieuw.',
};

const de: WriterStrings = {
  deleteLink: 'Meine Bewertung löschen',
  deleteTitle: 'Ihre Bewertung löschen?',
  deleteBody: (shop) =>
    `Ihre Bewertung von ${shop} wird von allen Seiten entfernt, auf denen sie erscheint. Das kann nicht rückgängig gemacht werden.`,
  deleteButton: 'Ja, meine Bewertung löschen',
  keepLink: 'Nein, Bewertung behalten',
  deletedTitle: 'Ihre Bewertung wurde gelöscht',
  deletedBody: (shop) => `Ihre Bewertung von ${shop} wird nirgends mehr angezeigt.`,
  renewIntro: 'Wir können einen neuen Link an die E-Mail-Adresse senden, mit der Sie die Bewertung geschrieben haben.',
  renewButton: 'Neuen Link per E-Mail senden',
  renewSentTitle: 'Sehen Sie in Ihr Postfach',
  renewSentBody: 'Ein neuer Link zu Ihrer Bewertung ist unterwegs an die Adresse, mit der Sie sie geschrieben haben.',
  renewLimited: 'Heute wurden zu viele E-Mails an diese Adresse gesendet. Bitte versuchen Sie es morgen erneut.',
};

const fr: WriterStrings = {
  deleteLink: 'Supprimer mon avis',
  deleteTitle: 'Supprimer votre avis ?',
  deleteBody: (shop) =>
    `Votre avis sur ${shop} sera retiré de toutes les pages qui l’affichent. Cette action est définitive.`,
  deleteButton: 'Oui, supprimer mon avis',
  keepLink: 'Non, garder mon avis',
  deletedTitle: 'Votre avis a été supprimé',
  deletedBody: (shop) => `Votre avis sur ${shop} n’est plus affiché nulle part.`,
  renewIntro: 'Nous pouvons envoyer un nouveau lien à l’adresse e-mail avec laquelle vous avez écrit l’avis.',
  renewButton: 'M’envoyer un nouveau lien',
  renewSentTitle: 'Consultez votre boîte de réception',
  renewSentBody: 'Un nouveau lien vers votre avis est en route vers l’adresse avec laquelle vous l’avez écrit.',
  renewLimited: 'Trop d’e-mails vers cette adresse aujourd’hui. Veuillez réessayer demain.',
};

const es: WriterStrings = {
  deleteLink: 'Eliminar mi opinión',
  deleteTitle: '¿Eliminar tu opinión?',
  deleteBody: (shop) =>
    `Tu opinión sobre ${shop} se quitará de todas las páginas que la muestran. No se puede deshacer.`,
  deleteButton: 'Sí, eliminar mi opinión',
  keepLink: 'No, conservar mi opinión',
  deletedTitle: 'Tu opinión se ha eliminado',
  deletedBody: (shop) => `Tu opinión sobre ${shop} ya no se muestra en ningún sitio.`,
  renewIntro: 'Podemos enviar un enlace nuevo a la dirección de correo con la que escribiste la opinión.',
  renewButton: 'Enviarme un enlace nuevo',
  renewSentTitle: 'Revisa tu bandeja de entrada',
  renewSentBody: 'Un enlace nuevo a tu opinión va de camino a la dirección con la que la escribiste.',
  renewLimited: 'Demasiados correos a esta dirección hoy. Inténtalo de nuevo mañana.',
};

const it: WriterStrings = {
  deleteLink: 'Elimina la mia recensione',
  deleteTitle: 'Eliminare la tua recensione?',
  deleteBody: (shop) =>
    `La tua recensione su ${shop} verrà rimossa da tutte le pagine che la mostrano. L’operazione è definitiva.`,
  deleteButton: 'Sì, elimina la mia recensione',
  keepLink: 'No, mantieni la mia recensione',
  deletedTitle: 'La tua recensione è stata eliminata',
  deletedBody: (shop) => `La tua recensione su ${shop} non è più visibile da nessuna parte.`,
  renewIntro: 'Possiamo inviare un nuovo link all’indirizzo e-mail con cui hai scritto la recensione.',
  renewButton: 'Inviami un nuovo link',
  renewSentTitle: 'Controlla la tua casella di posta',
  renewSentBody: 'Un nuovo link alla tua recensione sta arrivando all’indirizzo con cui l’hai scritta.',
  renewLimited: 'Troppe e-mail a questo indirizzo oggi. Riprova domani.',
};

const hr: WriterStrings = {
  deleteLink: 'Izbriši moju recenziju',
  deleteTitle: 'Izbrisati vašu recenziju?',
  deleteBody: (shop) =>
    `Vaša recenzija trgovine ${shop} bit će uklonjena sa svih stranica na kojima se prikazuje. To se ne može poništiti.`,
  deleteButton: 'Da, izbriši moju recenziju',
  keepLink: 'Ne, zadrži moju recenziju',
  deletedTitle: 'Vaša recenzija je izbrisana',
  deletedBody: (shop) => `Vaša recenzija trgovine ${shop} više se nigdje ne prikazuje.`,
  renewIntro: 'Možemo poslati novu poveznicu na adresu e-pošte s kojom ste napisali recenziju.',
  renewButton: 'Pošalji mi novu poveznicu',
  renewSentTitle: 'Provjerite pretinac',
  renewSentBody: 'Nova poveznica na vašu recenziju stiže na adresu s kojom ste je napisali.',
  renewLimited: 'Danas je previše e-poruka poslano na ovu adresu. Pokušajte ponovno sutra.',
};

export const WRITER_STRINGS: Record<Language, WriterStrings> = { en, nl, de, fr, es, it, hr };
