// The review policy page's words (issues 11 and 21), in the seven languages the service speaks (languages.ts); a
// language outside them reads the English page (with lang="en", so that screen readers pronounce it as English). The
// operator may replace the service-wide texts (`OperatorText`), per language; the defaults are below.
import type { Language } from '../languages.js';
import type { ReviewOrigin } from '../reviews/origin.js';
import type { ReviewSource } from '../reviews/model.js';
import type { SignalName } from '../signals/rules.js';

export const POLICY_LANGUAGES = ['en', 'nl', 'de', 'fr', 'es', 'it', 'hr'] as const;
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

const fr: PolicyStrings = {
  title: (shop) => `Comment les avis sont vérifiés : ${shop}`,
  intro: (shop, brand) =>
    `${brand} recueille et affiche les avis sur ${shop} indépendamment de la boutique. Cette page indique d’où viennent ces avis, comment ils sont vérifiés, quand un avis est supprimé et comment la note est calculée.`,
  collectedHeading: 'Comment les avis sont recueillis',
  collectedNone: 'Cette boutique n’a pas encore d’avis publié.',
  method: {
    invitation:
      'Sur invitation : après une commande, la boutique nous fait envoyer au client un lien personnel pour donner son avis.',
    popup:
      'Après l’achat : une fenêtre sur la page de confirmation de commande de la boutique invite le client à donner son avis.',
    form: 'Par le formulaire public : chacun peut décrire son expérience après avoir confirmé son adresse e-mail.',
    import: 'Importés : des avis écrits sur une autre plateforme d’avis et repris ici par l’opérateur.',
  },
  originsHeading: 'Comment chaque avis est vérifié',
  origin: {
    verified_order: {
      label: 'Commande vérifiée',
      description:
        'La commande a été prouvée : l’avis est arrivé par le lien d’une invitation liée à la commande, par des données de commande signées par la boutique, ou la boutique a confirmé la commande et l’adresse de l’auteur.',
    },
    email_confirmed: {
      label: 'E-mail confirmé',
      description:
        'L’auteur a confirmé son adresse e-mail par un lien que nous avons envoyé. Cela prouve l’adresse, pas un achat.',
    },
    imported: {
      label: 'Importé',
      description:
        'Écrit sur une autre plateforme, nommée sur l’avis. Nous ne pouvons pas vérifier comment cette plateforme l’a contrôlé ; la date d’origine est conservée.',
    },
  },
  incentivised: {
    label: 'Avec contrepartie',
    description:
      'On a offert quelque chose à l’auteur (une remise ou un cadeau, par exemple) pour écrire un avis, quelle que soit sa note.',
  },
  originCount: (count) => `${count} publiés`,
  publicationHeading: 'Publication',
  groundsHeading: 'Motifs de suppression',
  ground: {
    not_experience: 'Il ne porte pas sur une expérience réelle avec cette boutique.',
    offensive: 'Il est injurieux, discriminatoire ou menaçant.',
    personal_data:
      'Il contient des données personnelles d’une autre personne (le passage peut être supprimé à la place).',
    spam: 'C’est du spam ou de la publicité.',
    conflict_of_interest: 'Il a été écrit par la boutique, un concurrent ou une personne payée pour une note précise.',
    other: 'Il enfreint la loi d’une autre manière.',
  },
  signalsHeading: 'Contrôles automatiques',
  signalsOn: (list) =>
    `Les avis sont contrôlés automatiquement pour repérer : ${list}. Un contrôle ne masque, ne retient ni ne retarde jamais un avis : il demande à une personne de regarder, et une personne décide.`,
  signalsNone: 'Aucun contrôle automatique n’est activé. Chaque décision est prise par une personne.',
  signalName: {
    insider:
      'les avis du personnel de la boutique (un membre de l’équipe de la boutique, ou une adresse au domaine de la boutique)',
    burst:
      'les afflux inhabituels (plus d’avis en 24 heures que 10, ou que cinq fois la moyenne quotidienne de la boutique sur 90 jours)',
    duplicate_text:
      'les textes copiés (un commentaire de 12 mots ou plus identique, ou presque, à un avis sur n’importe quelle boutique des 365 derniers jours)',
    shared_network:
      'les avis envoyés ensemble (trois avis ou plus sur une même boutique en 30 jours depuis le même réseau avec le même navigateur)',
  },
  scoreHeading: 'Comment la note est calculée',
  score: [
    'Chaque avis publié compte, quelle que soit son ancienneté ; les avis supprimés et ceux qui attendent encore la confirmation de leur auteur ne comptent pas.',
    'Chaque avis donne une note globale de 1 à 5 étoiles. La note de la boutique est la moyenne de ces notes, multipliée par deux, sur une échelle de 1 à 10, arrondie à une décimale.',
    'Les notes détaillées (délai de livraison, service client, rapport qualité-prix, service après-vente) sont facultatives : chacune est la moyenne des avis qui l’ont donnée, sur une échelle de 1 à 5 ; un avis qui ne l’a pas donnée est exclu de cette moyenne.',
    'Tous les avis comptent de la même façon, quelle que soit leur origine.',
  ],
  incentivesHeading: 'Contreparties',
  incentivesNone: 'Aucun des avis publiés de cette boutique n’est marqué comme écrit avec contrepartie.',
  incentivesSome: (count, total) =>
    `${count} des ${total} avis publiés ont été écrits contre une contrepartie ; chacun est marqué « Avec contrepartie ». Une contrepartie ne dépend jamais de la note.`,
  removedHeading: 'Avis supprimés au cours des 12 derniers mois',
  removedIntro: (since) => `Avis sur cette boutique supprimés depuis le ${since}, par motif :`,
  groundColumn: 'Motif',
  countColumn: 'Avis supprimés',
  removedTotal: 'Total',
  reportHeading: 'Comment signaler un avis',
  reportLink: (shop) => `Les avis sur ${shop}, chacun avec son lien « Signaler »`,
  backToReviews: (shop) => `Retour aux avis sur ${shop}`,
  footer: (brand) => `Avis recueillis par ${brand}`,
  notFoundTitle: 'Boutique introuvable',
  notFoundBody: 'Il n’existe aucune boutique avec ce numéro.',
  incentivesCounted: 'Ils comptent dans la note de la boutique comme tout autre avis.',
  incentivesExcluded:
    'Ils sont exclus de la note de la boutique et du nombre d’avis affiché à côté : la note est calculée à partir des autres avis seulement.',
  starsHeading: 'Avis par étoile au cours des 12 derniers mois',
  starsIntro: (since) =>
    `Les notes basses sont publiées comme les notes hautes. Depuis le ${since}, par étoile : les avis reçus, publiés et supprimés (par motif).`,
  starColumn: (stars) => (stars === 1 ? '1 étoile' : `${stars} étoiles`),
  receivedRow: 'Reçus',
  publishedRow: 'Publiés',
  removedRow: (ground) => `Supprimés : ${ground}`,
};

