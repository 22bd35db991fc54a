// The review policy page's words (issue 11): English, Dutch and German complete; the other shopper languages read
// the English page (with lang="en", so that screen readers pronounce it as English). The operator may replace the
// service-wide texts (`OperatorText`), per language; the defaults are below.
import type { Language } from '../languages.js';
import type { ReviewOrigin } from '../reviews/origin.js';
import type { ReviewSource } from '../reviews/model.js';
import type { SignalName } from '../signals/rules.js';

export const POLICY_LANGUAGES = ['en', 'nl', 'de'] as const;
export type PolicyLanguage = (typeof POLICY_LANGUAGES)[number];

export const isPolicyLanguage = (value: string): value is PolicyLanguage =>
  (POLICY_LANGUAGES as readonly string[]).includes(value);

/** The language the page is written in for a shopper language. */
export const policyLanguage = (lang: Language): PolicyLanguage => (isPolicyLanguage(lang) ? lang : 'en');

/** The service-wide parts of the page, which the operator may rewrite: plain text, blank lines between paragraphs. */
export interface OperatorText {
  /** How each origin is checked. */
  checks: string;
  /** Publication whatever the score, and what removal means. */
  publication: string;
  /** How to report a review, and what happens next. */
  reporting: string;
}
export const OPERATOR_TEXT_FIELDS = ['checks', 'publication', 'reporting'] as const;

export type Ground = 'not_experience' | 'offensive' | 'personal_data' | 'spam' | 'conflict_of_interest' | 'other';

export interface PolicyStrings {
  title: (shop: string) => string;
  intro: (shop: string, brand: string) => string;
  collectedHeading: string;
  collectedNone: string;
  method: Record<ReviewSource, string>;
  originsHeading: string;
  origin: Record<ReviewOrigin, { label: string; description: string }>;
  incentivised: { label: string; description: string };
  originCount: (count: string) => string;
  publicationHeading: string;
  groundsHeading: string;
  ground: Record<Ground, string>;
  /** The automatic checks that are on (issue 21): they only ask a person to look. */
  signalsHeading: string;
  signalsOn: (list: string) => string;
  signalsNone: string;
  signalName: Record<SignalName, string>;
  scoreHeading: string;
  score: string[];
  incentivesHeading: string;
  incentivesNone: string;
  incentivesSome: (count: string, total: string) => string;
  removedHeading: string;
  removedIntro: (since: string) => string;
  groundColumn: string;
  countColumn: string;
  removedTotal: string;
  reportHeading: string;
  reportLink: (shop: string) => string;
  backToReviews: (shop: string) => string;
  footer: (brand: string) => string;
  notFoundTitle: string;
  notFoundBody: string;
  /** How incentivised reviews count in the score (INCENTIVISED_IN_SCORE, issue 21). */
  incentivesCounted: string;
  incentivesExcluded: string;
  /** The per-star table of the last 12 months (issue 21). */
  starsHeading: string;
  starsIntro: (since: string) => string;
  starColumn: (stars: number) => string;
  receivedRow: string;
  publishedRow: string;
  removedRow: (ground: string) => string;
}

