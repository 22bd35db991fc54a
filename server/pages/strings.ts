// Every text of the server-rendered shopper pages (/review, /edit, /confirm, /webshops/{id}) in the seven languages.
// One module, so a missing translation is a type error rather than an English word on a Croatian page.
import type { Language } from '../languages.js';
import type { SubRatingKey } from '../reviews/rules.js';

export interface PageStrings {
  // The review form
  reviewTitle: (shop: string) => string;
  reviewIntro: (shop: string) => string;
  overall: string;
  subScores: Record<SubRatingKey, string>;
  optional: string;
  noRating: string;
  /** Shown under a text field by the page's script while typing; `{n}` is the number left. */
  charactersLeft: string;
  stars: (n: number) => string;
  comment: string;
  name: string;
  nameHint: string;
  country: string;
  countryNone: string;
  productsHeading: string;
  productRating: (product: string) => string;
  productText: (product: string) => string;
  submit: string;
  required: string;
  // Errors in the form
  errorTitle: string;
  errorSummary: string;
  ratingRequired: string;
  nameRequired: string;
  tooLong: (max: number) => string;
  countryInvalid: string;
  // After writing
  thanksTitle: string;
  thanksBody: (shop: string) => string;
  editLink: string;
  // Links that no longer work
  usedTitle: string;
  usedBody: string;
  unknownTitle: string;
  unknownBody: string;
  reviewExpiredTitle: string;
  reviewExpiredBody: (shop: string, days: number) => string;
  editExpiredTitle: string;
  editExpiredBody: (shop: string, days: number) => string;
  // Editing
  editTitle: (shop: string) => string;
  editIntro: string;
  editSave: string;
  editSaved: string;
  // Confirming
  confirmTitle: string;
  confirmBody: (shop: string) => string;
  confirmButton: string;
  confirmedTitle: string;
  confirmedBody: (shop: string) => string;
  confirmGoneTitle: string;
  confirmGoneBody: string;
  // The public shop page
  shopTitle: (shop: string) => string;
  score: string;
  outOf10: (score: string) => string;
  outOf5: (score: number) => string;
  reviewCount: (n: number, formatted: string) => string;
  verified: string;
  replyFrom: (shop: string) => string;
  noReviews: string;
  newer: string;
  older: string;
  pageOf: (page: number, pages: number) => string;
  pagination: string;
  visitShop: (shop: string) => string;
  shopNotFoundTitle: string;
  shopNotFoundBody: string;
  badgeApproved: (date: string) => string;
  badgeVerifiedShare: (percent: number) => string;
  badgeMemberYears: (years: number) => string;
  footer: (brand: string) => string;
}

const en: PageStrings = {
  reviewTitle: (shop) => `Review ${shop}`,
  reviewIntro: (shop) => `How was your order at ${shop}? Your review helps other shoppers.`,
  overall: 'Your overall rating',
  subScores: {
    shippingtime: 'Delivery time',
    customerservice: 'Customer service',
    pricequality: 'Value for money',
    aftersale: 'After-sales service',
  },
  optional: 'optional',
  noRating: 'No rating',
  charactersLeft: '{n} characters left',
  stars: (n) => (n === 1 ? '1 star' : `${n} stars`),
  comment: 'Your review',
  name: 'Your name',
  nameHint: 'Shown with your review.',
  country: 'Country',
  countryNone: 'Not given',
  productsHeading: 'Rate your products',
  productRating: (p) => `Rating for ${p}`,
  productText: (p) => `Your review of ${p}`,
  submit: 'Publish my review',
  required: 'required',
  errorTitle: 'Please check your review',
  errorSummary: 'Some answers need your attention:',
  ratingRequired: 'Choose an overall rating from 1 to 5 stars.',
  nameRequired: 'Enter a name of at most 80 characters.',
  tooLong: (max) => `Use at most ${max} characters.`,
  countryInvalid: 'Choose a country from the list.',
  thanksTitle: 'Thank you for your review',
  thanksBody: (shop) => `Your review of ${shop} has been published.`,
  editLink: 'Change my review',
  usedTitle: 'You already wrote this review',
  usedBody: 'This link has been used to write a review. Each link works once. Thank you for your review!',
  unknownTitle: 'This link does not work',
  unknownBody: 'The link is incomplete or no longer valid. Copy the whole link from the e-mail, or contact the shop.',
  reviewExpiredTitle: 'This review link has expired',
  reviewExpiredBody: (shop, days) =>
    `Links in review invitations work for ${days} days after the invitation was sent. If you still want to share your experience with ${shop}, please contact the shop.`,
  editExpiredTitle: 'This link to change your review has expired',
  editExpiredBody: (shop, days) =>
    `Links to change a review work for ${days} days. Your review stays as it is. If you want to change it, please contact ${shop}.`,
  editTitle: (shop) => `Change your review of ${shop}`,
  editIntro: 'Change what you want and save. Your review is updated at once.',
  editSave: 'Save changes',
  editSaved: 'Your changes have been saved.',
  confirmTitle: 'Confirm your review',
  confirmBody: (shop) => `Confirm that you wrote this review of ${shop}. It is published after you confirm.`,
  confirmButton: 'Confirm and publish',
  confirmedTitle: 'Your review is published',
  confirmedBody: (shop) => `Thank you for confirming. Your review of ${shop} is now visible.`,
  confirmGoneTitle: 'This confirmation link does not work',
  confirmGoneBody:
    'The link is incomplete or no longer valid. If you already confirmed your review, it has been published.',
  shopTitle: (shop) => `Reviews of ${shop}`,
  score: 'Score',
  outOf10: (s) => `${s} out of 10`,
  outOf5: (n) => `${n} out of 5 stars`,
  reviewCount: (n, f) => (n === 1 ? '1 review' : `${f} reviews`),
  verified: 'Verified customer',
  replyFrom: (shop) => `Reply from ${shop}`,
  noReviews: 'No reviews yet.',
  newer: 'Newer reviews',
  older: 'Older reviews',
  pageOf: (p, n) => `Page ${p} of ${n}`,
  pagination: 'Review pages',
  visitShop: (shop) => `Visit ${shop}`,
  shopNotFoundTitle: 'Shop not found',
  shopNotFoundBody: 'There is no shop at this address.',
  badgeApproved: (d) => `Approved shop since ${d}`,
  badgeVerifiedShare: (p) => `${p}% verified customers`,
  badgeMemberYears: (y) => (y === 1 ? 'Member for 1 year' : `Member for ${y} years`),
  footer: (brand) => `Reviews collected by ${brand}`,
};

