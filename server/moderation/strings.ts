// The report page's words in the seven shopper languages. One module, so a missing translation is a type error.
import type { Language } from '../languages.js';
import type { Ground } from './schema.js';

export interface ReportStrings {
  title: string;
  intro: (shop: string) => string;
  reviewHeading: string;
  groundLegend: string;
  grounds: Record<Ground, string>;
  text: string;
  textHint: (max: number) => string;
  email: string;
  emailHint: string;
  submit: string;
  errorTitle: string;
  errorSummary: string;
  groundRequired: string;
  textTooLong: (max: number) => string;
  emailInvalid: string;
  formExpired: string;
  thanksTitle: string;
  thanksBody: string;
  goneTitle: string;
  goneBody: string;
  tooManyTitle: string;
  tooManyBody: string;
  /** Issue 20: what is reported, the whole review or one of its photos. */
  targetLegend: string;
  wholeReview: string;
  photoChoice: (n: number, alt: string) => string;
  photoInvalid: string;
}

const en: ReportStrings = {
  title: 'Report a review',
  intro: (shop) =>
    `Tell us why this review of ${shop} should be checked. Every report is checked by the review service against its published rules; the shop itself cannot remove reviews.`,
  reviewHeading: 'The review you are reporting',
  groundLegend: 'Why should it be checked?',
  grounds: {
    not_experience: 'It is not about a real experience with this shop',
    offensive: 'It is offensive, discriminating or threatening',
    personal_data: 'It contains personal data (a name, address, phone number …)',
    spam: 'It is spam or advertising',
    conflict_of_interest: 'It was written by the shop, a competitor or someone paid for it',
    other: 'Another reason',
  },
  text: 'Details',
  textHint: (max) =>
    `Optional, at most ${max} characters. Only the moderators read it; it is never e-mailed to anyone.`,
  email: 'Your e-mail address',
  emailHint: 'Optional: only if we may ask you about your report.',
  submit: 'Send report',
  errorTitle: 'Error',
  errorSummary: 'Please correct the following',
  groundRequired: 'Choose why the review should be checked.',
  textTooLong: (max) => `Please shorten the details to at most ${max} characters.`,
  emailInvalid: 'Enter a valid e-mail address, or leave the field empty.',
  formExpired: 'This form was open for too long. Please check your choices and send it again.',
  thanksTitle: 'Thank you for your report',
  thanksBody: 'We will check the review against our rules. If it breaks them, it is removed or the passage is hidden.',
  goneTitle: 'This review cannot be reported',
  goneBody: 'It does not exist or is no longer shown.',
  tooManyTitle: 'Too many reports',
  tooManyBody: 'Please try again later.',
  targetLegend: 'What should be checked?',
  wholeReview: 'The whole review',
  photoChoice: (n, alt) => `Photo ${n}: ${alt}`,
  photoInvalid: 'Choose the whole review or one of its photos.',
};

const nl: ReportStrings = {
  title: 'Review melden',
  intro: (shop) =>
    `Laat ons weten waarom deze review van ${shop} gecontroleerd moet worden. Elke melding wordt door de reviewdienst getoetst aan de gepubliceerde regels; de winkel zelf kan geen reviews verwijderen.`,
  reviewHeading: 'De review die je meldt',
  groundLegend: 'Waarom moet de review gecontroleerd worden?',
  grounds: {
    not_experience: 'Hij gaat niet over een echte ervaring met deze winkel',
    offensive: 'Hij is beledigend, discriminerend of bedreigend',
    personal_data: 'Hij bevat persoonsgegevens (een naam, adres, telefoonnummer …)',
    spam: 'Het is spam of reclame',
    conflict_of_interest: 'Hij is geschreven door de winkel, een concurrent of iemand die ervoor betaald is',
    other: 'Een andere reden',
  },
  text: 'Toelichting',
  textHint: (max) =>
    `Optioneel, maximaal ${max} tekens. Alleen de moderatoren lezen dit; het wordt naar niemand gemaild.`,
  email: 'Je e-mailadres',
  emailHint: 'Optioneel: alleen als we je vragen over je melding mogen stellen.',
  submit: 'Melding versturen',
  errorTitle: 'Fout',
  errorSummary: 'Verbeter het volgende',
  groundRequired: 'Kies waarom de review gecontroleerd moet worden.',
  textTooLong: (max) => `Maak de toelichting korter: maximaal ${max} tekens.`,
  emailInvalid: 'Vul een geldig e-mailadres in, of laat het veld leeg.',
  formExpired: 'Dit formulier stond te lang open. Controleer je keuzes en verstuur het opnieuw.',
  thanksTitle: 'Bedankt voor je melding',
  thanksBody:
    'We toetsen de review aan onze regels. Overtreedt hij die, dan wordt hij verwijderd of het stuk tekst afgeschermd.',
  goneTitle: 'Deze review kan niet gemeld worden',
  goneBody: 'Hij bestaat niet of wordt niet meer getoond.',
  tooManyTitle: 'Te veel meldingen',
  tooManyBody: 'Probeer het later opnieuw.',
  targetLegend: 'Wat moet gecontroleerd worden?',
  wholeReview: 'De hele review',
  photoChoice: (n, alt) => `Foto ${n}: ${alt}`,
  photoInvalid: 'Kies de hele review of een van de foto’s.',
};

