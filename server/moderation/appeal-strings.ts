// The complaint page's words (`/appeal/{token}`, DSA Art. 20) in the seven shopper languages.
import type { Language } from '../languages.js';

export interface AppealStrings {
  title: string;
  decision: Record<'removed' | 'redacted' | 'kept', (shop: string) => string>;
  ground: (ground: string) => string;
  intro: string;
  text: string;
  textHint: (max: number) => string;
  submit: string;
  textRequired: string;
  textTooLong: (max: number) => string;
  thanksTitle: string;
  thanksBody: string;
  doneTitle: string;
  doneBody: string;
  goneTitle: string;
  goneBody: string;
}

const en: AppealStrings = {
  title: 'Contest a decision',
  decision: {
    removed: (shop) => `The decision: the review of ${shop} was removed.`,
    redacted: (shop) => `The decision: a passage of the review of ${shop} was hidden.`,
    kept: (shop) => `The decision: the review of ${shop} was kept, as it breaks none of the rules.`,
  },
  ground: (g) => `Ground: ${g}`,
  intro:
    'Tell us why the decision should be changed. A person will look at it again with what you write, and tell you the outcome by e-mail. It is free of charge. Nothing changes until you send the form.',
  text: 'Why should the decision be changed?',
  textHint: (max) => `At most ${max} characters.`,
  submit: 'Send complaint',
  textRequired: 'Write why the decision should be changed.',
  textTooLong: (max) => `Please shorten your complaint to at most ${max} characters.`,
  thanksTitle: 'Your complaint was received',
  thanksBody: 'A person will look at the decision again and tell you the outcome by e-mail.',
  doneTitle: 'You contested this decision already',
  doneBody: 'There is one complaint per decision and person. You will be told the outcome by e-mail.',
  goneTitle: 'This link does not work',
  goneBody: 'It is unknown, or the six months in which the decision could be contested are over.',
};

const nl: AppealStrings = {
  title: 'Bezwaar maken tegen een beslissing',
  decision: {
    removed: (shop) => `De beslissing: de review van ${shop} is verwijderd.`,
    redacted: (shop) => `De beslissing: een passage van de review van ${shop} is verborgen.`,
    kept: (shop) => `De beslissing: de review van ${shop} blijft staan, want hij overtreedt geen regels.`,
  },
  ground: (g) => `Grond: ${g}`,
  intro:
    'Laat ons weten waarom de beslissing anders moet. Iemand bekijkt haar opnieuw met wat je schrijft en laat je de uitkomst per e-mail weten. Het is kosteloos. Er verandert niets tot je het formulier verstuurt.',
  text: 'Waarom moet de beslissing anders?',
  textHint: (max) => `Maximaal ${max} tekens.`,
  submit: 'Bezwaar versturen',
  textRequired: 'Schrijf waarom de beslissing anders moet.',
  textTooLong: (max) => `Maak je bezwaar korter: maximaal ${max} tekens.`,
  thanksTitle: 'Je bezwaar is ontvangen',
  thanksBody: 'Iemand bekijkt de beslissing opnieuw en laat je de uitkomst per e-mail weten.',
  doneTitle: 'Je hebt al bezwaar gemaakt tegen deze beslissing',
  doneBody: 'Er is één bezwaar per beslissing en persoon. Je hoort de uitkomst per e-mail.',
  goneTitle: 'Deze link werkt niet',
  goneBody: 'Hij is onbekend, of de zes maanden waarin bezwaar mogelijk was zijn voorbij.',
};