const nl: PageStrings = {
  reviewTitle: (shop) => `Beoordeel ${shop}`,
  reviewIntro: (shop) => `Hoe was je bestelling bij ${shop}? Je review helpt andere klanten.`,
  overall: 'Je totaaloordeel',
  subScores: {
    shippingtime: 'Levertijd',
    customerservice: 'Klantenservice',
    pricequality: 'Prijs/kwaliteit',
    aftersale: 'Service na aankoop',
  },
  optional: 'optioneel',
  noRating: 'Geen oordeel',
  charactersLeft: 'Nog {n} tekens',
  stars: (n) => (n === 1 ? '1 ster' : `${n} sterren`),
  comment: 'Je review',
  name: 'Je naam',
  nameHint: 'Wordt bij je review getoond.',
  country: 'Land',
  countryNone: 'Niet opgegeven',
  productsHeading: 'Beoordeel je producten',
  productRating: (p) => `Oordeel over ${p}`,
  productText: (p) => `Je review van ${p}`,
  submit: 'Review plaatsen',
  required: 'verplicht',
  errorTitle: 'Controleer je review',
  errorSummary: 'Een paar antwoorden hebben je aandacht nodig:',
  ratingRequired: 'Kies een totaaloordeel van 1 tot 5 sterren.',
  nameRequired: 'Vul een naam in van hoogstens 80 tekens.',
  tooLong: (max) => `Gebruik hoogstens ${max} tekens.`,
  countryInvalid: 'Kies een land uit de lijst.',
  thanksTitle: 'Bedankt voor je review',
  thanksBody: (shop) => `Je review van ${shop} is geplaatst.`,
  editLink: 'Mijn review wijzigen',
  usedTitle: 'Je hebt deze review al geschreven',
  usedBody: 'Met deze link is al een review geschreven. Elke link werkt één keer. Bedankt voor je review!',
  unknownTitle: 'Deze link werkt niet',
  unknownBody:
    'De link is onvolledig of niet meer geldig. Kopieer de hele link uit de e-mail, of neem contact op met de winkel.',
  reviewExpiredTitle: 'Deze reviewlink is verlopen',
  reviewExpiredBody: (shop, days) =>
    `Links in uitnodigingen voor een review werken ${days} dagen nadat de uitnodiging is verstuurd. Wil je je ervaring met ${shop} toch nog delen? Neem dan contact op met de winkel.`,
  editExpiredTitle: 'Deze link om je review te wijzigen is verlopen',
  editExpiredBody: (shop, days) =>
    `Links om een review te wijzigen werken ${days} dagen. Je review blijft zoals hij is. Wil je hem toch wijzigen? Neem dan contact op met ${shop}.`,
  editTitle: (shop) => `Wijzig je review van ${shop}`,
  editIntro: 'Pas aan wat je wilt en sla op. Je review wordt meteen bijgewerkt.',
  editSave: 'Wijzigingen opslaan',
  editSaved: 'Je wijzigingen zijn opgeslagen.',
  confirmTitle: 'Bevestig je review',
  confirmBody: (shop) =>
    `Bevestig dat je deze review van ${shop} hebt geschreven. Na je bevestiging wordt hij geplaatst.`,
  confirmButton: 'Bevestigen en plaatsen',
  confirmedTitle: 'Je review is geplaatst',
  confirmedBody: (shop) => `Bedankt voor je bevestiging. Je review van ${shop} is nu zichtbaar.`,
  confirmGoneTitle: 'Deze bevestigingslink werkt niet',
  confirmGoneBody: 'De link is onvolledig of niet meer geldig. Als je je review al hebt bevestigd, is hij geplaatst.',
  shopTitle: (shop) => `Reviews van ${shop}`,
  score: 'Score',
  outOf10: (s) => `${s} van 10`,
  outOf5: (n) => `${n} van 5 sterren`,
  reviewCount: (n, f) => (n === 1 ? '1 review' : `${f} reviews`),
  verified: 'Geverifieerde klant',
  replyFrom: (shop) => `Reactie van ${shop}`,
  noReviews: 'Nog geen reviews.',
  newer: 'Nieuwere reviews',
  older: 'Oudere reviews',
  pageOf: (p, n) => `Pagina ${p} van ${n}`,
  pagination: 'Reviewpagina’s',
  visitShop: (shop) => `Naar ${shop}`,
  shopNotFoundTitle: 'Winkel niet gevonden',
  shopNotFoundBody: 'Op dit adres staat geen winkel.',
  badgeApproved: (d) => `Goedgekeurde winkel sinds ${d}`,
  badgeVerifiedShare: (p) => `${p}% geverifieerde klanten`,
  badgeMemberYears: (y) => (y === 1 ? '1 jaar lid' : `${y} jaar lid`),
  footer: (brand) => `Reviews verzameld door ${brand}`,
};