const es: PolicyStrings = {
  title: (shop) => `Cómo se comprueban las reseñas: ${shop}`,
  intro: (shop, brand) =>
    `${brand} recoge y muestra las reseñas de ${shop} con independencia de la tienda. Esta página explica de dónde vienen estas reseñas, cómo se comprueban, cuándo se retira una reseña y cómo se calcula la puntuación.`,
  collectedHeading: 'Cómo se recogen las reseñas',
  collectedNone: 'Esta tienda aún no tiene reseñas publicadas.',
  method: {
    invitation:
      'Por invitación: después de un pedido, la tienda nos pide que enviemos al cliente un enlace personal para su reseña.',
    popup:
      'Después de la compra: una ventana en la página de confirmación del pedido de la tienda pide una reseña al cliente.',
    form: 'Con el formulario público: cualquiera puede escribir sobre su experiencia tras confirmar su dirección de e-mail.',
    import: 'Importadas: reseñas escritas en otra plataforma de reseñas y traídas aquí por el operador.',
  },
  originsHeading: 'Cómo se comprueba cada reseña',
  origin: {
    verified_order: {
      label: 'Pedido verificado',
      description:
        'El pedido se ha comprobado: la reseña llegó por el enlace de una invitación del pedido, por datos del pedido firmados por la tienda, o la tienda confirmó el pedido y la dirección de quien la escribió.',
    },
    email_confirmed: {
      label: 'E-mail confirmado',
      description:
        'Quien la escribió confirmó su dirección de e-mail con un enlace que le enviamos. Esto prueba la dirección, no una compra.',
    },
    imported: {
      label: 'Importada',
      description:
        'Escrita en otra plataforma, cuyo nombre figura en la reseña. No podemos comprobar cómo la verificó esa plataforma; se conserva la fecha original.',
    },
  },
  incentivised: {
    label: 'Con incentivo',
    description:
      'A quien la escribió se le ofreció algo (como un descuento o un regalo) por escribir una reseña, fuera cual fuera su puntuación.',
  },
  originCount: (count) => `${count} publicadas`,
  publicationHeading: 'Publicación',
  groundsHeading: 'Motivos de retirada',
  ground: {
    not_experience: 'No trata de una experiencia real con esta tienda.',
    offensive: 'Es ofensiva, discriminatoria o amenazante.',
    personal_data: 'Contiene datos personales de otra persona (en su lugar puede retirarse solo ese pasaje).',
    spam: 'Es spam o publicidad.',
    conflict_of_interest: 'La escribió la tienda, un competidor o alguien a quien se pagó por una puntuación concreta.',
    other: 'Infringe la ley de otra manera.',
  },
  signalsHeading: 'Comprobaciones automáticas',
  signalsOn: (list) =>
    `Las reseñas se comprueban automáticamente en busca de ${list}. Una comprobación nunca oculta, retiene ni retrasa una reseña: pide a una persona que la revise, y una persona decide.`,
  signalsNone: 'No hay ninguna comprobación automática activada. Cada decisión la toma una persona.',
  signalName: {
    insider:
      'reseñas del propio personal de la tienda (un miembro del equipo de la tienda, o una dirección del propio dominio de la tienda)',
    burst:
      'avalanchas inusuales (más reseñas en 24 horas que 10, o que cinco veces la media diaria de la tienda en 90 días)',
    duplicate_text:
      'textos copiados (un comentario de 12 palabras o más igual, o casi igual, a una reseña de cualquier tienda de los últimos 365 días)',
    shared_network:
      'reseñas enviadas juntas (tres o más reseñas de una tienda en 30 días desde la misma red con el mismo navegador)',
  },
  scoreHeading: 'Cómo se calcula la puntuación',
  score: [
    'Cuenta cada reseña publicada, sea cual sea su antigüedad; no cuentan las reseñas retiradas ni las que aún esperan la confirmación de quien las escribió.',
    'Cada reseña da una puntuación general de 1 a 5 estrellas. La puntuación de la tienda es la media de estas, multiplicada por dos, en una escala de 1 a 10, redondeada a un decimal.',
    'Las puntuaciones parciales (plazo de entrega, atención al cliente, relación calidad-precio, servicio posventa) son opcionales: cada una es la media de las reseñas que la dieron, en una escala de 1 a 5; una reseña que no la dio queda fuera de esa media.',
    'Todas las reseñas cuentan igual, sea cual sea su origen.',
  ],
  incentivesHeading: 'Incentivos',
  incentivesNone: 'Ninguna de las reseñas publicadas de esta tienda está marcada como escrita con incentivo.',
  incentivesSome: (count, total) =>
    `${count} de ${total} reseñas publicadas se escribieron a cambio de un incentivo; cada una está marcada «Con incentivo». Un incentivo nunca depende de la puntuación.`,
  removedHeading: 'Reseñas retiradas en los últimos 12 meses',
  removedIntro: (since) => `Reseñas de esta tienda retiradas desde el ${since}, por motivo:`,
  groundColumn: 'Motivo',
  countColumn: 'Reseñas retiradas',
  removedTotal: 'Total',
  reportHeading: 'Cómo denunciar una reseña',
  reportLink: (shop) => `Las reseñas de ${shop}, cada una con su enlace «Denunciar»`,
  backToReviews: (shop) => `Volver a las reseñas de ${shop}`,
  footer: (brand) => `Reseñas recogidas por ${brand}`,
  notFoundTitle: 'Tienda no encontrada',
  notFoundBody: 'No hay ninguna tienda con este número.',
  incentivesCounted: 'Cuentan en la puntuación de la tienda como cualquier otra reseña.',
  incentivesExcluded:
    'Quedan fuera de la puntuación de la tienda y del número de reseñas que la acompaña: la puntuación se calcula solo con las demás reseñas.',
  starsHeading: 'Reseñas por estrellas en los últimos 12 meses',
  starsIntro: (since) =>
    `Las puntuaciones bajas se publican igual que las altas. Desde el ${since}, por estrellas: las reseñas recibidas, publicadas y retiradas (por motivo).`,
  starColumn: (stars) => (stars === 1 ? '1 estrella' : `${stars} estrellas`),
  receivedRow: 'Recibidas',
  publishedRow: 'Publicadas',
  removedRow: (ground) => `Retiradas: ${ground}`,
};

