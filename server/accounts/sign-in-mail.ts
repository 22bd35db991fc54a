// The outbox e-mail accounts queue (types only): the mail feature sends it without knowing the team role it carries.
import type { Language } from '../languages.js';
import type { Role } from './roles.js';

/** A sign-in link, or (with `team`) the e-mail telling a user added to a team how to sign in. */
export interface SignInIntent {
  kind: 'sign-in';
  userId: number;
  language: Language;
  team: { shopName: string; role: Role } | null;
  /** The requester stopped waiting then: not sent later (null: sent whenever the server takes it). */
  expires: Date | null;
}