const de: PageStrings = {
  reviewTitle: (shop) => `${shop} bewerten`,
  reviewIntro: (shop) => `Wie war Ihre Bestellung bei ${shop}? Ihre Bewertung hilft anderen Kunden.`,
  overall: 'Ihre Gesamtbewertung',
  subScores: {
    shippingtime: 'Lieferzeit',
    customerservice: 'Kundenservice',
    pricequality: 'Preis-Leistung',
    aftersale: 'Service nach dem Kauf',
  },
  optional: 'optional',
  noRating: 'Keine Angabe',
  charactersLeft: 'Noch {n} Zeichen',
  stars: (n) => (n === 1 ? '1 Stern' : `${n} Sterne`),
  comment: 'Ihre Bewertung',
  name: 'Ihr Name',
  nameHint: 'Wird mit Ihrer Bewertung angezeigt.',
  country: 'Land',
  countryNone: 'Keine Angabe',
  productsHeading: 'Bewerten Sie Ihre Produkte',
  productRating: (p) => `Bewertung für ${p}`,
  productText: (p) => `Ihre Bewertung von ${p}`,
  submit: 'Bewertung veröffentlichen',
  required: 'Pflichtfeld',
  errorTitle: 'Bitte prüfen Sie Ihre Bewertung',
  errorSummary: 'Einige Angaben brauchen Ihre Aufmerksamkeit:',
  ratingRequired: 'Wählen Sie eine Gesamtbewertung von 1 bis 5 Sternen.',
  nameRequired: 'Geben Sie einen Namen mit höchstens 80 Zeichen ein.',
  tooLong: (max) => `Verwenden Sie höchstens ${max} Zeichen.`,
  countryInvalid: 'Wählen Sie ein Land aus der Liste.',
  thanksTitle: 'Vielen Dank für Ihre Bewertung',
  thanksBody: (shop) => `Ihre Bewertung von ${shop} wurde veröffentlicht.`,
  editLink: 'Meine Bewertung ändern',
  usedTitle: 'Sie haben diese Bewertung bereits geschrieben',
  usedBody:
    'Mit diesem Link wurde bereits eine Bewertung geschrieben. Jeder Link funktioniert einmal. Vielen Dank für Ihre Bewertung!',
  unknownTitle: 'Dieser Link funktioniert nicht',
  unknownBody:
    'Der Link ist unvollständig oder nicht mehr gültig. Kopieren Sie den ganzen Link aus der E-Mail oder wenden Sie sich an den Shop.',
  reviewExpiredTitle: 'Dieser Bewertungslink ist abgelaufen',
  reviewExpiredBody: (shop, days) =>
    `Links in Einladungen zur Bewertung funktionieren ${days} Tage lang, nachdem die Einladung verschickt wurde. Wenn Sie Ihre Erfahrung mit ${shop} trotzdem teilen möchten, wenden Sie sich bitte an den Shop.`,
  editExpiredTitle: 'Dieser Link zum Ändern Ihrer Bewertung ist abgelaufen',
  editExpiredBody: (shop, days) =>
    `Links zum Ändern einer Bewertung funktionieren ${days} Tage lang. Ihre Bewertung bleibt, wie sie ist. Wenn Sie sie ändern möchten, wenden Sie sich bitte an ${shop}.`,
  editTitle: (shop) => `Ihre Bewertung von ${shop} ändern`,
  editIntro: 'Ändern Sie, was Sie möchten, und speichern Sie. Ihre Bewertung wird sofort aktualisiert.',
  editSave: 'Änderungen speichern',
  editSaved: 'Ihre Änderungen wurden gespeichert.',
  confirmTitle: 'Bestätigen Sie Ihre Bewertung',
  confirmBody: (shop) =>
    `Bestätigen Sie, dass Sie diese Bewertung von ${shop} geschrieben haben. Sie wird nach Ihrer Bestätigung veröffentlicht.`,
  confirmButton: 'Bestätigen und veröffentlichen',
  confirmedTitle: 'Ihre Bewertung ist veröffentlicht',
  confirmedBody: (shop) => `Danke für Ihre Bestätigung. Ihre Bewertung von ${shop} ist jetzt sichtbar.`,
  confirmGoneTitle: 'Dieser Bestätigungslink funktioniert nicht',
  confirmGoneBody:
    'Der Link ist unvollständig oder nicht mehr gültig. Wenn Sie Ihre Bewertung schon bestätigt haben, ist sie veröffentlicht.',
  shopTitle: (shop) => `Bewertungen von ${shop}`,
  score: 'Note',
  outOf10: (s) => `${s} von 10`,
  outOf5: (n) => `${n} von 5 Sternen`,
  reviewCount: (n, f) => (n === 1 ? '1 Bewertung' : `${f} Bewertungen`),
  verified: 'Verifizierter Kunde',
  replyFrom: (shop) => `Antwort von ${shop}`,
  noReviews: 'Noch keine Bewertungen.',
  newer: 'Neuere Bewertungen',
  older: 'Ältere Bewertungen',
  pageOf: (p, n) => `Seite ${p} von ${n}`,
  pagination: 'Bewertungsseiten',
  visitShop: (shop) => `Zu ${shop}`,
  shopNotFoundTitle: 'Shop nicht gefunden',
  shopNotFoundBody: 'Unter dieser Adresse gibt es keinen Shop.',
  badgeApproved: (d) => `Geprüfter Shop seit ${d}`,
  badgeVerifiedShare: (p) => `${p} % verifizierte Kunden`,
  badgeMemberYears: (y) => (y === 1 ? 'Seit 1 Jahr Mitglied' : `Seit ${y} Jahren Mitglied`),
  footer: (brand) => `Bewertungen gesammelt von ${brand}`,
};

