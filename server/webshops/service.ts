// The webshops as other features' routes reach them: through these functions rather than the webshop store, so a
// route module reaches no other feature's store (docs/architecture.md).
import { HttpError } from '../http/errors.js';
import type { Webshop } from './model.js';

/** What finding a shop takes: the store's (cached) `get`. Generic so that a test's fake may return less. */
export interface ShopFinder<S = Webshop> {
  webshops: { get(id: number): Promise<S | null> };
}

/** The shop a route names by id, or the 404 `No such webshop.` every route answers for an id no shop has. */
export async function requireWebshop<S>(deps: ShopFinder<S>, shopId: number): Promise<S> {
  const shop = await deps.webshops.get(shopId);
  if (!shop) throw new HttpError(404, 'No such webshop.');
  return shop;
}

/** The shop with the id, or null (a shop deleted since it was named, e.g. a team membership of a removed shop). */
export function findWebshop<S>(deps: ShopFinder<S>, shopId: number): Promise<S | null> {
  return deps.webshops.get(shopId);
}
