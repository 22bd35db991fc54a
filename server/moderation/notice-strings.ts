// The words of the decision e-mails (DSA Art. 17 and 20) in the seven shopper languages: what was decided, on which
// ground, the statement (writers only), what started it, that a person decided, and where to contest it.
import type { Language } from '../languages.js';
import type { DecisionTrigger, NoticeKind } from './store.js';

export interface NoticeStrings {
  writerSubject: Record<'removed' | 'redacted', string>;
  writerDecided: Record<'removed' | 'redacted', string>;
  reporterSubject: string;
  reporterOutcome: Record<'kept' | 'removed' | 'redacted', string>;
  answerSubject: string;
  answer: Record<Extract<NoticeKind, 'appeal_upheld' | 'appeal_reversed'>, string>;
  ground: string;
  statement: string;
  trigger: Record<DecisionTrigger, string>;
  person: string;
  contest: string;
  contestButton: string;
}

const en: NoticeStrings = {
  writerSubject: {
    removed: 'Your review of {shop} was removed',
    redacted: 'A passage of your review of {shop} was hidden',
  },
  writerDecided: {
    removed: '{brand} removed your review of {shop} from every page that showed it.',
    redacted: '{brand} hid a passage of your review of {shop}; the rest of it stays published.',
  },
  reporterSubject: 'Your report about a review of {shop}',
  reporterOutcome: {
    kept: 'We checked the review of {shop} you reported. It breaks none of our rules, so it stays published.',
    removed: 'We checked the review of {shop} you reported and removed it.',
    redacted: 'We checked the review of {shop} you reported and hid a passage of it.',
  },
  answerSubject: 'Your complaint about a decision on a review of {shop}',
  answer: {
    appeal_upheld: 'A person looked at the decision again, with your complaint. The decision stands.',
    appeal_reversed: 'A person looked at the decision again, with your complaint, and reversed it.',
  },
  ground: 'Ground: {ground}',
  statement: 'Our reasons:',
  trigger: {
    report: 'What started it: a report about the review.',
    signal: 'What started it: an automatic check flagged the review for a person to look at.',
    own_check: 'What started it: our own check of the review.',
  },
  person: 'A person decided this, not an automatic system.',
  contest: 'You can contest this decision, free of charge, until {until}.',
  contestButton: 'Contest the decision',
};

const nl: NoticeStrings = {
  writerSubject: {
    removed: 'Je review van {shop} is verwijderd',
    redacted: 'Een passage van je review van {shop} is verborgen',
  },
  writerDecided: {
    removed: '{brand} heeft je review van {shop} verwijderd van elke pagina waarop hij stond.',
    redacted: '{brand} heeft een passage van je review van {shop} verborgen; de rest blijft gepubliceerd.',
  },
  reporterSubject: 'Je melding over een review van {shop}',
  reporterOutcome: {
    kept: 'We hebben de review van {shop} die je meldde gecontroleerd. Hij overtreedt geen van onze regels en blijft gepubliceerd.',
    removed: 'We hebben de review van {shop} die je meldde gecontroleerd en verwijderd.',
    redacted: 'We hebben de review van {shop} die je meldde gecontroleerd en er een passage van verborgen.',
  },
  answerSubject: 'Je bezwaar tegen een beslissing over een review van {shop}',
  answer: {
    appeal_upheld: 'Iemand heeft de beslissing met je bezwaar opnieuw bekeken. De beslissing blijft staan.',
    appeal_reversed: 'Iemand heeft de beslissing met je bezwaar opnieuw bekeken en teruggedraaid.',
  },
  ground: 'Grond: {ground}',
  statement: 'Onze redenen:',
  trigger: {
    report: 'Aanleiding: een melding over de review.',
    signal: 'Aanleiding: een automatische controle legde de review voor aan een mens.',
    own_check: 'Aanleiding: onze eigen controle van de review.',
  },
  person: 'Een mens heeft dit beslist, geen automatisch systeem.',
  contest: 'Je kunt tot {until} kosteloos bezwaar maken tegen deze beslissing.',
  contestButton: 'Bezwaar maken',
};