const fr: PageStrings = {
  reviewTitle: (shop) => `Évaluer ${shop}`,
  reviewIntro: (shop) => `Comment s’est passée votre commande chez ${shop} ? Votre avis aide les autres clients.`,
  overall: 'Votre note globale',
  subScores: {
    shippingtime: 'Délai de livraison',
    customerservice: 'Service client',
    pricequality: 'Rapport qualité-prix',
    aftersale: 'Service après-vente',
  },
  optional: 'facultatif',
  noRating: 'Pas de note',
  charactersLeft: 'Encore {n} caractères',
  stars: (n) => (n === 1 ? '1 étoile' : `${n} étoiles`),
  comment: 'Votre avis',
  name: 'Votre nom',
  nameHint: 'Affiché avec votre avis.',
  country: 'Pays',
  countryNone: 'Non indiqué',
  productsHeading: 'Évaluez vos produits',
  productRating: (p) => `Note pour ${p}`,
  productText: (p) => `Votre avis sur ${p}`,
  submit: 'Publier mon avis',
  required: 'obligatoire',
  errorTitle: 'Veuillez vérifier votre avis',
  errorSummary: 'Certaines réponses demandent votre attention :',
  ratingRequired: 'Choisissez une note globale de 1 à 5 étoiles.',
  nameRequired: 'Saisissez un nom de 80 caractères au plus.',
  tooLong: (max) => `Utilisez au plus ${max} caractères.`,
  countryInvalid: 'Choisissez un pays dans la liste.',
  thanksTitle: 'Merci pour votre avis',
  thanksBody: (shop) => `Votre avis sur ${shop} a été publié.`,
  editLink: 'Modifier mon avis',
  usedTitle: 'Vous avez déjà écrit cet avis',
  usedBody: 'Ce lien a déjà servi à écrire un avis. Chaque lien ne fonctionne qu’une fois. Merci pour votre avis !',
  unknownTitle: 'Ce lien ne fonctionne pas',
  unknownBody:
    'Le lien est incomplet ou n’est plus valable. Copiez le lien entier depuis l’e-mail, ou contactez la boutique.',
  reviewExpiredTitle: 'Ce lien pour donner votre avis a expiré',
  reviewExpiredBody: (shop, days) =>
    `Les liens des invitations à donner un avis fonctionnent pendant ${days} jours après l’envoi de l’invitation. Si vous souhaitez tout de même partager votre expérience avec ${shop}, contactez la boutique.`,
  editExpiredTitle: 'Ce lien pour modifier votre avis a expiré',
  editExpiredBody: (shop, days) =>
    `Les liens pour modifier un avis fonctionnent pendant ${days} jours. Votre avis reste tel quel. Si vous souhaitez le modifier, contactez ${shop}.`,
  editTitle: (shop) => `Modifier votre avis sur ${shop}`,
  editIntro: 'Modifiez ce que vous souhaitez et enregistrez. Votre avis est mis à jour immédiatement.',
  editSave: 'Enregistrer les modifications',
  editSaved: 'Vos modifications ont été enregistrées.',
  confirmTitle: 'Confirmez votre avis',
  confirmBody: (shop) => `Confirmez que vous avez écrit cet avis sur ${shop}. Il sera publié après votre confirmation.`,
  confirmButton: 'Confirmer et publier',
  confirmedTitle: 'Votre avis est publié',
  confirmedBody: (shop) => `Merci pour votre confirmation. Votre avis sur ${shop} est maintenant visible.`,
  confirmGoneTitle: 'Ce lien de confirmation ne fonctionne pas',
  confirmGoneBody:
    'Le lien est incomplet ou n’est plus valable. Si vous avez déjà confirmé votre avis, il a été publié.',
  shopTitle: (shop) => `Avis sur ${shop}`,
  score: 'Note',
  outOf10: (s) => `${s} sur 10`,
  outOf5: (n) => `${n} étoiles sur 5`,
  reviewCount: (n, f) => (n === 1 ? '1 avis' : `${f} avis`),
  verified: 'Client vérifié',
  replyFrom: (shop) => `Réponse de ${shop}`,
  noReviews: 'Pas encore d’avis.',
  newer: 'Avis plus récents',
  older: 'Avis plus anciens',
  pageOf: (p, n) => `Page ${p} sur ${n}`,
  pagination: 'Pages d’avis',
  visitShop: (shop) => `Visiter ${shop}`,
  shopNotFoundTitle: 'Boutique introuvable',
  shopNotFoundBody: 'Il n’y a pas de boutique à cette adresse.',
  badgeApproved: (d) => `Boutique approuvée depuis le ${d}`,
  badgeVerifiedShare: (p) => `${p} % de clients vérifiés`,
  badgeMemberYears: (y) => (y === 1 ? 'Membre depuis 1 an' : `Membre depuis ${y} ans`),
  footer: (brand) => `Avis collectés par ${brand}`,
};

