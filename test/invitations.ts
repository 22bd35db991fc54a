// An Add invitation input as the route would parse it from a plain call: due now, no products, no client fields.
import type { InvitationInput } from '../server/invitations/input.js';

export function invitationInput(email: string, order: string): InvitationInput {
  return {
    email,
    order,
    language: 'en',
    delay: 0,
    customerName: '',
    products: [],
    client: null,
    platformVersion: null,
    pluginVersion: null,
    maxPerEmail: null,
  };
}
