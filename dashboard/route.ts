// The app's addresses: /dashboard/ (the overview), /dashboard/<page>, /dashboard/account; `?shop=<id>` picks one of
// the user's shops (else the one used last, else the first). Pure, so the server's idea of a page path and the
// app's cannot drift (server/dashboard/assets.ts answers every one of them with the app).
export const PAGES = [
  'overview',
  'reviews',
  'invitations',
  'widget',
  'integration',
  'team',
  'google',
  'import',
] as const;
export type PageName = (typeof PAGES)[number];
type Route = { page: PageName | 'account' | 'not_found'; shopId: number | null };

const BASE = '/dashboard/';

export function parseRoute(pathname: string, search: string): Route {
  const rest = pathname.startsWith(BASE)
    ? pathname.slice(BASE.length).replace(/\/+$/, '')
    : pathname === '/dashboard'
      ? ''
      : null;
  const shop = new URLSearchParams(search).get('shop');
  const shopId = shop && /^\d{1,15}$/.test(shop) ? Number(shop) : null;
  if (rest === '') return { page: 'overview', shopId };
  if (rest === 'account') return { page: 'account', shopId };
  if (rest !== null && (PAGES as readonly string[]).includes(rest)) return { page: rest as PageName, shopId };
  return { page: 'not_found', shopId };
}

/** The address of a page; the shop is named only for a user with several. */
export function pagePath(page: PageName | 'account', shopId: number | null): string {
  const path = page === 'overview' ? BASE : `${BASE}${page}`;
  return shopId === null ? path : `${path}?shop=${shopId}`;
}