const it: PolicyStrings = {
  title: (shop) => `Come vengono verificate le recensioni: ${shop}`,
  intro: (shop, brand) =>
    `${brand} raccoglie e mostra le recensioni di ${shop} in modo indipendente dal negozio. Questa pagina spiega da dove vengono queste recensioni, come vengono verificate, quando una recensione viene rimossa e come si calcola il punteggio.`,
  collectedHeading: 'Come vengono raccolte le recensioni',
  collectedNone: 'Questo negozio non ha ancora recensioni pubblicate.',
  method: {
    invitation: 'Su invito: dopo un ordine, il negozio ci fa inviare al cliente un link personale per la recensione.',
    popup:
      'Dopo l’acquisto: una finestra sulla pagina di conferma dell’ordine del negozio chiede al cliente una recensione.',
    form: 'Con il modulo pubblico: chiunque può scrivere della propria esperienza dopo aver confermato il proprio indirizzo e-mail.',
    import: 'Importate: recensioni scritte su un’altra piattaforma di recensioni e portate qui dal gestore.',
  },
  originsHeading: 'Come viene verificata ogni recensione',
  origin: {
    verified_order: {
      label: 'Ordine verificato',
      description:
        'L’ordine è stato provato: la recensione è arrivata dal link di un invito per l’ordine, da dati d’ordine firmati dal negozio, oppure il negozio ha confermato l’ordine e l’indirizzo dell’autore.',
    },
    email_confirmed: {
      label: 'E-mail confermata',
      description:
        'L’autore ha confermato il proprio indirizzo e-mail con un link che abbiamo inviato. Questo prova l’indirizzo, non un acquisto.',
    },
    imported: {
      label: 'Importata',
      description:
        'Scritta su un’altra piattaforma, indicata nella recensione. Non possiamo verificare come quella piattaforma l’abbia controllata; la data originale è conservata.',
    },
  },
  incentivised: {
    label: 'Con incentivo',
    description:
      'All’autore è stato offerto qualcosa (come uno sconto o un regalo) per scrivere una recensione, qualunque fosse il punteggio.',
  },
  originCount: (count) => `${count} pubblicate`,
  publicationHeading: 'Pubblicazione',
  groundsHeading: 'Motivi di rimozione',
  ground: {
    not_experience: 'Non riguarda un’esperienza reale con questo negozio.',
    offensive: 'È offensiva, discriminatoria o minacciosa.',
    personal_data: 'Contiene dati personali di un’altra persona (può essere rimosso invece solo quel passaggio).',
    spam: 'È spam o pubblicità.',
    conflict_of_interest:
      'È stata scritta dal negozio, da un concorrente o da qualcuno pagato per un determinato punteggio.',
    other: 'Viola la legge in un altro modo.',
  },
  signalsHeading: 'Controlli automatici',
  signalsOn: (list) =>
    `Le recensioni vengono controllate automaticamente per individuare ${list}. Un controllo non nasconde, non trattiene e non ritarda mai una recensione: chiede a una persona di guardare, e decide una persona.`,
  signalsNone: 'Nessun controllo automatico è attivo. Ogni decisione è presa da una persona.',
  signalName: {
    insider:
      'recensioni del personale del negozio (un membro del team del negozio, o un indirizzo del dominio del negozio stesso)',
    burst:
      'afflussi insoliti (più recensioni in 24 ore di 10, o di cinque volte la media giornaliera del negozio negli ultimi 90 giorni)',
    duplicate_text:
      'testi copiati (un commento di 12 parole o più uguale, o quasi uguale, a una recensione di qualsiasi negozio degli ultimi 365 giorni)',
    shared_network:
      'recensioni inviate insieme (tre o più recensioni di un negozio in 30 giorni dalla stessa rete con lo stesso browser)',
  },
  scoreHeading: 'Come si calcola il punteggio',
  score: [
    'Conta ogni recensione pubblicata, per quanto vecchia; non contano le recensioni rimosse né quelle che attendono ancora la conferma dell’autore.',
    'Ogni recensione dà un punteggio complessivo da 1 a 5 stelle. Il punteggio del negozio è la media di questi, raddoppiata, su una scala da 1 a 10, arrotondata a un decimale.',
    'I punteggi parziali (tempi di consegna, servizio clienti, rapporto qualità-prezzo, assistenza post-vendita) sono facoltativi: ciascuno è la media delle recensioni che lo hanno dato, su una scala da 1 a 5; una recensione che non lo ha dato resta fuori da quella media.',
    'Tutte le recensioni contano allo stesso modo, qualunque sia la loro origine.',
  ],
  incentivesHeading: 'Incentivi',
  incentivesNone: 'Nessuna delle recensioni pubblicate di questo negozio è segnata come scritta con incentivo.',
  incentivesSome: (count, total) =>
    `${count} delle ${total} recensioni pubblicate sono state scritte in cambio di un incentivo; ciascuna è segnata «Con incentivo». Un incentivo non dipende mai dal punteggio.`,
  removedHeading: 'Recensioni rimosse negli ultimi 12 mesi',
  removedIntro: (since) => `Recensioni di questo negozio rimosse dal ${since}, per motivo:`,
  groundColumn: 'Motivo',
  countColumn: 'Recensioni rimosse',
  removedTotal: 'Totale',
  reportHeading: 'Come segnalare una recensione',
  reportLink: (shop) => `Le recensioni di ${shop}, ciascuna con il suo link «Segnala»`,
  backToReviews: (shop) => `Torna alle recensioni di ${shop}`,
  footer: (brand) => `Recensioni raccolte da ${brand}`,
  notFoundTitle: 'Negozio non trovato',
  notFoundBody: 'Non esiste alcun negozio con questo numero.',
  incentivesCounted: 'Contano nel punteggio del negozio come qualsiasi altra recensione.',
  incentivesExcluded:
    'Sono escluse dal punteggio del negozio e dal numero di recensioni indicato accanto: il punteggio è calcolato solo sulle altre recensioni.',
  starsHeading: 'Recensioni per stelle negli ultimi 12 mesi',
  starsIntro: (since) =>
    `I punteggi bassi vengono pubblicati come quelli alti. Dal ${since}, per stelle: le recensioni ricevute, pubblicate e rimosse (per motivo).`,
  starColumn: (stars) => (stars === 1 ? '1 stella' : `${stars} stelle`),
  receivedRow: 'Ricevute',
  publishedRow: 'Pubblicate',
  removedRow: (ground) => `Rimosse: ${ground}`,
};