const en: PolicyStrings = {
  title: (shop) => `How reviews are checked: ${shop}`,
  intro: (shop, brand) =>
    `${brand} collects and shows the reviews of ${shop} independently of the shop. This page says where these reviews come from, how they are checked, when a review is removed and how the score is computed.`,
  collectedHeading: 'How reviews are collected',
  collectedNone: 'This shop has no published reviews yet.',
  method: {
    invitation: 'By invitation: after an order, the shop has us e-mail the customer a personal review link.',
    popup: 'After checkout: a pop-up on the shop’s order confirmation page asks the customer for a review.',
    form: 'Through the public form: anyone may write about their experience after confirming their e-mail address.',
    import: 'Imported: reviews written on another review platform and brought here by the operator.',
  },
  originsHeading: 'How each review is checked',
  origin: {
    verified_order: {
      label: 'Verified order',
      description:
        'The order was proven: the review came through the link of an invitation for the order, through order data signed by the shop, or the shop confirmed the order and the writer’s address.',
    },
    email_confirmed: {
      label: 'E-mail confirmed',
      description:
        'The writer confirmed their e-mail address through a link we sent. This proves the address, not a purchase.',
    },
    imported: {
      label: 'Imported',
      description:
        'Written on another platform, named on the review. We cannot check how that platform checked it; the original date is kept.',
    },
  },
  incentivised: {
    label: 'Incentivised',
    description:
      'The writer was offered something (such as a discount or a gift) for writing a review, whatever its score.',
  },
  originCount: (count) => `${count} published`,
  publicationHeading: 'Publication',
  groundsHeading: 'Grounds for removal',
  ground: {
    not_experience: 'It is not about a real experience with this shop.',
    offensive: 'It is offensive, discriminatory or threatening.',
    personal_data: 'It contains personal data of someone else (the passage may be removed instead).',
    spam: 'It is spam or advertising.',
    conflict_of_interest: 'It was written by the shop, a competitor or someone paid for a particular score.',
    other: 'It breaks the law in another way.',
  },
  signalsHeading: 'Automatic checks',
  signalsOn: (list) =>
    `Reviews are checked automatically for ${list}. A check never hides, holds or delays a review: it asks a person to look, and a person decides.`,
  signalsNone: 'No automatic checks are switched on. Every decision is a person’s.',
  signalName: {
    insider: 'reviews by the shop’s own people (a member of the shop’s team, or an address at the shop’s own domain)',
    burst: 'unusual bursts (more reviews in 24 hours than 10, or five times the shop’s daily average over 90 days)',
    duplicate_text:
      'copied text (a comment of 12 words or more that is the same as, or nearly the same as, a review of any shop in the last 365 days)',
    shared_network:
      'reviews sent together (three or more reviews of one shop within 30 days from the same network with the same browser)',
  },
  scoreHeading: 'How the score is computed',
  score: [
    'Every published review counts, however old; removed reviews and reviews still waiting for their writer’s confirmation do not.',
    'Each review gives an overall score of 1 to 5 stars. The shop’s score is the average of these, doubled, on a scale of 1 to 10, rounded to one decimal.',
    'Sub-scores (delivery time, customer service, value for money, after-sales service) are optional: each is the average of the reviews that gave it, on a scale of 1 to 5; a review that did not give one is left out of that average.',
    'All reviews count the same, whatever their origin.',
  ],
  incentivesHeading: 'Incentives',
  incentivesNone: 'None of this shop’s published reviews is marked as incentivised.',
  incentivesSome: (count, total) =>
    `${count} of ${total} published reviews were written for an incentive; each is marked “Incentivised”. An incentive never depends on the score.`,
  removedHeading: 'Reviews removed in the last 12 months',
  removedIntro: (since) => `Reviews of this shop removed since ${since}, by ground:`,
  groundColumn: 'Ground',
  countColumn: 'Reviews removed',
  removedTotal: 'Total',
  reportHeading: 'How to report a review',
  reportLink: (shop) => `The reviews of ${shop}, each with its “Report” link`,
  backToReviews: (shop) => `Back to the reviews of ${shop}`,
  footer: (brand) => `Reviews collected by ${brand}`,
  notFoundTitle: 'Shop not found',
  notFoundBody: 'There is no shop with this number.',
  incentivesCounted: 'They count in the shop’s score like any other review.',
  incentivesExcluded:
    'They are left out of the shop’s score and of the number of reviews beside it: the score is computed from the other reviews only.',
  starsHeading: 'Reviews per star in the last 12 months',
  starsIntro: (since) =>
    `Low scores are published like high ones. Since ${since}, per star: the reviews received, published, and removed (by ground).`,
  starColumn: (stars) => (stars === 1 ? '1 star' : `${stars} stars`),
  receivedRow: 'Received',
  publishedRow: 'Published',
  removedRow: (ground) => `Removed: ${ground}`,
};

