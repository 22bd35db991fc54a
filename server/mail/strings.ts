// Every word the e-mails and the unsubscribe page say, in the service's seven languages. `{shop}`, `{name}`,
// `{brand}` and `{email}` are filled in (and HTML-escaped where needed) by the templates.
import type { Language } from '../languages.js';

export interface MailStrings {
  helloName: string;
  hello: string;
  inviteSubject: string;
  inviteBody: string;
  inviteButton: string;
  /** The one reminder of an invitation whose link was not used (invitations/reminders.ts). */
  reminderSubject: string;
  reminderBody: string;
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
  /** The operator removed the writer's review (server/moderation): the ground follows as a quote. */
  removedSubject: string;
  removedBody: string;
  removedPolicy: string;
  /** The dashboard's sign-in e-mail (server/accounts): `{brand}`; the link works once, within 15 minutes. */
  signInSubject: string;
  signInBody: string;
  signInButton: string;
  signInIgnore: string;
  /** The same e-mail when someone added the address to a shop's team: `{shop}`, `{role}`, `{url}` (the sign-in page). */
  teamAddedSubject: string;
  teamAddedBody: string;
  teamAddedLater: string;
  /** The dashboard's roles (server/accounts/roles.ts) as `{role}` in teamAddedBody. */
  roleNames: { owner: string; manager: string; support: string };
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
    inviteBody:
      'Thank you for your order at {shop}. Would you tell us about your experience? It takes a minute and helps other customers choose.',
    inviteButton: 'Write a review',
    reminderSubject: 'A reminder: how was your order at {shop}?',
    reminderBody:
      'A few days ago {shop} asked about your order. If you have a minute, your review helps other customers choose. This is the only reminder you will get for this order.',
    linkFallback: 'If the button does not work, open this link:',
    unsubscribeLine: 'No more review invitations from {shop}?',
    unsubscribeLink: 'Unsubscribe',
    editSubject: 'Your review of {shop}',
    editBody:
      'Thank you for your review of {shop}. Now that you have had your order for a while, you can still change or add to it.',
    editButton: 'Edit your review',
    confirmSubject: 'Please confirm your review of {shop}',
    confirmBody: 'Thank you for your review of {shop}. Please confirm that you wrote it, so that it can be published.',
    confirmButton: 'Confirm your review',
    confirmIgnore: 'If you did not write a review, you can ignore this e-mail.',
    replySubject: '{shop} replied to your review',
    replyBody: '{shop} replied to your review:',
    replyYouWrote: 'You wrote:',
    removedSubject: 'Your review of {shop} was removed',
    removedBody:
      'After a report, {brand} checked your review of {shop} and removed it from every page that showed it, on this ground:',
    removedPolicy: 'How reviews are checked',
    signInSubject: 'Your sign-in link for {brand}',
    signInBody:
      'Use the button below to sign in to the review dashboard of {brand}. The link works once, within 15 minutes.',
    signInButton: 'Sign in',
    signInIgnore: 'If you did not ask to sign in, you can ignore this e-mail: nobody can sign in without the link.',
    teamAddedSubject: "You now have access to {shop}'s review dashboard",
    teamAddedBody: "You were added to the team of {shop} on {brand}'s review dashboard, as {role}.",
    teamAddedLater: 'After 15 minutes, ask for a new link at {url}',
    roleNames: { owner: 'owner', manager: 'manager', support: 'support' },
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
    inviteBody:
      'Bedankt voor je bestelling bij {shop}. Wil je je ervaring delen? Het kost je een minuut en helpt andere klanten bij hun keuze.',
    inviteButton: 'Schrijf een review',
    reminderSubject: 'Herinnering: hoe was je bestelling bij {shop}?',
    reminderBody:
      'Een paar dagen geleden vroeg {shop} naar je bestelling. Heb je een minuutje? Je review helpt andere klanten bij hun keuze. Dit is de enige herinnering voor deze bestelling.',
    linkFallback: 'Werkt de knop niet? Open dan deze link:',
    unsubscribeLine: 'Geen reviewuitnodigingen meer van {shop}?',
    unsubscribeLink: 'Afmelden',
    editSubject: 'Je review van {shop}',
    editBody:
      'Bedankt voor je review van {shop}. Nu je je bestelling een tijdje hebt, kun je je review nog aanpassen of aanvullen.',
    editButton: 'Review aanpassen',
    confirmSubject: 'Bevestig je review van {shop}',
    confirmBody:
      'Bedankt voor je review van {shop}. Bevestig dat jij hem hebt geschreven, dan kan hij worden gepubliceerd.',
    confirmButton: 'Review bevestigen',
    confirmIgnore: 'Heb je geen review geschreven? Dan kun je deze e-mail negeren.',
    replySubject: '{shop} heeft op je review gereageerd',
    replyBody: '{shop} heeft op je review gereageerd:',
    replyYouWrote: 'Je schreef:',
    removedSubject: 'Je review van {shop} is verwijderd',
    removedBody:
      'Na een melding heeft {brand} je review van {shop} gecontroleerd en verwijderd van alle pagina’s waarop hij stond, om deze reden:',
    removedPolicy: 'Hoe reviews worden gecontroleerd',
    signInSubject: 'Je inloglink voor {brand}',
    signInBody:
      'Log met de knop hieronder in op het reviewdashboard van {brand}. De link werkt één keer, binnen 15 minuten.',
    signInButton: 'Inloggen',
    signInIgnore:
      'Heb je niet gevraagd om in te loggen? Dan kun je deze e-mail negeren: zonder de link kan niemand inloggen.',
    teamAddedSubject: 'Je hebt nu toegang tot het reviewdashboard van {shop}',
    teamAddedBody: 'Je bent toegevoegd aan het team van {shop} op het reviewdashboard van {brand}, als {role}.',
    teamAddedLater: 'Na 15 minuten vraag je een nieuwe link aan op {url}',
    roleNames: { owner: 'eigenaar', manager: 'manager', support: 'support' },
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
    inviteBody:
      'Vielen Dank für Ihre Bestellung bei {shop}. Möchten Sie von Ihren Erfahrungen berichten? Es dauert nur eine Minute und hilft anderen Kunden bei der Wahl.',
    inviteButton: 'Bewertung schreiben',
    reminderSubject: 'Erinnerung: Wie war Ihre Bestellung bei {shop}?',
    reminderBody:
      'Vor einigen Tagen hat {shop} nach Ihrer Bestellung gefragt. Wenn Sie eine Minute Zeit haben, hilft Ihre Bewertung anderen Kunden bei der Wahl. Dies ist die einzige Erinnerung zu dieser Bestellung.',
    linkFallback: 'Falls die Schaltfläche nicht funktioniert, öffnen Sie diesen Link:',
    unsubscribeLine: 'Keine Bewertungseinladungen mehr von {shop}?',
    unsubscribeLink: 'Abmelden',
    editSubject: 'Ihre Bewertung von {shop}',
    editBody:
      'Vielen Dank für Ihre Bewertung von {shop}. Jetzt, da Sie Ihre Bestellung eine Weile haben, können Sie Ihre Bewertung noch ändern oder ergänzen.',
    editButton: 'Bewertung bearbeiten',
    confirmSubject: 'Bitte bestätigen Sie Ihre Bewertung von {shop}',
    confirmBody:
      'Vielen Dank für Ihre Bewertung von {shop}. Bitte bestätigen Sie, dass Sie sie geschrieben haben, damit sie veröffentlicht werden kann.',
    confirmButton: 'Bewertung bestätigen',
    confirmIgnore: 'Wenn Sie keine Bewertung geschrieben haben, können Sie diese E-Mail ignorieren.',
    replySubject: '{shop} hat auf Ihre Bewertung geantwortet',
    replyBody: '{shop} hat auf Ihre Bewertung geantwortet:',
    replyYouWrote: 'Sie schrieben:',
    removedSubject: 'Ihre Bewertung von {shop} wurde entfernt',
    removedBody:
      'Nach einer Meldung hat {brand} Ihre Bewertung von {shop} geprüft und von allen Seiten entfernt, auf denen sie erschien, aus diesem Grund:',
    removedPolicy: 'Wie Bewertungen geprüft werden',
    signInSubject: 'Ihr Anmeldelink für {brand}',
    signInBody:
      'Melden Sie sich mit der Schaltfläche unten im Bewertungs-Dashboard von {brand} an. Der Link funktioniert einmal, innerhalb von 15 Minuten.',
    signInButton: 'Anmelden',
    signInIgnore:
      'Wenn Sie keine Anmeldung angefordert haben, können Sie diese E-Mail ignorieren: Ohne den Link kann sich niemand anmelden.',
    teamAddedSubject: 'Sie haben jetzt Zugang zum Bewertungs-Dashboard von {shop}',
    teamAddedBody: 'Sie wurden dem Team von {shop} im Bewertungs-Dashboard von {brand} hinzugefügt, als {role}.',
    teamAddedLater: 'Nach 15 Minuten fordern Sie unter {url} einen neuen Link an.',
    roleNames: { owner: 'Inhaber', manager: 'Manager', support: 'Support' },
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
    inviteBody:
      'Merci pour votre commande chez {shop}. Voulez-vous partager votre expérience ? Cela prend une minute et aide d’autres clients à choisir.',
    inviteButton: 'Écrire un avis',
    reminderSubject: 'Petit rappel : comment s’est passée votre commande chez {shop} ?',
    reminderBody:
      'Il y a quelques jours, {shop} vous a interrogé sur votre commande. Si vous avez une minute, votre avis aide d’autres clients à choisir. C’est le seul rappel que vous recevrez pour cette commande.',
    linkFallback: 'Si le bouton ne fonctionne pas, ouvrez ce lien :',
    unsubscribeLine: 'Ne plus recevoir d’invitations à donner un avis de la part de {shop} ?',
    unsubscribeLink: 'Se désabonner',
    editSubject: 'Votre avis sur {shop}',
    editBody:
      'Merci pour votre avis sur {shop}. Maintenant que vous avez votre commande depuis un moment, vous pouvez encore le modifier ou le compléter.',
    editButton: 'Modifier votre avis',
    confirmSubject: 'Veuillez confirmer votre avis sur {shop}',
    confirmBody:
      'Merci pour votre avis sur {shop}. Veuillez confirmer que vous l’avez écrit afin qu’il puisse être publié.',
    confirmButton: 'Confirmer votre avis',
    confirmIgnore: 'Si vous n’avez pas écrit d’avis, vous pouvez ignorer cet e-mail.',
    replySubject: '{shop} a répondu à votre avis',
    replyBody: '{shop} a répondu à votre avis :',
    replyYouWrote: 'Vous avez écrit :',
    removedSubject: 'Votre avis sur {shop} a été supprimé',
    removedBody:
      'Après un signalement, {brand} a examiné votre avis sur {shop} et l’a supprimé de toutes les pages qui l’affichaient, pour le motif suivant :',
    removedPolicy: 'Comment les avis sont vérifiés',
    signInSubject: 'Votre lien de connexion à {brand}',
    signInBody:
      'Utilisez le bouton ci-dessous pour vous connecter au tableau de bord des avis de {brand}. Le lien fonctionne une fois, pendant 15 minutes.',
    signInButton: 'Se connecter',
    signInIgnore:
      "Si vous n'avez pas demandé à vous connecter, ignorez cet e-mail : personne ne peut se connecter sans le lien.",
    teamAddedSubject: 'Vous avez maintenant accès au tableau de bord des avis de {shop}',
    teamAddedBody:
      "Vous avez été ajouté à l'équipe de {shop} sur le tableau de bord des avis de {brand}, en tant que {role}.",
    teamAddedLater: 'Après 15 minutes, demandez un nouveau lien sur {url}',
    roleNames: { owner: 'propriétaire', manager: 'gestionnaire', support: 'support' },
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
    inviteBody:
      'Gracias por tu pedido en {shop}. ¿Nos cuentas tu experiencia? Solo te llevará un minuto y ayudará a otros clientes a elegir.',
    inviteButton: 'Escribir una opinión',
    reminderSubject: 'Recordatorio: ¿qué tal tu pedido en {shop}?',
    reminderBody:
      'Hace unos días {shop} te preguntó por tu pedido. Si tienes un minuto, tu opinión ayudará a otros clientes a elegir. Es el único recordatorio que recibirás por este pedido.',
    linkFallback: 'Si el botón no funciona, abre este enlace:',
    unsubscribeLine: '¿No quieres más invitaciones a opinar de {shop}?',
    unsubscribeLink: 'Darse de baja',
    editSubject: 'Tu opinión sobre {shop}',
    editBody:
      'Gracias por tu opinión sobre {shop}. Ahora que ya tienes tu pedido desde hace un tiempo, todavía puedes cambiarla o completarla.',
    editButton: 'Editar tu opinión',
    confirmSubject: 'Confirma tu opinión sobre {shop}',
    confirmBody: 'Gracias por tu opinión sobre {shop}. Confirma que la has escrito tú para que pueda publicarse.',
    confirmButton: 'Confirmar tu opinión',
    confirmIgnore: 'Si no has escrito ninguna opinión, puedes ignorar este correo.',
    replySubject: '{shop} ha respondido a tu opinión',
    replyBody: '{shop} ha respondido a tu opinión:',
    replyYouWrote: 'Escribiste:',
    removedSubject: 'Tu opinión sobre {shop} ha sido eliminada',
    removedBody:
      'Tras una denuncia, {brand} revisó tu opinión sobre {shop} y la eliminó de todas las páginas que la mostraban, por este motivo:',
    removedPolicy: 'Cómo se comprueban las opiniones',
    signInSubject: 'Tu enlace de acceso a {brand}',
    signInBody:
      'Usa el botón de abajo para entrar en el panel de opiniones de {brand}. El enlace funciona una vez, durante 15 minutos.',
    signInButton: 'Entrar',
    signInIgnore: 'Si no pediste entrar, puedes ignorar este correo: nadie puede entrar sin el enlace.',
    teamAddedSubject: 'Ya tienes acceso al panel de opiniones de {shop}',
    teamAddedBody: 'Te han añadido al equipo de {shop} en el panel de opiniones de {brand}, como {role}.',
    teamAddedLater: 'Pasados 15 minutos, pide un enlace nuevo en {url}',
    roleNames: { owner: 'propietario', manager: 'gestor', support: 'soporte' },
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
    inviteBody:
      'Grazie per il tuo ordine su {shop}. Ci racconti la tua esperienza? Ci vuole un minuto e aiuta altri clienti a scegliere.',
    inviteButton: 'Scrivi una recensione',
    reminderSubject: 'Promemoria: com’è andato il tuo ordine su {shop}?',
    reminderBody:
      'Qualche giorno fa {shop} ti ha chiesto del tuo ordine. Se hai un minuto, la tua recensione aiuta altri clienti a scegliere. È l’unico promemoria che riceverai per questo ordine.',
    linkFallback: 'Se il pulsante non funziona, apri questo link:',
    unsubscribeLine: 'Non vuoi più ricevere inviti a recensire da {shop}?',
    unsubscribeLink: 'Annulla l’iscrizione',
    editSubject: 'La tua recensione di {shop}',
    editBody:
      'Grazie per la tua recensione di {shop}. Ora che hai il tuo ordine da un po’, puoi ancora modificarla o completarla.',
    editButton: 'Modifica la recensione',
    confirmSubject: 'Conferma la tua recensione di {shop}',
    confirmBody: 'Grazie per la tua recensione di {shop}. Conferma di averla scritta tu, così potrà essere pubblicata.',
    confirmButton: 'Conferma la recensione',
    confirmIgnore: 'Se non hai scritto nessuna recensione, puoi ignorare questa e-mail.',
    replySubject: '{shop} ha risposto alla tua recensione',
    replyBody: '{shop} ha risposto alla tua recensione:',
    replyYouWrote: 'Hai scritto:',
    removedSubject: 'La tua recensione su {shop} è stata rimossa',
    removedBody:
      'Dopo una segnalazione, {brand} ha controllato la tua recensione su {shop} e l’ha rimossa da tutte le pagine che la mostravano, per questo motivo:',
    removedPolicy: 'Come vengono controllate le recensioni',
    signInSubject: 'Il tuo link di accesso a {brand}',
    signInBody:
      'Usa il pulsante qui sotto per accedere alla dashboard delle recensioni di {brand}. Il link funziona una volta, entro 15 minuti.',
    signInButton: 'Accedi',
    signInIgnore: 'Se non hai chiesto di accedere, puoi ignorare questa e-mail: nessuno può accedere senza il link.',
    teamAddedSubject: 'Ora hai accesso alla dashboard delle recensioni di {shop}',
    teamAddedBody: 'Sei stato aggiunto al team di {shop} nella dashboard delle recensioni di {brand}, come {role}.',
    teamAddedLater: 'Dopo 15 minuti, chiedi un nuovo link su {url}',
    roleNames: { owner: 'proprietario', manager: 'manager', support: 'assistenza' },
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
    inviteBody:
      'Hvala vam na narudžbi u {shop}. Želite li podijeliti svoje iskustvo? Potrebna je samo minuta, a drugim kupcima pomaže pri odabiru.',
    inviteButton: 'Napišite recenziju',
    reminderSubject: 'Podsjetnik: kako je prošla vaša narudžba u {shop}?',
    reminderBody:
      'Prije nekoliko dana {shop} vas je pitao o vašoj narudžbi. Ako imate minutu, vaša recenzija pomaže drugim kupcima pri odabiru. Ovo je jedini podsjetnik za ovu narudžbu.',
    linkFallback: 'Ako gumb ne radi, otvorite ovu poveznicu:',
    unsubscribeLine: 'Ne želite više pozive na recenziju od {shop}?',
    unsubscribeLink: 'Odjava',
    editSubject: 'Vaša recenzija za {shop}',
    editBody:
      'Hvala vam na recenziji za {shop}. Sada kada narudžbu imate već neko vrijeme, recenziju još možete izmijeniti ili dopuniti.',
    editButton: 'Uredite recenziju',
    confirmSubject: 'Potvrdite svoju recenziju za {shop}',
    confirmBody: 'Hvala vam na recenziji za {shop}. Potvrdite da ste je vi napisali kako bi mogla biti objavljena.',
    confirmButton: 'Potvrdite recenziju',
    confirmIgnore: 'Ako niste napisali recenziju, zanemarite ovu e-poruku.',
    replySubject: '{shop} je odgovorio na vašu recenziju',
    replyBody: '{shop} je odgovorio na vašu recenziju:',
    replyYouWrote: 'Napisali ste:',
    removedSubject: 'Vaša recenzija trgovine {shop} je uklonjena',
    removedBody:
      'Nakon prijave {brand} je provjerio vašu recenziju trgovine {shop} i uklonio je sa svih stranica na kojima se prikazivala, iz ovog razloga:',
    removedPolicy: 'Kako se provjeravaju recenzije',
    signInSubject: 'Vaša poveznica za prijavu u {brand}',
    signInBody:
      'Gumbom ispod prijavite se na nadzornu ploču recenzija servisa {brand}. Poveznica radi jednom, unutar 15 minuta.',
    signInButton: 'Prijava',
    signInIgnore: 'Ako niste tražili prijavu, zanemarite ovu e-poruku: bez poveznice nitko se ne može prijaviti.',
    teamAddedSubject: 'Sada imate pristup nadzornoj ploči recenzija trgovine {shop}',
    teamAddedBody: 'Dodani ste u tim trgovine {shop} na nadzornoj ploči recenzija servisa {brand}, kao {role}.',
    teamAddedLater: 'Nakon 15 minuta zatražite novu poveznicu na {url}',
    roleNames: { owner: 'vlasnik', manager: 'upravitelj', support: 'podrška' },
    footer: 'Poslano u ime {shop} putem {brand}.',
    unsubscribeTitle: 'Odjava',
    unsubscribeQuestion: 'Više ne slati pozive na recenziju od {shop} na {email}?',
    unsubscribeButton: 'Odjavi se',
    unsubscribeDone: 'Gotovo. {email} više neće primati pozive na recenziju od {shop}.',
    unsubscribeInvalid: 'Ova poveznica nije valjana.',
  },
};

/** Fills `{key}` placeholders; unknown keys stay as they are (one helper for the e-mails, the embed and the widget). */
export { fill } from '../../embed/shared/text.js';