const es: PageStrings = {
  reviewTitle: (shop) => `Valora ${shop}`,
  reviewIntro: (shop) => `¿Qué tal fue tu pedido en ${shop}? Tu opinión ayuda a otros clientes.`,
  overall: 'Tu valoración general',
  subScores: {
    shippingtime: 'Plazo de entrega',
    customerservice: 'Atención al cliente',
    pricequality: 'Relación calidad-precio',
    aftersale: 'Servicio posventa',
  },
  optional: 'opcional',
  noRating: 'Sin valorar',
  charactersLeft: 'Quedan {n} caracteres',
  stars: (n) => (n === 1 ? '1 estrella' : `${n} estrellas`),
  comment: 'Tu opinión',
  name: 'Tu nombre',
  nameHint: 'Se muestra con tu opinión.',
  country: 'País',
  countryNone: 'Sin indicar',
  productsHeading: 'Valora tus productos',
  productRating: (p) => `Valoración de ${p}`,
  productText: (p) => `Tu opinión sobre ${p}`,
  submit: 'Publicar mi opinión',
  required: 'obligatorio',
  errorTitle: 'Revisa tu opinión',
  errorSummary: 'Algunas respuestas necesitan tu atención:',
  ratingRequired: 'Elige una valoración general de 1 a 5 estrellas.',
  nameRequired: 'Escribe un nombre de 80 caracteres como máximo.',
  tooLong: (max) => `Usa como máximo ${max} caracteres.`,
  countryInvalid: 'Elige un país de la lista.',
  thanksTitle: 'Gracias por tu opinión',
  thanksBody: (shop) => `Tu opinión sobre ${shop} se ha publicado.`,
  editLink: 'Cambiar mi opinión',
  usedTitle: 'Ya escribiste esta opinión',
  usedBody: 'Este enlace ya se usó para escribir una opinión. Cada enlace funciona una vez. ¡Gracias por tu opinión!',
  unknownTitle: 'Este enlace no funciona',
  unknownBody:
    'El enlace está incompleto o ya no es válido. Copia el enlace completo del correo o ponte en contacto con la tienda.',
  reviewExpiredTitle: 'Este enlace para opinar ha caducado',
  reviewExpiredBody: (shop, days) =>
    `Los enlaces de las invitaciones para opinar funcionan durante ${days} días desde el envío de la invitación. Si aún quieres compartir tu experiencia con ${shop}, ponte en contacto con la tienda.`,
  editExpiredTitle: 'Este enlace para cambiar tu opinión ha caducado',
  editExpiredBody: (shop, days) =>
    `Los enlaces para cambiar una opinión funcionan durante ${days} días. Tu opinión se queda como está. Si quieres cambiarla, ponte en contacto con ${shop}.`,
  editTitle: (shop) => `Cambia tu opinión sobre ${shop}`,
  editIntro: 'Cambia lo que quieras y guarda. Tu opinión se actualiza al instante.',
  editSave: 'Guardar cambios',
  editSaved: 'Tus cambios se han guardado.',
  confirmTitle: 'Confirma tu opinión',
  confirmBody: (shop) => `Confirma que escribiste esta opinión sobre ${shop}. Se publica cuando la confirmes.`,
  confirmButton: 'Confirmar y publicar',
  confirmedTitle: 'Tu opinión está publicada',
  confirmedBody: (shop) => `Gracias por confirmar. Tu opinión sobre ${shop} ya es visible.`,
  confirmGoneTitle: 'Este enlace de confirmación no funciona',
  confirmGoneBody: 'El enlace está incompleto o ya no es válido. Si ya confirmaste tu opinión, está publicada.',
  shopTitle: (shop) => `Opiniones sobre ${shop}`,
  score: 'Puntuación',
  outOf10: (s) => `${s} de 10`,
  outOf5: (n) => `${n} de 5 estrellas`,
  reviewCount: (n, f) => (n === 1 ? '1 opinión' : `${f} opiniones`),
  verified: 'Cliente verificado',
  replyFrom: (shop) => `Respuesta de ${shop}`,
  noReviews: 'Todavía no hay opiniones.',
  newer: 'Opiniones más recientes',
  older: 'Opiniones más antiguas',
  pageOf: (p, n) => `Página ${p} de ${n}`,
  pagination: 'Páginas de opiniones',
  visitShop: (shop) => `Visitar ${shop}`,
  shopNotFoundTitle: 'Tienda no encontrada',
  shopNotFoundBody: 'No hay ninguna tienda en esta dirección.',
  badgeApproved: (d) => `Tienda aprobada desde el ${d}`,
  badgeVerifiedShare: (p) => `${p} % de clientes verificados`,
  badgeMemberYears: (y) => (y === 1 ? 'Miembro desde hace 1 año' : `Miembro desde hace ${y} años`),
  footer: (brand) => `Opiniones recogidas por ${brand}`,
};