const de: NoticeStrings = {
  writerSubject: {
    removed: 'Ihre Bewertung von {shop} wurde entfernt',
    redacted: 'Eine Passage Ihrer Bewertung von {shop} wurde verborgen',
  },
  writerDecided: {
    removed: '{brand} hat Ihre Bewertung von {shop} von allen Seiten entfernt, die sie zeigten.',
    redacted: '{brand} hat eine Passage Ihrer Bewertung von {shop} verborgen; der Rest bleibt veröffentlicht.',
  },
  reporterSubject: 'Ihre Meldung zu einer Bewertung von {shop}',
  reporterOutcome: {
    kept: 'Wir haben die gemeldete Bewertung von {shop} geprüft. Sie verstößt gegen keine unserer Regeln und bleibt veröffentlicht.',
    removed: 'Wir haben die gemeldete Bewertung von {shop} geprüft und entfernt.',
    redacted: 'Wir haben die gemeldete Bewertung von {shop} geprüft und eine Passage verborgen.',
  },
  answerSubject: 'Ihre Beschwerde gegen eine Entscheidung zu einer Bewertung von {shop}',
  answer: {
    appeal_upheld:
      'Ein Mensch hat die Entscheidung mit Ihrer Beschwerde erneut geprüft. Die Entscheidung bleibt bestehen.',
    appeal_reversed: 'Ein Mensch hat die Entscheidung mit Ihrer Beschwerde erneut geprüft und aufgehoben.',
  },
  ground: 'Grund: {ground}',
  statement: 'Unsere Begründung:',
  trigger: {
    report: 'Anlass: eine Meldung zu der Bewertung.',
    signal: 'Anlass: eine automatische Prüfung hat die Bewertung einem Menschen vorgelegt.',
    own_check: 'Anlass: unsere eigene Prüfung der Bewertung.',
  },
  person: 'Ein Mensch hat dies entschieden, kein automatisches System.',
  contest: 'Sie können dieser Entscheidung bis zum {until} kostenlos widersprechen.',
  contestButton: 'Entscheidung anfechten',
};

const fr: NoticeStrings = {
  writerSubject: {
    removed: 'Votre avis sur {shop} a été supprimé',
    redacted: 'Un passage de votre avis sur {shop} a été masqué',
  },
  writerDecided: {
    removed: '{brand} a supprimé votre avis sur {shop} de toutes les pages qui l’affichaient.',
    redacted: '{brand} a masqué un passage de votre avis sur {shop} ; le reste reste publié.',
  },
  reporterSubject: 'Votre signalement d’un avis sur {shop}',
  reporterOutcome: {
    kept: 'Nous avons vérifié l’avis sur {shop} que vous avez signalé. Il n’enfreint aucune de nos règles et reste publié.',
    removed: 'Nous avons vérifié l’avis sur {shop} que vous avez signalé et l’avons supprimé.',
    redacted: 'Nous avons vérifié l’avis sur {shop} que vous avez signalé et en avons masqué un passage.',
  },
  answerSubject: 'Votre réclamation contre une décision sur un avis sur {shop}',
  answer: {
    appeal_upheld: 'Une personne a réexaminé la décision avec votre réclamation. La décision est maintenue.',
    appeal_reversed: 'Une personne a réexaminé la décision avec votre réclamation et l’a annulée.',
  },
  ground: 'Motif : {ground}',
  statement: 'Nos raisons :',
  trigger: {
    report: 'Origine : un signalement de l’avis.',
    signal: 'Origine : un contrôle automatique a soumis l’avis à une personne.',
    own_check: 'Origine : notre propre contrôle de l’avis.',
  },
  person: 'Une personne a pris cette décision, pas un système automatique.',
  contest: 'Vous pouvez contester cette décision gratuitement jusqu’au {until}.',
  contestButton: 'Contester la décision',
};

const es: NoticeStrings = {
  writerSubject: {
    removed: 'Tu opinión sobre {shop} ha sido eliminada',
    redacted: 'Se ha ocultado un pasaje de tu opinión sobre {shop}',
  },
  writerDecided: {
    removed: '{brand} ha eliminado tu opinión sobre {shop} de todas las páginas que la mostraban.',
    redacted: '{brand} ha ocultado un pasaje de tu opinión sobre {shop}; el resto sigue publicado.',
  },
  reporterSubject: 'Tu denuncia de una opinión sobre {shop}',
  reporterOutcome: {
    kept: 'Hemos revisado la opinión sobre {shop} que denunciaste. No incumple ninguna de nuestras normas y sigue publicada.',
    removed: 'Hemos revisado la opinión sobre {shop} que denunciaste y la hemos eliminado.',
    redacted: 'Hemos revisado la opinión sobre {shop} que denunciaste y hemos ocultado un pasaje.',
  },
  answerSubject: 'Tu reclamación contra una decisión sobre una opinión de {shop}',
  answer: {
    appeal_upheld: 'Una persona ha revisado de nuevo la decisión con tu reclamación. La decisión se mantiene.',
    appeal_reversed: 'Una persona ha revisado de nuevo la decisión con tu reclamación y la ha revocado.',
  },
  ground: 'Motivo: {ground}',
  statement: 'Nuestras razones:',
  trigger: {
    report: 'Origen: una denuncia de la opinión.',
    signal: 'Origen: una comprobación automática señaló la opinión para que la viera una persona.',
    own_check: 'Origen: nuestra propia comprobación de la opinión.',
  },
  person: 'Lo decidió una persona, no un sistema automático.',
  contest: 'Puedes impugnar esta decisión gratuitamente hasta el {until}.',
  contestButton: 'Impugnar la decisión',
};

