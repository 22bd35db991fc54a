// GET /webshops/fetch_domain.json (retrieve by domain, token-authorised; the operator issues and revokes its tokens
// in admin.ts). Errors use the `{error:{code, message}}` envelope of the endpoints outside /api.
import type Router from '@koa/router';
import { HttpError } from '../http/errors.js';
import type { Services } from '../services.js';
import type { Webshop } from '../webshops/model.js';
import { hostOf } from '../webshops/rules.js';
import { isTrueFlag, toDomainRecord } from './record.js';

const URL_MAX_LENGTH = 2000;

export function registerDomainRoutes(router: Router, services: Services): void {
  const { domainTokens, webshops, ratings, config } = services;
  // Host → shop ids (`domainHosts`, built in app.ts). Every filtered find scans the webshops, so repeated look-ups
  // of a host are answered from there for the cache TTL; the shops themselves come from the webshop cache, which
  // their updates invalidate.
  const hosts = services.domainHosts;

  async function shopsAt(host: string): Promise<Webshop[]> {
    const ids = await hosts.fetch(host, async () => (await webshops.findByHost(host)).map((s) => s.id), {
      bytes: (found) => 64 + host.length * 2 + found.length * 8,
    });
    const shops = await Promise.all(ids.map((id) => webshops.get(id)));
    // A shop that moved to another URL since the host was cached no longer matches.
    return shops.filter((s): s is Webshop => s !== null && s.host === host);
  }

  router.get('/webshops/fetch_domain.json', async (ctx) => {
    const { token, url } = ctx.query;
    if (token === undefined || token === '') throw new HttpError(401, 'The token parameter is required.');
    if (typeof token !== 'string' || !(await domainTokens.isValid(token))) {
      throw new HttpError(401, 'The token is not valid.');
    }
    if (url === undefined || url === '') throw new HttpError(400, 'The url parameter is required.');
    if (typeof url !== 'string') throw new HttpError(400, 'The url parameter must be a single value.');
    if (url.length > URL_MAX_LENGTH)
      throw new HttpError(400, `The url parameter must be at most ${URL_MAX_LENGTH} characters.`);
    const host = hostOf(url.trim());
    if (!host) throw new HttpError(400, 'The url parameter is not a valid URL or host name.');

    const options = {
      baseUrl: config.baseUrl,
      approvedDate: isTrueFlag(ctx.query.approved_date),
      partnerAssurances: isTrueFlag(ctx.query.partner_assurances),
    };
    const shops = await shopsAt(host);
    ctx.body = await Promise.all(
      shops.map(async (shop) => toDomainRecord(shop, await ratings.summary(shop.id), options)),
    );
  });
}