const it: PageStrings = {
  reviewTitle: (shop) => `Valuta ${shop}`,
  reviewIntro: (shop) => `Com’è andato il tuo ordine su ${shop}? La tua recensione aiuta altri clienti.`,
  overall: 'La tua valutazione complessiva',
  subScores: {
    shippingtime: 'Tempi di consegna',
    customerservice: 'Servizio clienti',
    pricequality: 'Rapporto qualità-prezzo',
    aftersale: 'Assistenza post-vendita',
  },
  optional: 'facoltativo',
  noRating: 'Nessun voto',
  charactersLeft: 'Ancora {n} caratteri',
  stars: (n) => (n === 1 ? '1 stella' : `${n} stelle`),
  comment: 'La tua recensione',
  name: 'Il tuo nome',
  nameHint: 'Mostrato con la tua recensione.',
  country: 'Paese',
  countryNone: 'Non indicato',
  productsHeading: 'Valuta i tuoi prodotti',
  productRating: (p) => `Voto per ${p}`,
  productText: (p) => `La tua recensione di ${p}`,
  submit: 'Pubblica la recensione',
  required: 'obbligatorio',
  errorTitle: 'Controlla la tua recensione',
  errorSummary: 'Alcune risposte richiedono la tua attenzione:',
  ratingRequired: 'Scegli una valutazione complessiva da 1 a 5 stelle.',
  nameRequired: 'Inserisci un nome di massimo 80 caratteri.',
  tooLong: (max) => `Usa al massimo ${max} caratteri.`,
  countryInvalid: 'Scegli un paese dall’elenco.',
  thanksTitle: 'Grazie per la tua recensione',
  thanksBody: (shop) => `La tua recensione di ${shop} è stata pubblicata.`,
  editLink: 'Modifica la mia recensione',
  usedTitle: 'Hai già scritto questa recensione',
  usedBody:
    'Questo link è già stato usato per scrivere una recensione. Ogni link funziona una volta. Grazie per la tua recensione!',
  unknownTitle: 'Questo link non funziona',
  unknownBody: 'Il link è incompleto o non è più valido. Copia l’intero link dall’e-mail o contatta il negozio.',
  reviewExpiredTitle: 'Questo link per la recensione è scaduto',
  reviewExpiredBody: (shop, days) =>
    `I link degli inviti a scrivere una recensione funzionano per ${days} giorni dall’invio dell’invito. Se vuoi comunque condividere la tua esperienza con ${shop}, contatta il negozio.`,
  editExpiredTitle: 'Questo link per modificare la recensione è scaduto',
  editExpiredBody: (shop, days) =>
    `I link per modificare una recensione funzionano per ${days} giorni. La tua recensione resta com’è. Se vuoi modificarla, contatta ${shop}.`,
  editTitle: (shop) => `Modifica la tua recensione di ${shop}`,
  editIntro: 'Modifica ciò che vuoi e salva. La recensione viene aggiornata subito.',
  editSave: 'Salva le modifiche',
  editSaved: 'Le modifiche sono state salvate.',
  confirmTitle: 'Conferma la tua recensione',
  confirmBody: (shop) => `Conferma di aver scritto questa recensione di ${shop}. Sarà pubblicata dopo la conferma.`,
  confirmButton: 'Conferma e pubblica',
  confirmedTitle: 'La tua recensione è pubblicata',
  confirmedBody: (shop) => `Grazie per la conferma. La tua recensione di ${shop} ora è visibile.`,
  confirmGoneTitle: 'Questo link di conferma non funziona',
  confirmGoneBody: 'Il link è incompleto o non è più valido. Se hai già confermato la recensione, è stata pubblicata.',
  shopTitle: (shop) => `Recensioni di ${shop}`,
  score: 'Punteggio',
  outOf10: (s) => `${s} su 10`,
  outOf5: (n) => `${n} stelle su 5`,
  reviewCount: (n, f) => (n === 1 ? '1 recensione' : `${f} recensioni`),
  verified: 'Cliente verificato',
  replyFrom: (shop) => `Risposta di ${shop}`,
  noReviews: 'Ancora nessuna recensione.',
  newer: 'Recensioni più recenti',
  older: 'Recensioni meno recenti',
  pageOf: (p, n) => `Pagina ${p} di ${n}`,
  pagination: 'Pagine delle recensioni',
  visitShop: (shop) => `Visita ${shop}`,
  shopNotFoundTitle: 'Negozio non trovato',
  shopNotFoundBody: 'A questo indirizzo non c’è nessun negozio.',
  badgeApproved: (d) => `Negozio approvato dal ${d}`,
  badgeVerifiedShare: (p) => `${p}% clienti verificati`,
  badgeMemberYears: (y) => (y === 1 ? 'Membro da 1 anno' : `Membro da ${y} anni`),
  footer: (brand) => `Recensioni raccolte da ${brand}`,
};

