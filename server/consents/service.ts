// The consent receipts as other features' routes reach them: through these functions rather than the consents'
// store, so a route module reaches no other feature's store (docs/architecture.md).
import type { Webshop } from '../webshops/model.js';
import { verifyOrderSignature, type OrderFields } from './signature.js';
import type { ConsentStore } from './store.js';

/** What the check reads: the order's signed receipt (`get` answers signed receipts only). */
export interface SignedOrderDeps {
  consents: Pick<ConsentStore, 'get'>;
}

/**
 * The pop-up's check of a signed order-data element, before it shows its dialog: whether the signature is the
 * shop's, and whether a signed choice is recorded for the order already (only a signed receipt is final for a
 * signed order: an unsigned one may be replaced by the customer's choice). It stores nothing, and a wrong
 * signature learns nothing about the order.
 */
export async function checkSignedOrder(
  deps: SignedOrderDeps,
  shop: Pick<Webshop, 'id' | 'code'>,
  order: { number: string; fields: OrderFields },
  signature: string,
): Promise<{ valid: boolean; recorded: boolean }> {
  const valid = verifyOrderSignature(order.fields, signature, shop.id, shop.code);
  const existing = valid ? await deps.consents.get(shop.id, order.number) : null;
  return { valid, recorded: existing?.signed === true };
}
