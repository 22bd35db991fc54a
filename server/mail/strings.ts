// Every word the e-mails and the unsubscribe page say, in the service's seven languages. `{shop}`, `{name}`,
// `{brand}` and `{email}` are filled in (and HTML-escaped where needed) by the templates.
import type { Language } from '../languages.js';

export interface MailStrings {
  helloName: string;
  hello: string;
  inviteSubject: string;
  inviteBody: string;
  inviteButton: string;
  linkFallback: string;
  unsubscribeLine: string;
  unsubscribeLink: string;
  editSubject: string;
  editBody: string;
  editButton: string;
  confirmSubject: string;
  confirmBody: string;
  confirmButton: string;
  confirmIgnore: string;
  replySubject: string;
  replyBody: string;
  replyYouWrote: string;
  footer: string;
  unsubscribeTitle: string;
  unsubscribeQuestion: string;
  unsubscribeButton: string;
  unsubscribeDone: string;
  unsubscribeInvalid: string;
}

export const MAIL_STRINGS: Record<Language, MailStrings> = {
  en: {
    helloName: 'Hello {name},',
    hello: 'Hello,',
    inviteSubject: 'How was your order at {shop}?',
    inviteBody: 'Thank you for your order at {shop}. Would you tell us about your experience? It takes a minute and helps other customers choose.',
    inviteButton: 'Write a review',
    linkFallback: 'If the button does not work, open this link:',
    unsubscribeLine: 'No more review invitations from {shop}?',
    unsubscribeLink: 'Unsubscribe',
    editSubject: 'Your review of {shop}',
    editBody: 'Thank you for your review of {shop}. Now that you have had your order for a while, you can still change or add to it.',
    editButton: 'Edit your review',
    confirmSubject: 'Please confirm your review of {shop}',
    confirmBody: 'Thank you for your review of {shop}. Please confirm that you wrote it, so that it can be published.',
    confirmButton: 'Confirm your review',
    confirmIgnore: 'If you did not write a review, you can ignore this e-mail.',
    replySubject: '{shop} replied to your review',
    replyBody: '{shop} replied to your review:',
    replyYouWrote: 'You wrote:',
    footer: 'Sent on behalf of {shop} by {brand}.',
    unsubscribeTitle: 'Unsubscribe',
    unsubscribeQuestion: 'Stop review invitations from {shop} to {email}?',
    unsubscribeButton: 'Unsubscribe',
    unsubscribeDone: 'Done. {email} will no longer receive review invitations from {shop}.',
    unsubscribeInvalid: 'This link is not valid.',
  },
  nl: {
    helloName: 'Beste {name},',
    hello: 'Beste klant,',
    inviteSubject: 'Hoe was je bestelling bij {shop}?',
    inviteBody: 'Bedankt voor je bestelling bij {shop}. Wil je je ervaring delen? Het kost je een minuut en helpt andere klanten bij hun keuze.',
    inviteButton: 'Schrijf een review',
    linkFallback: 'Werkt de knop niet? Open dan deze link:',
    unsubscribeLine: 'Geen reviewuitnodigingen meer van {shop}?',
    unsubscribeLink: 'Afmelden',
    editSubject: 'Je review van {shop}',
    editBody: 'Bedankt voor je review van {shop}. Nu je je bestelling een tijdje hebt, kun je je review nog aanpassen of aanvullen.',
    editButton: 'Review aanpassen',
    confirmSubject: 'Bevestig je review van {shop}',
    confirmBody: 'Bedankt voor je review van {shop}. Bevestig dat jij hem hebt geschreven, dan kan hij worden gepubliceerd.',
    confirmButton: 'Review bevestigen',
    confirmIgnore: 'Heb je geen review geschreven? Dan kun je deze e-mail negeren.',
    replySubject: '{shop} heeft op je review gereageerd',
    replyBody: '{shop} heeft op je review gereageerd:',
    replyYouWrote: 'Je schreef:',
    footer: 'Verstuurd namens {shop} door {brand}.',
    unsubscribeTitle: 'Afmelden',
    unsubscribeQuestion: 'Geen reviewuitnodigingen meer van {shop} naar {email}?',
    unsubscribeButton: 'Afmelden',
    unsubscribeDone: 'Gelukt. {email} ontvangt geen reviewuitnodigingen meer van {shop}.',
    unsubscribeInvalid: 'Deze link is niet geldig.',
  },
  de: {
    helloName: 'Hallo {name},',
    hello: 'Hallo,',
    inviteSubject: 'Wie war Ihre Bestellung bei {shop}?',
    inviteBody: 'Vielen Dank für Ihre Bestellung bei {shop}. Möchten Sie von Ihren Erfahrungen berichten? Es dauert nur eine Minute und hilft anderen Kunden bei der Wahl.',
    inviteButton: 'Bewertung schreiben',
    linkFallback: 'Falls die Schaltfläche nicht funktioniert, öffnen Sie diesen Link:',
    unsubscribeLine: 'Keine Bewertungseinladungen mehr von {shop}?',
    unsubscribeLink: 'Abmelden',
    editSubject: 'Ihre Bewertung von {shop}',
    editBody: 'Vielen Dank für Ihre Bewertung von {shop}. Jetzt, da Sie Ihre Bestellung eine Weile haben, können Sie Ihre Bewertung noch ändern oder ergänzen.',
    editButton: 'Bewertung bearbeiten',
    confirmSubject: 'Bitte bestätigen Sie Ihre Bewertung von {shop}',
    confirmBody: 'Vielen Dank für Ihre Bewertung von {shop}. Bitte bestätigen Sie, dass Sie sie geschrieben haben, damit sie veröffentlicht werden kann.',
    confirmButton: 'Bewertung bestätigen',
    confirmIgnore: 'Wenn Sie keine Bewertung geschrieben haben, können Sie diese E-Mail ignorieren.',
    replySubject: '{shop} hat auf Ihre Bewertung geantwortet',
    replyBody: '{shop} hat auf Ihre Bewertung geantwortet:',
    replyYouWrote: 'Sie schrieben:',
    footer: 'Im Auftrag von {shop} versendet von {brand}.',
    unsubscribeTitle: 'Abmelden',
    unsubscribeQuestion: 'Keine Bewertungseinladungen mehr von {shop} an {email}?',
    unsubscribeButton: 'Abmelden',
    unsubscribeDone: 'Erledigt. {email} erhält keine Bewertungseinladungen mehr von {shop}.',
    unsubscribeInvalid: 'Dieser Link ist nicht gültig.',
  },
  fr: {
    helloName: 'Bonjour {name},',
    hello: 'Bonjour,',
    inviteSubject: 'Comment s’est passée votre commande chez {shop} ?',
    inviteBody: 'Merci pour votre commande chez {shop}. Voulez-vous partager votre expérience ? Cela prend une minute et aide d’autres clients à choisir.',
    inviteButton: 'Écrire un avis',
    linkFallback: 'Si le bouton ne fonctionne pas, ouvrez ce lien :',
    unsubscribeLine: 'Ne plus recevoir d’invitations à donner un avis de la part de {shop} ?',
    unsubscribeLink: 'Se désabonner',
    editSubject: 'Votre avis sur {shop}',
    editBody: 'Merci pour votre avis sur {shop}. Maintenant que vous avez votre commande depuis un moment, vous pouvez encore le modifier ou le compléter.',
    editButton: 'Modifier votre avis',
    confirmSubject: 'Veuillez confirmer votre avis sur {shop}',
    confirmBody: 'Merci pour votre avis sur {shop}. Veuillez confirmer que vous l’avez écrit afin qu’il puisse être publié.',
    confirmButton: 'Confirmer votre avis',
    confirmIgnore: 'Si vous n’avez pas écrit d’avis, vous pouvez ignorer cet e-mail.',
    replySubject: '{shop} a répondu à votre avis',
    replyBody: '{shop} a répondu à votre avis :',
    replyYouWrote: 'Vous avez écrit :',
    footer: 'Envoyé au nom de {shop} par {brand}.',
    unsubscribeTitle: 'Se désabonner',
    unsubscribeQuestion: 'Ne plus envoyer d’invitations à donner un avis de la part de {shop} à {email} ?',
    unsubscribeButton: 'Se désabonner',
    unsubscribeDone: 'C’est fait. {email} ne recevra plus d’invitations à donner un avis de la part de {shop}.',
    unsubscribeInvalid: 'Ce lien n’est pas valide.',
  },
  es: {
    helloName: 'Hola, {name}:',
    hello: 'Hola:',
    inviteSubject: '¿Qué tal tu pedido en {shop}?',
    inviteBody: 'Gracias por tu pedido en {shop}. ¿Nos cuentas tu experiencia? Solo te llevará un minuto y ayudará a otros clientes a elegir.',
    inviteButton: 'Escribir una opinión',
    linkFallback: 'Si el botón no funciona, abre este enlace:',
    unsubscribeLine: '¿No quieres más invitaciones a opinar de {shop}?',
    unsubscribeLink: 'Darse de baja',
    editSubject: 'Tu opinión sobre {shop}',
    editBody: 'Gracias por tu opinión sobre {shop}. Ahora que ya tienes tu pedido desde hace un tiempo, todavía puedes cambiarla o completarla.',
    editButton: 'Editar tu opinión',
    confirmSubject: 'Confirma tu opinión sobre {shop}',
    confirmBody: 'Gracias por tu opinión sobre {shop}. Confirma que la has escrito tú para que pueda publicarse.',
    confirmButton: 'Confirmar tu opinión',
    confirmIgnore: 'Si no has escrito ninguna opinión, puedes ignorar este correo.',
    replySubject: '{shop} ha respondido a tu opinión',
    replyBody: '{shop} ha respondido a tu opinión:',
    replyYouWrote: 'Escribiste:',
    footer: 'Enviado en nombre de {shop} por {brand}.',
    unsubscribeTitle: 'Darse de baja',
    unsubscribeQuestion: '¿Dejar de enviar invitaciones a opinar de {shop} a {email}?',
    unsubscribeButton: 'Darse de baja',
    unsubscribeDone: 'Hecho. {email} ya no recibirá invitaciones a opinar de {shop}.',
    unsubscribeInvalid: 'Este enlace no es válido.',
  },
  it: {
    helloName: 'Ciao {name},',
    hello: 'Ciao,',
    inviteSubject: 'Com’è andato il tuo ordine su {shop}?',
    inviteBody: 'Grazie per il tuo ordine su {shop}. Ci racconti la tua esperienza? Ci vuole un minuto e aiuta altri clienti a scegliere.',
    inviteButton: 'Scrivi una recensione',
    linkFallback: 'Se il pulsante non funziona, apri questo link:',
    unsubscribeLine: 'Non vuoi più ricevere inviti a recensire da {shop}?',
    unsubscribeLink: 'Annulla l’iscrizione',
    editSubject: 'La tua recensione di {shop}',
    editBody: 'Grazie per la tua recensione di {shop}. Ora che hai il tuo ordine da un po’, puoi ancora modificarla o completarla.',
    editButton: 'Modifica la recensione',
    confirmSubject: 'Conferma la tua recensione di {shop}',
    confirmBody: 'Grazie per la tua recensione di {shop}. Conferma di averla scritta tu, così potrà essere pubblicata.',
    confirmButton: 'Conferma la recensione',
    confirmIgnore: 'Se non hai scritto nessuna recensione, puoi ignorare questa e-mail.',
    replySubject: '{shop} ha risposto alla tua recensione',
    replyBody: '{shop} ha risposto alla tua recensione:',
    replyYouWrote: 'Hai scritto:',
    footer: 'Inviato per conto di {shop} da {brand}.',
    unsubscribeTitle: 'Annulla l’iscrizione',
    unsubscribeQuestion: 'Non inviare più inviti a recensire da {shop} a {email}?',
    unsubscribeButton: 'Annulla l’iscrizione',
    unsubscribeDone: 'Fatto. {email} non riceverà più inviti a recensire da {shop}.',
    unsubscribeInvalid: 'Questo link non è valido.',
  },
  hr: {
    helloName: 'Poštovani/a {name},',
    hello: 'Poštovani,',
    inviteSubject: 'Kako je prošla vaša narudžba u {shop}?',
    inviteBody: 'Hvala vam na narudžbi u {shop}. Želite li podijeliti svoje iskustvo? Potrebna je samo minuta, a drugim kupcima pomaže pri odabiru.',
    inviteButton: 'Napišite recenziju',
    linkFallback: 'Ako gumb ne radi, otvorite ovu poveznicu:',
    unsubscribeLine: 'Ne želite više pozive na recenziju od {shop}?',
    unsubscribeLink: 'Odjava',
    editSubject: 'Vaša recenzija za {shop}',
    editBody: 'Hvala vam na recenziji za {shop}. Sada kada narudžbu imate već neko vrijeme, recenziju još možete izmijeniti ili dopuniti.',
    editButton: 'Uredite recenziju',
    confirmSubject: 'Potvrdite svoju recenziju za {shop}',
    confirmBody: 'Hvala vam na recenziji za {shop}. Potvrdite da ste je vi napisali kako bi mogla biti objavljena.',
    confirmButton: 'Potvrdite recenziju',
    confirmIgnore: 'Ako niste napisali recenziju, zanemarite ovu e-poruku.',
    replySubject: '{shop} je odgovorio na vašu recenziju',
    replyBody: '{shop} je odgovorio na vašu recenziju:',
    replyYouWrote: 'Napisali ste:',
    footer: 'Poslano u ime {shop} putem {brand}.',
    unsubscribeTitle: 'Odjava',
    unsubscribeQuestion: 'Više ne slati pozive na recenziju od {shop} na {email}?',
    unsubscribeButton: 'Odjavi se',
    unsubscribeDone: 'Gotovo. {email} više neće primati pozive na recenziju od {shop}.',
    unsubscribeInvalid: 'Ova poveznica nije valjana.',
  },
};

/** Fills `{key}` placeholders; unknown keys stay as they are. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}
