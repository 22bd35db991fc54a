// Unsubscribe, the service: the invitation and shop behind an unsubscribe link, and the wish recorded. The route
// (routes.ts) checks the token's form and answers with a page; the invitation and the shop are their features'
// records, reached through the methods app.ts passes (declared here: a reader meets neither store).
import type { Language } from '../languages.js';

/** What an unsubscribe reads of the invitation the e-mail was for. */
interface UnsubscribedInvitation {
  shopId: number;
  email: string;
  language: Language;
}

export interface UnsubscribeDeps {
  invitations: { byUnsubscribeToken(token: string): Promise<UnsubscribedInvitation | null> };
  webshops: { get(id: number): Promise<{ id: number; name: string } | null> };
  suppressions: { add(shopId: number, email: string): Promise<void> };
}

export interface UnsubscribeTarget {
  invitation: UnsubscribedInvitation;
  shop: { id: number; name: string };
}

/** The invitation and shop behind a link's token; null when either is gone (or never was). */
export async function unsubscribeTarget(deps: UnsubscribeDeps, token: string): Promise<UnsubscribeTarget | null> {
  const invitation = await deps.invitations.byUnsubscribeToken(token);
  const shop = invitation ? await deps.webshops.get(invitation.shopId) : null;
  return invitation && shop ? { invitation, shop } : null;
}

/** Records the wish. Invitations already queued for the address are not sent either: the sender checks before each. */
export async function unsubscribe(deps: UnsubscribeDeps, { invitation, shop }: UnsubscribeTarget): Promise<void> {
  await deps.suppressions.add(shop.id, invitation.email);
}
