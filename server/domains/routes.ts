// GET /webshops/fetch_domain.json (retrieve by domain, token-authorised; the operator issues and revokes its tokens
// in admin.ts). Errors use the `{error:{code, message}}` envelope of the endpoints outside /api.
import type Router from '@koa/router';
import { HttpError } from '../http/errors.js';
import type { Services } from '../services.js';
import { hostOf } from '../webshops/rules.js';
import { isTrueFlag, toDomainRecord } from './record.js';
import { shopsAtHost } from './service.js';

const URL_MAX_LENGTH = 2000;

export function registerDomainRoutes(
  router: Router,
  services: Pick<Services, 'config' | 'domainHosts' | 'domainTokens' | 'ratings' | 'webshops'>,
): void {
  const { domainTokens, ratings, config } = services;

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
    const shops = await shopsAtHost(services, host);
    ctx.body = await Promise.all(
      shops.map(async (shop) => toDomainRecord(shop, await ratings.summary(shop.id), options)),
    );
  });
}