const de: ReportStrings = {
  title: 'Bewertung melden',
  intro: (shop) =>
    `Sagen Sie uns, warum diese Bewertung von ${shop} geprüft werden soll. Jede Meldung prüft der Bewertungsdienst anhand seiner veröffentlichten Regeln; der Shop selbst kann keine Bewertungen entfernen.`,
  reviewHeading: 'Die Bewertung, die Sie melden',
  groundLegend: 'Warum soll sie geprüft werden?',
  grounds: {
    not_experience: 'Sie beruht nicht auf einer echten Erfahrung mit diesem Shop',
    offensive: 'Sie ist beleidigend, diskriminierend oder bedrohend',
    personal_data: 'Sie enthält personenbezogene Daten (Name, Adresse, Telefonnummer …)',
    spam: 'Sie ist Spam oder Werbung',
    conflict_of_interest: 'Sie stammt vom Shop, von einem Mitbewerber oder von jemandem, der dafür bezahlt wurde',
    other: 'Ein anderer Grund',
  },
  text: 'Erläuterung',
  textHint: (max) =>
    `Optional, höchstens ${max} Zeichen. Nur die Moderation liest sie; sie wird niemandem per E-Mail geschickt.`,
  email: 'Ihre E-Mail-Adresse',
  emailHint: 'Optional: nur wenn wir Sie zu Ihrer Meldung fragen dürfen.',
  submit: 'Meldung senden',
  errorTitle: 'Fehler',
  errorSummary: 'Bitte korrigieren Sie Folgendes',
  groundRequired: 'Wählen Sie, warum die Bewertung geprüft werden soll.',
  textTooLong: (max) => `Bitte kürzen Sie die Erläuterung auf höchstens ${max} Zeichen.`,
  emailInvalid: 'Geben Sie eine gültige E-Mail-Adresse ein oder lassen Sie das Feld leer.',
  formExpired: 'Das Formular war zu lange geöffnet. Bitte prüfen Sie Ihre Angaben und senden Sie es erneut.',
  thanksTitle: 'Vielen Dank für Ihre Meldung',
  thanksBody:
    'Wir prüfen die Bewertung anhand unserer Regeln. Verstößt sie dagegen, wird sie entfernt oder die Textstelle ausgeblendet.',
  goneTitle: 'Diese Bewertung kann nicht gemeldet werden',
  goneBody: 'Sie existiert nicht oder wird nicht mehr angezeigt.',
  tooManyTitle: 'Zu viele Meldungen',
  tooManyBody: 'Bitte versuchen Sie es später erneut.',
  targetLegend: 'Was soll geprüft werden?',
  wholeReview: 'Die ganze Bewertung',
  photoChoice: (n, alt) => `Foto ${n}: ${alt}`,
  photoInvalid: 'Wählen Sie die ganze Bewertung oder eines ihrer Fotos.',
};