const it: NoticeStrings = {
  writerSubject: {
    removed: 'La tua recensione su {shop} è stata rimossa',
    redacted: 'Un passaggio della tua recensione su {shop} è stato nascosto',
  },
  writerDecided: {
    removed: '{brand} ha rimosso la tua recensione su {shop} da tutte le pagine che la mostravano.',
    redacted: '{brand} ha nascosto un passaggio della tua recensione su {shop}; il resto rimane pubblicato.',
  },
  reporterSubject: 'La tua segnalazione di una recensione su {shop}',
  reporterOutcome: {
    kept: 'Abbiamo controllato la recensione su {shop} che hai segnalato. Non viola nessuna delle nostre regole e rimane pubblicata.',
    removed: 'Abbiamo controllato la recensione su {shop} che hai segnalato e l’abbiamo rimossa.',
    redacted: 'Abbiamo controllato la recensione su {shop} che hai segnalato e ne abbiamo nascosto un passaggio.',
  },
  answerSubject: 'Il tuo reclamo contro una decisione su una recensione di {shop}',
  answer: {
    appeal_upheld: 'Una persona ha riesaminato la decisione con il tuo reclamo. La decisione resta valida.',
    appeal_reversed: 'Una persona ha riesaminato la decisione con il tuo reclamo e l’ha annullata.',
  },
  ground: 'Motivo: {ground}',
  statement: 'Le nostre ragioni:',
  trigger: {
    report: 'Origine: una segnalazione della recensione.',
    signal: 'Origine: un controllo automatico ha sottoposto la recensione a una persona.',
    own_check: 'Origine: un nostro controllo della recensione.',
  },
  person: 'Ha deciso una persona, non un sistema automatico.',
  contest: 'Puoi contestare gratuitamente questa decisione fino al {until}.',
  contestButton: 'Contesta la decisione',
};

const hr: NoticeStrings = {
  writerSubject: {
    removed: 'Vaša recenzija trgovine {shop} je uklonjena',
    redacted: 'Dio vaše recenzije trgovine {shop} je skriven',
  },
  writerDecided: {
    removed: '{brand} je uklonio vašu recenziju trgovine {shop} sa svih stranica na kojima je bila prikazana.',
    redacted: '{brand} je sakrio dio vaše recenzije trgovine {shop}; ostatak ostaje objavljen.',
  },
  reporterSubject: 'Vaša prijava recenzije trgovine {shop}',
  reporterOutcome: {
    kept: 'Provjerili smo prijavljenu recenziju trgovine {shop}. Ne krši nijedno naše pravilo i ostaje objavljena.',
    removed: 'Provjerili smo prijavljenu recenziju trgovine {shop} i uklonili je.',
    redacted: 'Provjerili smo prijavljenu recenziju trgovine {shop} i sakrili njezin dio.',
  },
  answerSubject: 'Vaš prigovor na odluku o recenziji trgovine {shop}',
  answer: {
    appeal_upheld: 'Osoba je ponovno razmotrila odluku s vašim prigovorom. Odluka ostaje na snazi.',
    appeal_reversed: 'Osoba je ponovno razmotrila odluku s vašim prigovorom i poništila je.',
  },
  ground: 'Razlog: {ground}',
  statement: 'Naše obrazloženje:',
  trigger: {
    report: 'Povod: prijava recenzije.',
    signal: 'Povod: automatska provjera predala je recenziju osobi na pregled.',
    own_check: 'Povod: naša vlastita provjera recenzije.',
  },
  person: 'Odluku je donijela osoba, a ne automatski sustav.',
  contest: 'Ovu odluku možete besplatno osporiti do {until}.',
  contestButton: 'Ospori odluku',
};

export const NOTICE_STRINGS: Record<Language, NoticeStrings> = { en, nl, de, fr, es, it, hr };

/**
 * The statement of reasons of an operator's removal that gave none (DELETE /admin/api/reviews/{id} without a body, the
 * spec's contract): the writer is still told, with a complaint link (docs/decisions/integrity-delete.md).
 */
export const OPERATOR_REMOVAL_STATEMENT: Record<Language, string> = {
  en: 'The operator of the review service removed this review and gave no more specific reason. If you think it was wrong, contest the decision: a person will look at it again.',
  nl: 'De beheerder van de reviewdienst heeft deze review verwijderd zonder een preciezere reden te geven. Vind je dat onterecht, maak dan bezwaar: iemand bekijkt de beslissing dan opnieuw.',
  de: 'Der Betreiber des Bewertungsdienstes hat diese Bewertung entfernt und keinen genaueren Grund angegeben. Wenn Sie das für falsch halten, widersprechen Sie der Entscheidung: Ein Mensch prüft sie dann erneut.',
  fr: 'L’opérateur du service d’avis a supprimé cet avis sans donner de motif plus précis. Si vous pensez que c’est une erreur, contestez la décision : une personne la réexaminera.',
  es: 'El operador del servicio de reseñas retiró esta reseña sin dar un motivo más concreto. Si cree que es un error, recurra la decisión: una persona la volverá a revisar.',
  it: 'Il gestore del servizio di recensioni ha rimosso questa recensione senza indicare un motivo più preciso. Se ritiene che sia un errore, contesti la decisione: una persona la riesaminerà.',
  hr: 'Operater usluge recenzija uklonio je ovu recenziju bez preciznijeg razloga. Ako smatrate da je to pogrešno, osporite odluku: osoba će je ponovno pregledati.',
};