const de: AppealStrings = {
  title: 'Eine Entscheidung anfechten',
  decision: {
    removed: (shop) => `Die Entscheidung: Die Bewertung von ${shop} wurde entfernt.`,
    redacted: (shop) => `Die Entscheidung: Eine Passage der Bewertung von ${shop} wurde verborgen.`,
    kept: (shop) => `Die Entscheidung: Die Bewertung von ${shop} bleibt, da sie gegen keine Regel verstößt.`,
  },
  ground: (g) => `Grund: ${g}`,
  intro:
    'Schreiben Sie uns, warum die Entscheidung geändert werden sollte. Ein Mensch prüft sie mit Ihrem Text erneut und teilt Ihnen das Ergebnis per E-Mail mit. Es ist kostenlos. Nichts ändert sich, bevor Sie das Formular senden.',
  text: 'Warum sollte die Entscheidung geändert werden?',
  textHint: (max) => `Höchstens ${max} Zeichen.`,
  submit: 'Beschwerde senden',
  textRequired: 'Schreiben Sie, warum die Entscheidung geändert werden sollte.',
  textTooLong: (max) => `Bitte kürzen Sie Ihre Beschwerde auf höchstens ${max} Zeichen.`,
  thanksTitle: 'Ihre Beschwerde ist eingegangen',
  thanksBody: 'Ein Mensch prüft die Entscheidung erneut und teilt Ihnen das Ergebnis per E-Mail mit.',
  doneTitle: 'Sie haben diese Entscheidung bereits angefochten',
  doneBody: 'Es gibt eine Beschwerde je Entscheidung und Person. Sie erhalten das Ergebnis per E-Mail.',
  goneTitle: 'Dieser Link funktioniert nicht',
  goneBody: 'Er ist unbekannt, oder die sechs Monate für eine Anfechtung sind vorbei.',
};

const fr: AppealStrings = {
  title: 'Contester une décision',
  decision: {
    removed: (shop) => `La décision : l’avis sur ${shop} a été supprimé.`,
    redacted: (shop) => `La décision : un passage de l’avis sur ${shop} a été masqué.`,
    kept: (shop) => `La décision : l’avis sur ${shop} a été conservé, car il n’enfreint aucune règle.`,
  },
  ground: (g) => `Motif : ${g}`,
  intro:
    'Dites-nous pourquoi la décision devrait changer. Une personne la réexaminera avec ce que vous écrivez et vous communiquera le résultat par e-mail. C’est gratuit. Rien ne change avant l’envoi du formulaire.',
  text: 'Pourquoi la décision devrait-elle changer ?',
  textHint: (max) => `${max} caractères au maximum.`,
  submit: 'Envoyer la réclamation',
  textRequired: 'Écrivez pourquoi la décision devrait changer.',
  textTooLong: (max) => `Veuillez raccourcir votre réclamation à ${max} caractères au maximum.`,
  thanksTitle: 'Votre réclamation a été reçue',
  thanksBody: 'Une personne réexaminera la décision et vous communiquera le résultat par e-mail.',
  doneTitle: 'Vous avez déjà contesté cette décision',
  doneBody: 'Il y a une réclamation par décision et par personne. Le résultat vous sera communiqué par e-mail.',
  goneTitle: 'Ce lien ne fonctionne pas',
  goneBody: 'Il est inconnu, ou les six mois pendant lesquels la décision pouvait être contestée sont écoulés.',
};

const es: AppealStrings = {
  title: 'Impugnar una decisión',
  decision: {
    removed: (shop) => `La decisión: la opinión sobre ${shop} fue eliminada.`,
    redacted: (shop) => `La decisión: se ocultó un pasaje de la opinión sobre ${shop}.`,
    kept: (shop) => `La decisión: la opinión sobre ${shop} se mantiene, porque no incumple ninguna norma.`,
  },
  ground: (g) => `Motivo: ${g}`,
  intro:
    'Cuéntanos por qué debería cambiar la decisión. Una persona la revisará de nuevo con lo que escribas y te comunicará el resultado por correo electrónico. Es gratuito. Nada cambia hasta que envíes el formulario.',
  text: '¿Por qué debería cambiar la decisión?',
  textHint: (max) => `Como máximo ${max} caracteres.`,
  submit: 'Enviar reclamación',
  textRequired: 'Escribe por qué debería cambiar la decisión.',
  textTooLong: (max) => `Acorta tu reclamación a ${max} caracteres como máximo.`,
  thanksTitle: 'Hemos recibido tu reclamación',
  thanksBody: 'Una persona revisará la decisión de nuevo y te comunicará el resultado por correo electrónico.',
  doneTitle: 'Ya impugnaste esta decisión',
  doneBody: 'Hay una reclamación por decisión y persona. Recibirás el resultado por correo electrónico.',
  goneTitle: 'Este enlace no funciona',
  goneBody: 'Es desconocido, o ya pasaron los seis meses en los que se podía impugnar la decisión.',
};