const nl: PolicyStrings = {
  title: (shop) => `Zo worden reviews gecontroleerd: ${shop}`,
  intro: (shop, brand) =>
    `${brand} verzamelt en toont de reviews van ${shop} onafhankelijk van de winkel. Op deze pagina staat waar de reviews vandaan komen, hoe ze worden gecontroleerd, wanneer een review wordt verwijderd en hoe de score wordt berekend.`,
  collectedHeading: 'Hoe reviews worden verzameld',
  collectedNone: 'Deze winkel heeft nog geen gepubliceerde reviews.',
  method: {
    invitation: 'Op uitnodiging: na een bestelling laat de winkel ons de klant een persoonlijke reviewlink e-mailen.',
    popup: 'Na het afrekenen: een pop-up op de bevestigingspagina van de bestelling vraagt de klant om een review.',
    form: 'Via het openbare formulier: iedereen kan over zijn ervaring schrijven na bevestiging van zijn e-mailadres.',
    import:
      'Geïmporteerd: reviews die op een ander reviewplatform zijn geschreven en door de beheerder hierheen zijn gehaald.',
  },
  originsHeading: 'Hoe elke review wordt gecontroleerd',
  origin: {
    verified_order: {
      label: 'Geverifieerde bestelling',
      description:
        'De bestelling is aangetoond: de review kwam via de link van een uitnodiging voor de bestelling, via door de winkel ondertekende bestelgegevens, of de winkel bevestigde de bestelling en het adres van de schrijver.',
    },
    email_confirmed: {
      label: 'E-mail bevestigd',
      description:
        'De schrijver heeft zijn e-mailadres bevestigd via een link die wij stuurden. Dat bewijst het adres, geen aankoop.',
    },
    imported: {
      label: 'Geïmporteerd',
      description:
        'Geschreven op een ander platform, dat bij de review staat. Hoe dat platform controleerde, kunnen wij niet nagaan; de oorspronkelijke datum blijft bewaard.',
    },
  },
  incentivised: {
    label: 'Met beloning',
    description:
      'De schrijver kreeg iets aangeboden (zoals korting of een cadeau) voor het schrijven van een review, ongeacht de score.',
  },
  originCount: (count) => `${count} gepubliceerd`,
  publicationHeading: 'Publicatie',
  groundsHeading: 'Redenen voor verwijdering',
  ground: {
    not_experience: 'Het gaat niet over een echte ervaring met deze winkel.',
    offensive: 'Het is beledigend, discriminerend of bedreigend.',
    personal_data: 'Het bevat persoonsgegevens van iemand anders (dan kan ook alleen die passage worden verwijderd).',
    spam: 'Het is spam of reclame.',
    conflict_of_interest:
      'Het is geschreven door de winkel, een concurrent of iemand die voor een bepaalde score is betaald.',
    other: 'Het is op een andere manier in strijd met de wet.',
  },
  signalsHeading: 'Automatische controles',
  signalsOn: (list) =>
    `Reviews worden automatisch gecontroleerd op ${list}. Een controle verbergt, houdt of vertraagt nooit een review: ze vraagt een mens om te kijken, en een mens beslist.`,
  signalsNone: 'Er staan geen automatische controles aan. Elke beslissing neemt een mens.',
  signalName: {
    insider:
      'reviews door mensen van de winkel zelf (iemand uit het team van de winkel, of een adres op het eigen domein van de winkel)',
    burst:
      'ongewone pieken (meer reviews in 24 uur dan 10, of vijf keer het daggemiddelde van de winkel over 90 dagen)',
    duplicate_text:
      'gekopieerde tekst (een toelichting van 12 woorden of meer die gelijk is aan, of bijna gelijk aan, een review van welke winkel dan ook in de laatste 365 dagen)',
    shared_network:
      'reviews die samen worden verstuurd (drie of meer reviews van één winkel binnen 30 dagen vanaf hetzelfde netwerk met dezelfde browser)',
  },
  scoreHeading: 'Hoe de score wordt berekend',
  score: [
    'Elke gepubliceerde review telt mee, hoe oud ook; verwijderde reviews en reviews die nog op bevestiging door de schrijver wachten niet.',
    'Elke review geeft een totaalscore van 1 tot 5 sterren. De score van de winkel is het gemiddelde daarvan, verdubbeld, op een schaal van 1 tot 10, afgerond op één decimaal.',
    'Deelscores (levertijd, klantenservice, prijs-kwaliteit, service na aankoop) zijn optioneel: elk is het gemiddelde van de reviews die hem gaven, op een schaal van 1 tot 5; een review zonder deze deelscore telt voor dat gemiddelde niet mee.',
    'Alle reviews tellen even zwaar, ongeacht hun herkomst.',
  ],
  incentivesHeading: 'Beloningen',
  incentivesNone: 'Geen van de gepubliceerde reviews van deze winkel is gemarkeerd als geschreven met beloning.',
  incentivesSome: (count, total) =>
    `${count} van de ${total} gepubliceerde reviews zijn geschreven met een beloning; elk is gemarkeerd met “Met beloning”. Een beloning hangt nooit af van de score.`,
  removedHeading: 'Verwijderde reviews in de afgelopen 12 maanden',
  removedIntro: (since) => `Reviews van deze winkel die sinds ${since} zijn verwijderd, per reden:`,
  groundColumn: 'Reden',
  countColumn: 'Verwijderde reviews',
  removedTotal: 'Totaal',
  reportHeading: 'Een review melden',
  reportLink: (shop) => `De reviews van ${shop}, elk met een link “Melden”`,
  backToReviews: (shop) => `Terug naar de reviews van ${shop}`,
  footer: (brand) => `Reviews verzameld door ${brand}`,
  notFoundTitle: 'Winkel niet gevonden',
  notFoundBody: 'Er is geen winkel met dit nummer.',
  incentivesCounted: 'Ze tellen mee in de score van de winkel zoals elke andere review.',
  incentivesExcluded:
    'Ze tellen niet mee in de score van de winkel en in het aantal reviews ernaast: de score is berekend uit de andere reviews.',
  starsHeading: 'Reviews per aantal sterren in de afgelopen 12 maanden',
  starsIntro: (since) =>
    `Lage scores worden gepubliceerd zoals hoge. Sinds ${since}, per aantal sterren: de ontvangen, gepubliceerde en verwijderde reviews (per reden).`,
  starColumn: (stars) => (stars === 1 ? '1 ster' : `${stars} sterren`),
  receivedRow: 'Ontvangen',
  publishedRow: 'Gepubliceerd',
  removedRow: (ground) => `Verwijderd: ${ground}`,
};