const hr: PolicyStrings = {
  title: (shop) => `Kako se provjeravaju recenzije: ${shop}`,
  intro: (shop, brand) =>
    `${brand} prikuplja i prikazuje recenzije trgovine ${shop} neovisno o trgovini. Ova stranica navodi odakle recenzije dolaze, kako se provjeravaju, kada se recenzija uklanja i kako se izračunava ocjena.`,
  collectedHeading: 'Kako se prikupljaju recenzije',
  collectedNone: 'Ova trgovina još nema objavljenih recenzija.',
  method: {
    invitation:
      'Pozivom: nakon narudžbe trgovina od nas traži da kupcu e-poštom pošaljemo osobnu poveznicu za recenziju.',
    popup: 'Nakon kupnje: prozor na stranici potvrde narudžbe u trgovini traži od kupca recenziju.',
    form: 'Javnim obrascem: svatko može opisati svoje iskustvo nakon što potvrdi svoju adresu e-pošte.',
    import: 'Uvezene: recenzije napisane na drugoj platformi za recenzije koje je ovamo prenio operater.',
  },
  originsHeading: 'Kako se provjerava svaka recenzija',
  origin: {
    verified_order: {
      label: 'Potvrđena narudžba',
      description:
        'Narudžba je dokazana: recenzija je stigla putem poveznice iz poziva za tu narudžbu, putem podataka o narudžbi koje je trgovina potpisala, ili je trgovina potvrdila narudžbu i adresu autora.',
    },
    email_confirmed: {
      label: 'E-pošta potvrđena',
      description:
        'Autor je potvrdio svoju adresu e-pošte putem poveznice koju smo poslali. To dokazuje adresu, a ne kupnju.',
    },
    imported: {
      label: 'Uvezeno',
      description:
        'Napisana na drugoj platformi, navedenoj uz recenziju. Ne možemo provjeriti kako ju je ta platforma provjerila; izvorni datum je sačuvan.',
    },
  },
  incentivised: {
    label: 'Uz poticaj',
    description:
      'Autoru je nešto ponuđeno (primjerice popust ili poklon) za pisanje recenzije, bez obzira na njezinu ocjenu.',
  },
  originCount: (count) => `objavljeno: ${count}`,
  publicationHeading: 'Objava',
  groundsHeading: 'Razlozi za uklanjanje',
  ground: {
    not_experience: 'Ne govori o stvarnom iskustvu s ovom trgovinom.',
    offensive: 'Uvredljiva je, diskriminirajuća ili prijeteća.',
    personal_data: 'Sadrži osobne podatke druge osobe (umjesto toga može se ukloniti samo taj dio).',
    spam: 'To je neželjena pošta ili oglas.',
    conflict_of_interest: 'Napisala ju je trgovina, konkurent ili netko plaćen za određenu ocjenu.',
    other: 'Na drugi način krši zakon.',
  },
  signalsHeading: 'Automatske provjere',
  signalsOn: (list) =>
    `Recenzije se automatski provjeravaju na: ${list}. Provjera nikada ne skriva, ne zadržava i ne odgađa recenziju: traži da je osoba pregleda, a odluku donosi osoba.`,
  signalsNone: 'Nijedna automatska provjera nije uključena. Svaku odluku donosi osoba.',
  signalName: {
    insider: 'recenzije osoblja same trgovine (član tima trgovine ili adresa na vlastitoj domeni trgovine)',
    burst:
      'neuobičajene navale (više recenzija u 24 sata od 10, ili od peterostrukog dnevnog prosjeka trgovine u 90 dana)',
    duplicate_text:
      'kopirani tekst (komentar od 12 ili više riječi jednak, ili gotovo jednak, recenziji bilo koje trgovine iz posljednjih 365 dana)',
    shared_network:
      'recenzije poslane zajedno (tri ili više recenzija jedne trgovine unutar 30 dana s iste mreže s istim preglednikom)',
  },
  scoreHeading: 'Kako se izračunava ocjena',
  score: [
    'Računa se svaka objavljena recenzija, bez obzira na starost; uklonjene recenzije i one koje još čekaju potvrdu autora ne računaju se.',
    'Svaka recenzija daje ukupnu ocjenu od 1 do 5 zvjezdica. Ocjena trgovine prosjek je tih ocjena, udvostručen, na ljestvici od 1 do 10, zaokružen na jednu decimalu.',
    'Pojedinačne ocjene (rok isporuke, služba za korisnike, omjer cijene i kvalitete, postprodajna usluga) nisu obvezne: svaka je prosjek recenzija koje su je dale, na ljestvici od 1 do 5; recenzija koja je nije dala izostavlja se iz tog prosjeka.',
    'Sve recenzije računaju se jednako, bez obzira na podrijetlo.',
  ],
  incentivesHeading: 'Poticaji',
  incentivesNone: 'Nijedna objavljena recenzija ove trgovine nije označena kao napisana uz poticaj.',
  incentivesSome: (count, total) =>
    `Objavljenih recenzija napisanih uz poticaj: ${count} od ${total}; svaka je označena „Uz poticaj”. Poticaj nikada ne ovisi o ocjeni.`,
  removedHeading: 'Recenzije uklonjene u posljednjih 12 mjeseci',
  removedIntro: (since) => `Recenzije ove trgovine uklonjene od ${since}, po razlogu:`,
  groundColumn: 'Razlog',
  countColumn: 'Uklonjene recenzije',
  removedTotal: 'Ukupno',
  reportHeading: 'Kako prijaviti recenziju',
  reportLink: (shop) => `Recenzije trgovine ${shop}, svaka s poveznicom „Prijavi”`,
  backToReviews: (shop) => `Natrag na recenzije trgovine ${shop}`,
  footer: (brand) => `Recenzije prikuplja ${brand}`,
  notFoundTitle: 'Trgovina nije pronađena',
  notFoundBody: 'Ne postoji trgovina s tim brojem.',
  incentivesCounted: 'Računaju se u ocjenu trgovine kao i svaka druga recenzija.',
  incentivesExcluded:
    'Izostavljene su iz ocjene trgovine i iz broja recenzija uz nju: ocjena se izračunava samo iz ostalih recenzija.',
  starsHeading: 'Recenzije po zvjezdicama u posljednjih 12 mjeseci',
  starsIntro: (since) =>
    `Niske ocjene objavljuju se jednako kao visoke. Od ${since}, po zvjezdicama: primljene, objavljene i uklonjene recenzije (po razlogu).`,
  starColumn: (stars) => (stars === 1 ? '1 zvjezdica' : stars < 5 ? `${stars} zvjezdice` : `${stars} zvjezdica`),
  receivedRow: 'Primljeno',
  publishedRow: 'Objavljeno',
  removedRow: (ground) => `Uklonjeno: ${ground}`,
};