const hr: PageStrings = {
  reviewTitle: (shop) => `Ocijenite ${shop}`,
  reviewIntro: (shop) => `Kako je prošla vaša narudžba u trgovini ${shop}? Vaša recenzija pomaže drugim kupcima.`,
  overall: 'Vaša ukupna ocjena',
  subScores: {
    shippingtime: 'Rok isporuke',
    customerservice: 'Korisnička služba',
    pricequality: 'Omjer cijene i kvalitete',
    aftersale: 'Usluga nakon kupnje',
  },
  optional: 'neobavezno',
  noRating: 'Bez ocjene',
  charactersLeft: 'Preostalo znakova: {n}',
  stars: (n) => (n === 1 ? '1 zvjezdica' : n < 5 ? `${n} zvjezdice` : `${n} zvjezdica`),
  comment: 'Vaša recenzija',
  name: 'Vaše ime',
  nameHint: 'Prikazuje se uz vašu recenziju.',
  country: 'Država',
  countryNone: 'Nije navedeno',
  productsHeading: 'Ocijenite svoje proizvode',
  productRating: (p) => `Ocjena za ${p}`,
  productText: (p) => `Vaša recenzija proizvoda ${p}`,
  submit: 'Objavi recenziju',
  required: 'obavezno',
  errorTitle: 'Provjerite svoju recenziju',
  errorSummary: 'Neki odgovori trebaju vašu pažnju:',
  ratingRequired: 'Odaberite ukupnu ocjenu od 1 do 5 zvjezdica.',
  nameRequired: 'Upišite ime od najviše 80 znakova.',
  tooLong: (max) => `Upotrijebite najviše ${max} znakova.`,
  countryInvalid: 'Odaberite državu s popisa.',
  thanksTitle: 'Hvala na recenziji',
  thanksBody: (shop) => `Vaša recenzija trgovine ${shop} je objavljena.`,
  editLink: 'Promijeni moju recenziju',
  usedTitle: 'Već ste napisali ovu recenziju',
  usedBody: 'Ova je poveznica već upotrijebljena za recenziju. Svaka poveznica radi jednom. Hvala na recenziji!',
  unknownTitle: 'Ova poveznica ne radi',
  unknownBody:
    'Poveznica je nepotpuna ili više ne vrijedi. Kopirajte cijelu poveznicu iz e-pošte ili se obratite trgovini.',
  reviewExpiredTitle: 'Ova poveznica za recenziju je istekla',
  reviewExpiredBody: (shop, days) =>
    `Poveznice u pozivnicama za recenziju vrijede ${days} dana od slanja pozivnice. Ako ipak želite podijeliti svoje iskustvo s trgovinom ${shop}, obratite se trgovini.`,
  editExpiredTitle: 'Poveznica za izmjenu recenzije je istekla',
  editExpiredBody: (shop, days) =>
    `Poveznice za izmjenu recenzije vrijede ${days} dana. Vaša recenzija ostaje kakva jest. Ako je želite izmijeniti, obratite se trgovini ${shop}.`,
  editTitle: (shop) => `Promijenite recenziju trgovine ${shop}`,
  editIntro: 'Promijenite što želite i spremite. Recenzija se odmah ažurira.',
  editSave: 'Spremi promjene',
  editSaved: 'Vaše su promjene spremljene.',
  confirmTitle: 'Potvrdite svoju recenziju',
  confirmBody: (shop) => `Potvrdite da ste napisali ovu recenziju trgovine ${shop}. Objavit će se nakon potvrde.`,
  confirmButton: 'Potvrdi i objavi',
  confirmedTitle: 'Vaša je recenzija objavljena',
  confirmedBody: (shop) => `Hvala na potvrdi. Vaša recenzija trgovine ${shop} sada je vidljiva.`,
  confirmGoneTitle: 'Ova poveznica za potvrdu ne radi',
  confirmGoneBody: 'Poveznica je nepotpuna ili više ne vrijedi. Ako ste recenziju već potvrdili, objavljena je.',
  shopTitle: (shop) => `Recenzije trgovine ${shop}`,
  score: 'Ocjena',
  outOf10: (s) => `${s} od 10`,
  outOf5: (n) => `${n} od 5 zvjezdica`,
  reviewCount: (n, f) => (n === 1 ? '1 recenzija' : `Recenzija: ${f}`),
  verified: 'Provjereni kupac',
  replyFrom: (shop) => `Odgovor trgovine ${shop}`,
  noReviews: 'Još nema recenzija.',
  newer: 'Novije recenzije',
  older: 'Starije recenzije',
  pageOf: (p, n) => `Stranica ${p} od ${n}`,
  pagination: 'Stranice recenzija',
  visitShop: (shop) => `Posjetite ${shop}`,
  shopNotFoundTitle: 'Trgovina nije pronađena',
  shopNotFoundBody: 'Na ovoj adresi nema trgovine.',
  badgeApproved: (d) => `Odobrena trgovina od ${d}`,
  badgeVerifiedShare: (p) => `${p} % provjerenih kupaca`,
  badgeMemberYears: (y) =>
    `Član ${y} ${y % 10 === 1 && y % 100 !== 11 ? 'godinu' : y % 10 >= 2 && y % 10 <= 4 && (y % 100 < 12 || y % 100 > 14) ? 'godine' : 'godina'}`,
  footer: (brand) => `Recenzije prikuplja ${brand}`,
};

export const PAGE_STRINGS: Record<Language, PageStrings> = { nl, en, de, fr, es, it, hr };

export function stringsFor(language: Language): PageStrings {
  return PAGE_STRINGS[language];
}

/** The country a language suggests, to prefill the review form. */
export const DEFAULT_COUNTRY: Record<Language, string> = {
  nl: 'NL',
  en: 'GB',
  de: 'DE',
  fr: 'FR',
  es: 'ES',
  it: 'IT',
  hr: 'HR',
};