const fr: ReportStrings = {
  title: 'Signaler un avis',
  intro: (shop) =>
    `Dites-nous pourquoi cet avis sur ${shop} doit être vérifié. Chaque signalement est examiné par le service d’avis selon ses règles publiées ; la boutique elle-même ne peut pas supprimer d’avis.`,
  reviewHeading: 'L’avis que vous signalez',
  groundLegend: 'Pourquoi doit-il être vérifié ?',
  grounds: {
    not_experience: 'Il ne porte pas sur une expérience réelle avec cette boutique',
    offensive: 'Il est injurieux, discriminatoire ou menaçant',
    personal_data: 'Il contient des données personnelles (nom, adresse, numéro de téléphone …)',
    spam: 'C’est du spam ou de la publicité',
    conflict_of_interest: 'Il a été écrit par la boutique, un concurrent ou une personne payée pour cela',
    other: 'Une autre raison',
  },
  text: 'Précisions',
  textHint: (max) =>
    `Facultatif, ${max} caractères au plus. Seuls les modérateurs le lisent ; il n’est envoyé par e-mail à personne.`,
  email: 'Votre adresse e-mail',
  emailHint: 'Facultatif : seulement si nous pouvons vous interroger sur votre signalement.',
  submit: 'Envoyer le signalement',
  errorTitle: 'Erreur',
  errorSummary: 'Veuillez corriger ce qui suit',
  groundRequired: 'Choisissez pourquoi l’avis doit être vérifié.',
  textTooLong: (max) => `Raccourcissez les précisions à ${max} caractères au plus.`,
  emailInvalid: 'Saisissez une adresse e-mail valide ou laissez le champ vide.',
  formExpired: 'Ce formulaire est resté ouvert trop longtemps. Vérifiez vos choix et envoyez-le à nouveau.',
  thanksTitle: 'Merci pour votre signalement',
  thanksBody: 'Nous vérifions l’avis selon nos règles. S’il les enfreint, il est supprimé ou le passage est masqué.',
  goneTitle: 'Cet avis ne peut pas être signalé',
  goneBody: 'Il n’existe pas ou n’est plus affiché.',
  tooManyTitle: 'Trop de signalements',
  tooManyBody: 'Veuillez réessayer plus tard.',
  targetLegend: 'Que faut-il vérifier ?',
  wholeReview: 'L’avis entier',
  photoChoice: (n, alt) => `Photo ${n} : ${alt}`,
  photoInvalid: 'Choisissez l’avis entier ou l’une de ses photos.',
};

const es: ReportStrings = {
  title: 'Denunciar una opinión',
  intro: (shop) =>
    `Indícanos por qué debe revisarse esta opinión sobre ${shop}. El servicio de opiniones revisa cada denuncia según sus normas publicadas; la tienda no puede eliminar opiniones por sí misma.`,
  reviewHeading: 'La opinión que denuncias',
  groundLegend: '¿Por qué debe revisarse?',
  grounds: {
    not_experience: 'No trata de una experiencia real con esta tienda',
    offensive: 'Es ofensiva, discriminatoria o amenazante',
    personal_data: 'Contiene datos personales (un nombre, dirección, teléfono …)',
    spam: 'Es spam o publicidad',
    conflict_of_interest: 'La escribió la tienda, un competidor o alguien a quien se pagó por ello',
    other: 'Otro motivo',
  },
  text: 'Detalles',
  textHint: (max) =>
    `Opcional, ${max} caracteres como máximo. Solo lo leen los moderadores; no se envía por correo a nadie.`,
  email: 'Tu correo electrónico',
  emailHint: 'Opcional: solo si podemos preguntarte sobre tu denuncia.',
  submit: 'Enviar denuncia',
  errorTitle: 'Error',
  errorSummary: 'Corrige lo siguiente',
  groundRequired: 'Elige por qué debe revisarse la opinión.',
  textTooLong: (max) => `Acorta los detalles a ${max} caracteres como máximo.`,
  emailInvalid: 'Introduce un correo electrónico válido o deja el campo vacío.',
  formExpired: 'El formulario estuvo abierto demasiado tiempo. Revisa tus respuestas y envíalo de nuevo.',
  thanksTitle: 'Gracias por tu denuncia',
  thanksBody: 'Revisaremos la opinión según nuestras normas. Si las incumple, se elimina o se oculta el fragmento.',
  goneTitle: 'Esta opinión no se puede denunciar',
  goneBody: 'No existe o ya no se muestra.',
  tooManyTitle: 'Demasiadas denuncias',
  tooManyBody: 'Inténtalo de nuevo más tarde.',
  targetLegend: '¿Qué debe revisarse?',
  wholeReview: 'La opinión entera',
  photoChoice: (n, alt) => `Foto ${n}: ${alt}`,
  photoInvalid: 'Elige la opinión entera o una de sus fotos.',
};