export const POLICY_STRINGS: Record<PolicyLanguage, PolicyStrings> = { en, nl, de, fr, es, it, hr };

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
  fr: {
    checks:
      'Chaque avis porte une étiquette qui indique comment il a été vérifié : « Commande vérifiée », « E-mail confirmé » ou « Importé de … », et « Avec contrepartie » quand on a offert quelque chose à son auteur.\n\nUn avis ne compte comme commande vérifiée que si la commande a été prouvée. Confirmer une adresse e-mail prouve l’adresse, pas un achat.',
    publication:
      'Chaque avis est publié quelle que soit sa note, dès qu’il a été vérifié comme décrit ci-dessus. La boutique ne peut ni supprimer, ni retenir, ni modifier un avis, et ne peut pas choisir quels avis sont affichés.\n\nNous ne supprimons un avis que pour l’un des motifs ci-dessous, après un signalement ou notre propre contrôle. Son auteur est informé du motif par e-mail. Un avis qui contient des données personnelles peut à la place voir ce passage supprimé.',
    reporting:
      'Chacun peut signaler un avis avec le lien « Signaler » affiché à côté. Choisissez un motif et ajoutez des précisions si vous le souhaitez ; votre adresse e-mail est facultative et ne sert qu’à vous répondre. Nous examinons chaque signalement ; le texte d’un signalement n’est jamais transmis à la boutique ni à l’auteur.',
  },
  es: {
    checks:
      'Cada reseña lleva una etiqueta que dice cómo se comprobó: «Pedido verificado», «E-mail confirmado» o «Importada de …», y «Con incentivo» cuando a quien la escribió se le ofreció algo por ella.\n\nUna reseña solo cuenta como pedido verificado si el pedido se ha comprobado. Confirmar una dirección de e-mail prueba la dirección, no una compra.',
    publication:
      'Cada reseña se publica sea cual sea su puntuación, en cuanto se ha comprobado como se describe arriba. La tienda no puede retirar, retener ni modificar una reseña, ni elegir qué reseñas se muestran.\n\nSolo retiramos una reseña por uno de los motivos indicados abajo, tras una denuncia o nuestra propia comprobación. Se informa del motivo por e-mail a quien la escribió. De una reseña con datos personales puede retirarse en su lugar solo ese pasaje.',
    reporting:
      'Cualquiera puede denunciar una reseña con el enlace «Denunciar» que la acompaña. Elija un motivo y añada detalles si lo desea; su dirección de e-mail es opcional y solo sirve para responderle. Revisamos cada denuncia; el texto de una denuncia nunca se envía a la tienda ni a quien escribió la reseña.',
  },
  it: {
    checks:
      'Ogni recensione porta un’etichetta che dice come è stata verificata: «Ordine verificato», «E-mail confermata» o «Importata da …», e «Con incentivo» quando all’autore è stato offerto qualcosa in cambio.\n\nUna recensione conta come ordine verificato solo se l’ordine è stato provato. Confermare un indirizzo e-mail prova l’indirizzo, non un acquisto.',
    publication:
      'Ogni recensione viene pubblicata qualunque sia il punteggio, non appena è stata verificata come descritto sopra. Il negozio non può rimuovere, trattenere o modificare una recensione, né scegliere quali recensioni vengono mostrate.\n\nRimuoviamo una recensione solo per uno dei motivi elencati sotto, dopo una segnalazione o un nostro controllo. L’autore viene informato del motivo per e-mail. Da una recensione che contiene dati personali può invece essere rimosso solo quel passaggio.',
    reporting:
      'Chiunque può segnalare una recensione con il link «Segnala» accanto a essa. Scelga un motivo e aggiunga dettagli se lo desidera; il suo indirizzo e-mail è facoltativo e serve solo a risponderle. Esaminiamo ogni segnalazione; il testo di una segnalazione non viene mai inviato al negozio né all’autore.',
  },
  hr: {
    checks:
      'Svaka recenzija nosi oznaku koja kaže kako je provjerena: „Potvrđena narudžba”, „E-pošta potvrđena” ili „Uvezeno s …”, te „Uz poticaj” kada je autoru za nju nešto ponuđeno.\n\nRecenzija se računa kao potvrđena narudžba samo ako je narudžba dokazana. Potvrda adrese e-pošte dokazuje adresu, a ne kupnju.',
    publication:
      'Svaka se recenzija objavljuje bez obzira na ocjenu, čim je provjerena kako je gore opisano. Trgovina ne može ukloniti, zadržati ni izmijeniti recenziju niti birati koje se recenzije prikazuju.\n\nRecenziju uklanjamo samo iz jednog od dolje navedenih razloga, nakon prijave ili vlastite provjere. Autor o razlogu dobiva obavijest e-poštom. Iz recenzije koja sadrži osobne podatke umjesto toga može se ukloniti samo taj dio.',
    reporting:
      'Svatko može prijaviti recenziju poveznicom „Prijavi” uz nju. Odaberite razlog i po želji dodajte pojedinosti; vaša adresa e-pošte nije obvezna i služi samo za odgovor. Pregledavamo svaku prijavu; tekst prijave nikada se ne šalje trgovini ni autoru.',
  },
};