const de: PolicyStrings = {
  title: (shop) => `So werden Bewertungen geprüft: ${shop}`,
  intro: (shop, brand) =>
    `${brand} sammelt und zeigt die Bewertungen von ${shop} unabhängig vom Shop. Diese Seite erklärt, woher die Bewertungen stammen, wie sie geprüft werden, wann eine Bewertung entfernt wird und wie die Note berechnet wird.`,
  collectedHeading: 'Wie Bewertungen gesammelt werden',
  collectedNone: 'Dieser Shop hat noch keine veröffentlichten Bewertungen.',
  method: {
    invitation:
      'Per Einladung: Nach einer Bestellung lässt der Shop uns dem Kunden einen persönlichen Bewertungslink senden.',
    popup: 'Nach dem Kauf: Ein Pop-up auf der Bestellbestätigungsseite des Shops bittet den Kunden um eine Bewertung.',
    form: 'Über das öffentliche Formular: Jeder kann über seine Erfahrung schreiben, nachdem er seine E-Mail-Adresse bestätigt hat.',
    import:
      'Importiert: Bewertungen, die auf einer anderen Bewertungsplattform geschrieben und vom Betreiber hierher übernommen wurden.',
  },
  originsHeading: 'Wie jede Bewertung geprüft wird',
  origin: {
    verified_order: {
      label: 'Verifizierte Bestellung',
      description:
        'Die Bestellung ist nachgewiesen: Die Bewertung kam über den Link einer Einladung zur Bestellung, über vom Shop signierte Bestelldaten, oder der Shop hat die Bestellung und die Adresse des Verfassers bestätigt.',
    },
    email_confirmed: {
      label: 'E-Mail bestätigt',
      description:
        'Der Verfasser hat seine E-Mail-Adresse über einen von uns gesendeten Link bestätigt. Das belegt die Adresse, keinen Kauf.',
    },
    imported: {
      label: 'Importiert',
      description:
        'Auf einer anderen Plattform geschrieben, die bei der Bewertung genannt ist. Wie diese Plattform geprüft hat, können wir nicht nachvollziehen; das ursprüngliche Datum bleibt erhalten.',
    },
  },
  incentivised: {
    label: 'Mit Anreiz',
    description:
      'Dem Verfasser wurde für das Schreiben einer Bewertung etwas angeboten (etwa ein Rabatt oder ein Geschenk), unabhängig von der Note.',
  },
  originCount: (count) => `${count} veröffentlicht`,
  publicationHeading: 'Veröffentlichung',
  groundsHeading: 'Gründe für das Entfernen',
  ground: {
    not_experience: 'Sie beruht nicht auf einer echten Erfahrung mit diesem Shop.',
    offensive: 'Sie ist beleidigend, diskriminierend oder bedrohend.',
    personal_data: 'Sie enthält personenbezogene Daten anderer (dann kann auch nur diese Stelle entfernt werden).',
    spam: 'Sie ist Spam oder Werbung.',
    conflict_of_interest:
      'Sie stammt vom Shop, von einem Mitbewerber oder von jemandem, der für eine bestimmte Note bezahlt wurde.',
    other: 'Sie verstößt auf andere Weise gegen das Gesetz.',
  },
  signalsHeading: 'Automatische Prüfungen',
  signalsOn: (list) =>
    `Bewertungen werden automatisch geprüft auf ${list}. Eine Prüfung verbirgt, hält oder verzögert nie eine Bewertung: Sie bittet einen Menschen, hinzusehen, und ein Mensch entscheidet.`,
  signalsNone: 'Es sind keine automatischen Prüfungen eingeschaltet. Jede Entscheidung trifft ein Mensch.',
  signalName: {
    insider:
      'Bewertungen von Leuten des Shops selbst (ein Mitglied des Shop-Teams oder eine Adresse unter der eigenen Domain des Shops)',
    burst:
      'ungewöhnliche Häufungen (mehr Bewertungen in 24 Stunden als 10 oder das Fünffache des Tagesdurchschnitts des Shops über 90 Tage)',
    duplicate_text:
      'kopierten Text (ein Kommentar von 12 Wörtern oder mehr, der einer Bewertung irgendeines Shops aus den letzten 365 Tagen gleicht oder fast gleicht)',
    shared_network:
      'gemeinsam gesendete Bewertungen (drei oder mehr Bewertungen eines Shops innerhalb von 30 Tagen aus demselben Netz mit demselben Browser)',
  },
  scoreHeading: 'Wie die Note berechnet wird',
  score: [
    'Jede veröffentlichte Bewertung zählt, gleich wie alt; entfernte Bewertungen und solche, die noch auf die Bestätigung des Verfassers warten, zählen nicht.',
    'Jede Bewertung vergibt eine Gesamtnote von 1 bis 5 Sternen. Die Note des Shops ist deren Durchschnitt, verdoppelt, auf einer Skala von 1 bis 10, auf eine Nachkommastelle gerundet.',
    'Teilnoten (Lieferzeit, Kundenservice, Preis-Leistung, Kundendienst nach dem Kauf) sind freiwillig: Jede ist der Durchschnitt der Bewertungen, die sie vergeben haben, auf einer Skala von 1 bis 5; eine Bewertung ohne diese Teilnote bleibt bei diesem Durchschnitt außen vor.',
    'Alle Bewertungen zählen gleich, unabhängig von ihrer Herkunft.',
  ],
  incentivesHeading: 'Anreize',
  incentivesNone: 'Keine der veröffentlichten Bewertungen dieses Shops ist als „Mit Anreiz“ gekennzeichnet.',
  incentivesSome: (count, total) =>
    `${count} von ${total} veröffentlichten Bewertungen wurden mit einem Anreiz geschrieben; jede ist als „Mit Anreiz“ gekennzeichnet. Ein Anreiz hängt nie von der Note ab.`,
  removedHeading: 'In den letzten 12 Monaten entfernte Bewertungen',
  removedIntro: (since) => `Seit dem ${since} entfernte Bewertungen dieses Shops, nach Grund:`,
  groundColumn: 'Grund',
  countColumn: 'Entfernte Bewertungen',
  removedTotal: 'Gesamt',
  reportHeading: 'Eine Bewertung melden',
  reportLink: (shop) => `Die Bewertungen von ${shop}, jede mit einem Link „Melden“`,
  backToReviews: (shop) => `Zurück zu den Bewertungen von ${shop}`,
  footer: (brand) => `Bewertungen gesammelt von ${brand}`,
  notFoundTitle: 'Shop nicht gefunden',
  notFoundBody: 'Es gibt keinen Shop mit dieser Nummer.',
  incentivesCounted: 'Sie zählen in der Note des Shops wie jede andere Bewertung.',
  incentivesExcluded:
    'Sie zählen weder in der Note des Shops noch in der Zahl der Bewertungen daneben: die Note wird aus den anderen Bewertungen berechnet.',
  starsHeading: 'Bewertungen nach Sternen in den letzten 12 Monaten',
  starsIntro: (since) =>
    `Niedrige Noten werden wie hohe veröffentlicht. Seit dem ${since}, nach Sternen: die erhaltenen, veröffentlichten und entfernten Bewertungen (nach Grund).`,
  starColumn: (stars) => (stars === 1 ? '1 Stern' : `${stars} Sterne`),
  receivedRow: 'Erhalten',
  publishedRow: 'Veröffentlicht',
  removedRow: (ground) => `Entfernt: ${ground}`,
};