const it: ReportStrings = {
  title: 'Segnala una recensione',
  intro: (shop) =>
    `Dicci perché questa recensione su ${shop} dovrebbe essere controllata. Il servizio di recensioni esamina ogni segnalazione secondo le sue regole pubblicate; il negozio non può rimuovere recensioni da solo.`,
  reviewHeading: 'La recensione che segnali',
  groundLegend: 'Perché dovrebbe essere controllata?',
  grounds: {
    not_experience: 'Non riguarda un’esperienza reale con questo negozio',
    offensive: 'È offensiva, discriminatoria o minacciosa',
    personal_data: 'Contiene dati personali (un nome, indirizzo, numero di telefono …)',
    spam: 'È spam o pubblicità',
    conflict_of_interest: 'È stata scritta dal negozio, da un concorrente o da qualcuno pagato per farlo',
    other: 'Un altro motivo',
  },
  text: 'Dettagli',
  textHint: (max) =>
    `Facoltativo, al massimo ${max} caratteri. Lo leggono solo i moderatori; non viene inviato via e-mail a nessuno.`,
  email: 'Il tuo indirizzo e-mail',
  emailHint: 'Facoltativo: solo se possiamo farti domande sulla segnalazione.',
  submit: 'Invia segnalazione',
  errorTitle: 'Errore',
  errorSummary: 'Correggi quanto segue',
  groundRequired: 'Scegli perché la recensione dovrebbe essere controllata.',
  textTooLong: (max) => `Accorcia i dettagli a non più di ${max} caratteri.`,
  emailInvalid: 'Inserisci un indirizzo e-mail valido o lascia vuoto il campo.',
  formExpired: 'Il modulo è rimasto aperto troppo a lungo. Controlla le tue scelte e invialo di nuovo.',
  thanksTitle: 'Grazie per la segnalazione',
  thanksBody:
    'Controlleremo la recensione secondo le nostre regole. Se le viola, viene rimossa o il passaggio viene nascosto.',
  goneTitle: 'Questa recensione non può essere segnalata',
  goneBody: 'Non esiste o non è più visibile.',
  tooManyTitle: 'Troppe segnalazioni',
  tooManyBody: 'Riprova più tardi.',
  targetLegend: 'Che cosa va controllato?',
  wholeReview: 'L’intera recensione',
  photoChoice: (n, alt) => `Foto ${n}: ${alt}`,
  photoInvalid: 'Scegli l’intera recensione o una delle sue foto.',
};

const hr: ReportStrings = {
  title: 'Prijavi recenziju',
  intro: (shop) =>
    `Recite nam zašto treba provjeriti ovu recenziju trgovine ${shop}. Servis za recenzije provjerava svaku prijavu prema objavljenim pravilima; sama trgovina ne može uklanjati recenzije.`,
  reviewHeading: 'Recenzija koju prijavljujete',
  groundLegend: 'Zašto je treba provjeriti?',
  grounds: {
    not_experience: 'Ne govori o stvarnom iskustvu s ovom trgovinom',
    offensive: 'Uvredljiva je, diskriminirajuća ili prijeteća',
    personal_data: 'Sadrži osobne podatke (ime, adresu, broj telefona …)',
    spam: 'To je neželjena pošta ili oglas',
    conflict_of_interest: 'Napisala ju je trgovina, konkurent ili netko plaćen za to',
    other: 'Drugi razlog',
  },
  text: 'Pojedinosti',
  textHint: (max) => `Neobavezno, najviše ${max} znakova. Čitaju ih samo moderatori; nikome se ne šalju e-poštom.`,
  email: 'Vaša adresa e-pošte',
  emailHint: 'Neobavezno: samo ako vas smijemo pitati o prijavi.',
  submit: 'Pošalji prijavu',
  errorTitle: 'Pogreška',
  errorSummary: 'Ispravite sljedeće',
  groundRequired: 'Odaberite zašto recenziju treba provjeriti.',
  textTooLong: (max) => `Skratite pojedinosti na najviše ${max} znakova.`,
  emailInvalid: 'Unesite valjanu adresu e-pošte ili ostavite polje prazno.',
  formExpired: 'Obrazac je bio predugo otvoren. Provjerite svoje odabire i pošaljite ga ponovno.',
  thanksTitle: 'Hvala na prijavi',
  thanksBody: 'Provjerit ćemo recenziju prema našim pravilima. Ako ih krši, uklanja se ili se odlomak skriva.',
  goneTitle: 'Ova se recenzija ne može prijaviti',
  goneBody: 'Ne postoji ili se više ne prikazuje.',
  tooManyTitle: 'Previše prijava',
  tooManyBody: 'Pokušajte ponovno kasnije.',
  targetLegend: 'Što treba provjeriti?',
  wholeReview: 'Cijelu recenziju',
  photoChoice: (n, alt) => `Fotografija ${n}: ${alt}`,
  photoInvalid: 'Odaberite cijelu recenziju ili jednu od njezinih fotografija.',
};

export const REPORT_STRINGS: Record<Language, ReportStrings> = { en, nl, de, fr, es, it, hr };
