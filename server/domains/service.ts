// The shops the domain API answers for a host: looked up by the webshops' host, each look-up cached for a while.
import type { Cache } from '../cache.js';
import type { Webshop } from '../webshops/model.js';

/** What the look-up takes: the webshop store's host search and (cached) `get`, and the host cache (app.ts). */
export interface HostDeps {
  webshops: { findByHost(host: string): Promise<Webshop[]>; get(id: number): Promise<Webshop | null> };
  domainHosts: Pick<Cache<number[]>, 'fetch'>;
}

/**
 * The shops at `host`. Every filtered find scans the webshops, so repeated look-ups of a host are answered from
 * `domainHosts` for the cache TTL; the shops themselves come from the webshop cache, which their updates invalidate.
 */
export async function shopsAtHost(deps: HostDeps, host: string): Promise<Webshop[]> {
  const ids = await deps.domainHosts.fetch(host, async () => (await deps.webshops.findByHost(host)).map((s) => s.id), {
    bytes: (found) => 64 + host.length * 2 + found.length * 8,
  });
  const shops = await Promise.all(ids.map((id) => deps.webshops.get(id)));
  // A shop that moved to another URL since the host was cached no longer matches.
  return shops.filter((s): s is Webshop => s !== null && s.host === host);
}