export const POLICY_STRINGS: Record<PolicyLanguage, PolicyStrings> = { en, nl, de };

export const DEFAULT_OPERATOR_TEXT: Record<PolicyLanguage, OperatorText> = {
  en: {
    checks:
      'Every review carries a label saying how it was checked: “Verified order”, “E-mail confirmed” or “Imported from …”, and “Incentivised” when the writer was offered something for it.\n\nA review only counts as a verified order when the order was proven. Confirming an e-mail address proves the address, not a purchase.',
    publication:
      'Every review is published whatever its score, as soon as it has been checked as described above. The shop cannot remove, hold back or change a review, and cannot choose which reviews are shown.\n\nWe remove a review only on one of the grounds listed below, after a report or our own check. Its writer is told the ground by e-mail. A review that contains personal data may instead have that passage removed.',
    reporting:
      'Anyone may report a review with the “Report” link shown with it. Choose a ground, and add details if you like; your e-mail address is optional and only used to answer you. We check every report; the text of a report is never sent to the shop or the writer.',
  },
  nl: {
    checks:
      'Elke review heeft een label dat zegt hoe hij is gecontroleerd: “Geverifieerde bestelling”, “E-mail bevestigd” of “Geïmporteerd van …”, en “Met beloning” als de schrijver er iets voor aangeboden kreeg.\n\nEen review telt alleen als geverifieerde bestelling als de bestelling is aangetoond. Een bevestigd e-mailadres bewijst het adres, geen aankoop.',
    publication:
      'Elke review wordt gepubliceerd, ongeacht de score, zodra hij is gecontroleerd zoals hierboven beschreven. De winkel kan een review niet verwijderen, tegenhouden of wijzigen, en kan niet kiezen welke reviews worden getoond.\n\nWij verwijderen een review alleen om een van de redenen hieronder, na een melding of na eigen controle. De schrijver hoort de reden per e-mail. Bij persoonsgegevens kan in plaats daarvan alleen die passage worden verwijderd.',
    reporting:
      'Iedereen kan een review melden met de link “Melden” bij de review. Kies een reden en geef desgewenst een toelichting; uw e-mailadres is optioneel en dient alleen om u te antwoorden. Wij bekijken elke melding; de tekst van een melding gaat nooit naar de winkel of de schrijver.',
  },
  de: {
    checks:
      'Jede Bewertung trägt ein Kennzeichen, wie sie geprüft wurde: „Verifizierte Bestellung“, „E-Mail bestätigt“ oder „Importiert von …“, dazu „Mit Anreiz“, wenn dem Verfasser dafür etwas angeboten wurde.\n\nEine Bewertung gilt nur dann als verifizierte Bestellung, wenn die Bestellung nachgewiesen ist. Eine bestätigte E-Mail-Adresse belegt die Adresse, keinen Kauf.',
    publication:
      'Jede Bewertung wird unabhängig von ihrer Note veröffentlicht, sobald sie wie oben beschrieben geprüft ist. Der Shop kann keine Bewertung entfernen, zurückhalten oder ändern und nicht auswählen, welche Bewertungen gezeigt werden.\n\nWir entfernen eine Bewertung nur aus einem der unten genannten Gründe, nach einer Meldung oder eigener Prüfung. Der Verfasser erfährt den Grund per E-Mail. Bei personenbezogenen Daten kann stattdessen nur die betreffende Stelle entfernt werden.',
    reporting:
      'Jeder kann eine Bewertung über den Link „Melden“ bei der Bewertung melden. Wählen Sie einen Grund und ergänzen Sie auf Wunsch Einzelheiten; Ihre E-Mail-Adresse ist freiwillig und dient nur der Antwort. Wir prüfen jede Meldung; der Text einer Meldung wird nie an den Shop oder den Verfasser weitergegeben.',
  },
};