const it: AppealStrings = {
  title: 'Contestare una decisione',
  decision: {
    removed: (shop) => `La decisione: la recensione su ${shop} è stata rimossa.`,
    redacted: (shop) => `La decisione: un passaggio della recensione su ${shop} è stato nascosto.`,
    kept: (shop) => `La decisione: la recensione su ${shop} resta, perché non viola nessuna regola.`,
  },
  ground: (g) => `Motivo: ${g}`,
  intro:
    'Spiegaci perché la decisione dovrebbe cambiare. Una persona la riesaminerà con ciò che scrivi e ti comunicherà l’esito via e-mail. È gratuito. Nulla cambia finché non invii il modulo.',
  text: 'Perché la decisione dovrebbe cambiare?',
  textHint: (max) => `Al massimo ${max} caratteri.`,
  submit: 'Invia reclamo',
  textRequired: 'Scrivi perché la decisione dovrebbe cambiare.',
  textTooLong: (max) => `Accorcia il reclamo a non più di ${max} caratteri.`,
  thanksTitle: 'Il tuo reclamo è stato ricevuto',
  thanksBody: 'Una persona riesaminerà la decisione e ti comunicherà l’esito via e-mail.',
  doneTitle: 'Hai già contestato questa decisione',
  doneBody: 'C’è un reclamo per decisione e persona. Riceverai l’esito via e-mail.',
  goneTitle: 'Questo link non funziona',
  goneBody: 'È sconosciuto, oppure i sei mesi in cui si poteva contestare la decisione sono trascorsi.',
};

const hr: AppealStrings = {
  title: 'Osporavanje odluke',
  decision: {
    removed: (shop) => `Odluka: recenzija trgovine ${shop} je uklonjena.`,
    redacted: (shop) => `Odluka: dio recenzije trgovine ${shop} je skriven.`,
    kept: (shop) => `Odluka: recenzija trgovine ${shop} ostaje jer ne krši nijedno pravilo.`,
  },
  ground: (g) => `Razlog: ${g}`,
  intro:
    'Napišite nam zašto bi odluku trebalo promijeniti. Osoba će je ponovno razmotriti s vašim tekstom i javiti vam ishod e-poštom. Besplatno je. Ništa se ne mijenja dok ne pošaljete obrazac.',
  text: 'Zašto bi odluku trebalo promijeniti?',
  textHint: (max) => `Najviše ${max} znakova.`,
  submit: 'Pošalji prigovor',
  textRequired: 'Napišite zašto bi odluku trebalo promijeniti.',
  textTooLong: (max) => `Skratite prigovor na najviše ${max} znakova.`,
  thanksTitle: 'Vaš prigovor je zaprimljen',
  thanksBody: 'Osoba će ponovno razmotriti odluku i javiti vam ishod e-poštom.',
  doneTitle: 'Već ste osporili ovu odluku',
  doneBody: 'Postoji jedan prigovor po odluci i osobi. Ishod ćete saznati e-poštom.',
  goneTitle: 'Ova poveznica ne radi',
  goneBody: 'Nepoznata je ili je prošlo šest mjeseci u kojima se odluka mogla osporiti.',
};

export const APPEAL_STRINGS: Record<Language, AppealStrings> = { en, nl, de, fr, es, it, hr };
