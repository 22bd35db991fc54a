// A consent receipt of the Privacy First pop-up as the store keeps it (store.ts; how far each is trusted: rules.ts).
// Types only, so another feature (the pop-up's review, reviews/publication.ts) names a receipt without the store.
import type { Language } from '../languages.js';

type ConsentChoice = 'write_now' | 'ask_later';

export interface Consent {
  shopId: number;
  order: string;
  /** Normalised; '' when the order data script carried none. */
  email: string;
  firstName: string;
  /** Days after `created` before an Ask-me-later invitation may be sent. */
  inviteDelay: number;
  choice: ConsentChoice;
  created: Date;
  language: Language;
  /** The order data script carried a valid signature. */
  signed: boolean;
  /** Which version of the consent text the customer saw. */
  textVersion: string;
}

/** A choice to record: the store dates it. */
export type NewConsent = Omit<Consent, 'created'>;
