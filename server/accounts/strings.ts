// The words of the dashboard's server-rendered sign-in pages, in English and Dutch (the dashboard's languages).
// `{brand}` is BRAND_NAME.

const PAGE_LANGUAGES = ['en', 'nl'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

export interface PageStrings {
  signInTitle: string;
  signInBody: string;
  signInButton: string;
  usedTitle: string;
  usedBody: string;
  expiredTitle: string;
  expiredBody: string;
  unknownTitle: string;
  unknownBody: string;
  emailLabel: string;
  newLinkButton: string;
  sentTitle: string;
  sentBody: string;
  backToDashboard: string;
}

export const PAGE_STRINGS: Record<PageLanguage, PageStrings> = {
  en: {
    signInTitle: 'Sign in to {brand}',
    signInBody: 'Press the button to sign in to the review dashboard. The link then stops working.',
    signInButton: 'Sign in',
    usedTitle: 'This sign-in link was used already',
    usedBody: 'Each link signs in once. Ask for a new one below.',
    expiredTitle: 'This sign-in link has expired',
    expiredBody: 'A link works for 15 minutes. Ask for a new one below.',
    unknownTitle: 'This sign-in link does not work',
    unknownBody: 'Check that you opened the whole link from the e-mail, or ask for a new one below.',
    emailLabel: 'E-mail address',
    newLinkButton: 'E-mail me a sign-in link',
    sentTitle: 'Check your e-mail',
    sentBody: 'If this address has access to a shop, a sign-in link is on its way. It works once, within 15 minutes.',
    backToDashboard: 'Back to the dashboard',
  },
  nl: {
    signInTitle: 'Inloggen bij {brand}',
    signInBody: 'Druk op de knop om in te loggen op het reviewdashboard. Daarna werkt de link niet meer.',
    signInButton: 'Inloggen',
    usedTitle: 'Deze inloglink is al gebruikt',
    usedBody: 'Elke link werkt één keer. Vraag hieronder een nieuwe aan.',
    expiredTitle: 'Deze inloglink is verlopen',
    expiredBody: 'Een link werkt 15 minuten. Vraag hieronder een nieuwe aan.',
    unknownTitle: 'Deze inloglink werkt niet',
    unknownBody: 'Controleer of je de hele link uit de e-mail hebt geopend, of vraag hieronder een nieuwe aan.',
    emailLabel: 'E-mailadres',
    newLinkButton: 'Stuur me een inloglink',
    sentTitle: 'Kijk in je e-mail',
    sentBody:
      'Als dit adres toegang heeft tot een winkel, is er een inloglink onderweg. Die werkt één keer, binnen 15 minuten.',
    backToDashboard: 'Terug naar het dashboard',
  },
};

/** The first of the browser's languages that the pages speak; English otherwise. */
export function pageLanguage(accepted: string[]): PageLanguage {
  for (const tag of accepted) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary === 'en' || primary === 'nl') return primary;
  }
  return 'en';
}
