// What the dashboard's browser tests share: seeding as the operator would (shops, users, reviews through the operator
// API), the e-mails caught by the SMTP sink (e2e/server.ts), signing in from the e-mailed link, the session's CSRF
// token for calling the API as the signed-in browser, and screenshots for the README.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { startReceiver, type Receiver } from '../test/webhook-receiver.js';

export const base = (): string => process.env.WIDGET_BASE!;

type Role = 'owner' | 'manager' | 'support';

/** The pages of the app, as their paths under /dashboard/ and the names of their links in the navigation. */
export const PAGES = [
  { path: 'overview', link: 'Overview', heading: 'Overview' },
  { path: 'reviews', link: 'Reviews', heading: 'Reviews' },
  { path: 'invitations', link: 'Invitations', heading: 'Invitations' },
  { path: 'widget', link: 'Widget', heading: 'Widget' },
  { path: 'integration', link: 'Integration', heading: 'Integration' },
  { path: 'team', link: 'Team', heading: 'Team' },
  { path: 'import', link: 'Import reviews', heading: 'Import reviews' },
] as const;
export type PageName = (typeof PAGES)[number]['path'];

/** A test's own addresses and order numbers: every run and retry uses fresh ones (limits are per address). */
let counter = 0;
export const unique = (label: string): string =>
  `${label}-${Date.now().toString(36)}-${(++counter).toString(36)}${Math.random().toString(36).slice(2, 5)}`;
export const uniqueEmail = (label: string): string => `${unique(label)}@example.com`;

async function operator(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${base()}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

async function operatorOk<T>(method: string, path: string, body?: unknown): Promise<T> {
  const { status, json } = await operator(method, path, body);
  expect(status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
  return json as T;
}

export interface Shop {
  id: number;
  code: string;
  name: string;
}

export async function createShop(name: string): Promise<Shop> {
  const shop = await operatorOk<Shop>('POST', '/admin/api/webshops', {
    name,
    url: `https://${unique('shop')}.example/`,
  });
  return { id: shop.id, code: shop.code, name };
}

/**
 * The unused link of each new user's welcome e-mail. Signing in with it rather than asking for a link keeps the run
 * well inside the service's limit of sign-in link requests per client address (all tests come from 127.0.0.1).
 */
const welcomeLinks = new Map<string, string>();

/** A user with a role in the shop, as the operator adds one (the service e-mails them a sign-in link). */
export async function addUser(shopId: number, email: string, role: Role): Promise<{ id: number }> {
  const seen = (await mailsTo(email)).length;
  const user = await operatorOk<{ id: number }>('POST', `/admin/api/webshops/${shopId}/users`, { email, role });
  welcomeLinks.set(email, await signInLinkAfter(email, seen));
  return user;
}

interface ReviewSeed {
  name?: string;
  /** The writer's address (a fresh one when left out). */
  email?: string;
  rating: number;
  comment?: string;
  ratings?: Record<string, number>;
  created?: Date;
  language?: string;
  read?: boolean;
  quarantine?: boolean;
}

export async function addReview(shopId: number, review: ReviewSeed): Promise<number> {
  const { created, ...rest } = review;
  const answer = await operatorOk<{ id: number }>('POST', `/admin/api/webshops/${shopId}/reviews`, {
    email: uniqueEmail('writer'),
    language: 'en',
    ...rest,
    ...(created ? { created: created.toISOString() } : {}),
  });
  return answer.id;
}

/** An invitation through the REST API, as a shop plugin adds one. */
async function addInvitation(
  shop: Shop,
  fields: { email: string; order: string; customer_name?: string; delay?: number },
): Promise<void> {
  const res = await fetch(`${base()}/api/1.0/invitations.json?id=${shop.id}&code=${encodeURIComponent(shop.code)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'e2e' },
    body: new URLSearchParams({ language: 'en', ...fields, delay: String(fields.delay ?? 0) }).toString(),
  });
  expect(((await res.json()) as { status: string }).status).toBe('success');
}

export async function invitationHistory(shopId: number, email: string): Promise<{ status: number; json: unknown }> {
  return operator('GET', `/admin/api/webshops/${shopId}/invitations?email=${encodeURIComponent(email)}`);
}

/** A shop whose pages all have something to show: reviews over the last twelve months, replies, invitations. */
export async function seedShop(name: string, reviews = 14): Promise<Shop> {
  const shop = await createShop(name);
  const now = Date.now();
  const comments = [
    'Quick delivery and the bike was set up perfectly.',
    'The bell was missing, but they sent it the next day.',
    'Friendly help on the phone when I could not choose a size.',
    'Parcel arrived a day late; otherwise fine.',
    'Great prices and a clear website.',
  ];
  for (let i = 0; i < reviews; i++) {
    await addReview(shop.id, {
      name: ['Anna Jansen', 'Piet', 'Maria de Vries', 'Kees', 'Jane Doe', 'Sam'][i % 6],
      rating: [5, 4, 5, 3, 2, 4, 5][i % 7]!,
      comment: comments[i % comments.length],
      ratings: { shippingtime: 3 + (i % 3), customerservice: 2 + (i % 4) },
      created: new Date(now - (i * 26 + 2) * 86_400_000),
      read: i > 3,
    });
  }
  await addInvitation(shop, { email: uniqueEmail('customer'), order: unique('ORDER'), customer_name: 'Els' });
  await addInvitation(shop, {
    email: uniqueEmail('customer'),
    order: unique('ORDER'),
    customer_name: 'Joost',
    delay: 5,
  });
  return shop;
}

interface CaughtMail {
  headers: Record<string, string>;
  messageId: string;
  body: string;
}

export async function mailsTo(address: string): Promise<CaughtMail[]> {
  const res = await fetch(`${process.env.E2E_MAILBOX}/?to=${encodeURIComponent(address)}`);
  return (await res.json()) as CaughtMail[];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The sign-in link of the newest e-mail to the address once there are more than `seen` e-mails to it. */
export async function signInLinkAfter(email: string, seen: number): Promise<string> {
  await expect
    .poll(async () => (await mailsTo(email)).length, { message: `a sign-in e-mail to ${email}`, timeout: 20_000 })
    .toBeGreaterThan(seen);
  const mails = await mailsTo(email);
  const body = mails.at(-1)!.body;
  const link = new RegExp(`${escapeRegExp(base())}/dashboard/sign-in/[\\w-]+`).exec(body)?.[0];
  expect(link, `a sign-in link in the e-mail to ${email}:\n${body}`).toBeDefined();
  return link!;
}

/**
 * Signs the browser context in as a user would, without the screens: asks for a link, takes it from the e-mail, and
 * sends the link page's form. The cookie lands in the context's jar, so the context's pages are signed in.
 */
export async function signInQuickly(context: BrowserContext, email: string): Promise<void> {
  let link = welcomeLinks.get(email);
  welcomeLinks.delete(email);
  if (!link) {
    const seen = (await mailsTo(email)).length;
    const asked = await context.request.post(`${base()}/dashboard/api/sign-in-link`, {
      data: { email },
      headers: { origin: base() },
    });
    expect(asked.status(), await asked.text()).toBe(202);
    link = await signInLinkAfter(email, seen);
  }
  // The link page's form, sent as the page would (the browser path itself is the sign-in test's).
  const linkPage = await context.request.get(link);
  expect(linkPage.status()).toBe(200);
  const token = /name="token" value="([^"]+)"/.exec(await linkPage.text())?.[1];
  expect(token, 'the link page carries the link in its form').toBeTruthy();
  const signedIn = await context.request.post(`${base()}/dashboard/sign-in`, {
    form: { token: token! },
    headers: { origin: base() },
    maxRedirects: 0,
  });
  expect(signedIn.status(), await signedIn.text()).toBe(303);
}

/** Signed-in browser states, one sign-in per address per worker (the per-client limit stays far away). */
const states = new Map<string, Awaited<ReturnType<BrowserContext['storageState']>>>();

/** A fresh context signed in as `email` (a new session the first time, the same one afterwards). */
export async function signedInContext(
  browser: Browser,
  email: string,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<BrowserContext> {
  let state = states.get(email);
  if (!state) {
    const context = await browser.newContext();
    await signInQuickly(context, email);
    state = await context.storageState();
    states.set(email, state);
    await context.close();
  }
  return browser.newContext({ ...options, storageState: state });
}

/** What the signed-in browser would send on a state-changing call: its CSRF token and its own origin. */
async function csrfHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const me = await request.get(`${base()}/dashboard/api/me`);
  expect(me.status(), await me.text()).toBe(200);
  const { csrf_token } = (await me.json()) as { csrf_token: string };
  return { 'x-csrf-token': csrf_token, origin: base() };
}

export async function dashboardApi(
  request: APIRequestContext,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  data?: unknown,
) {
  const headers = method === 'GET' ? {} : await csrfHeaders(request);
  const res = await request.fetch(`${base()}/dashboard/api${path}`, {
    method,
    headers,
    ...(data === undefined ? {} : { data }),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status(), json };
}

/** The user's own page (the account menu's "My sessions"), beside the shop's pages. */
const ACCOUNT_PAGE = { path: 'account', heading: 'My sessions' } as const;

/** Opens a page of the app (the overview is /dashboard/ itself) and waits until it shows its heading. */
export async function openPage(page: Page, name: PageName | 'account', shopId?: number): Promise<void> {
  const info = name === 'account' ? ACCOUNT_PAGE : PAGES.find((p) => p.path === name)!;
  const query = shopId === undefined ? '' : `?shop=${shopId}`;
  await page.goto(`${base()}/dashboard/${name === 'overview' ? '' : info.path}${query}`);
  await expect(page.getByRole('heading', { level: 1, name: info.heading })).toBeVisible();
}

/**
 * Presses Tab until the element has the focus (a keyboard user's way there), failing after `max` presses. Returns
 * how many presses it took.
 */
export async function tabTo(page: Page, target: Locator, { max = 80, back = false } = {}): Promise<number> {
  const focused = () =>
    target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false);
  if (await focused()) return 0;
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await focused()) return i;
  }
  throw new Error(`not reached with ${max} presses of Tab: ${target}`);
}

/** The page scrolls sideways: wider than the window (1.4.10 at 360 px, as the issue asks). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

const SHOTS = join('test-results', 'dashboard-screenshots');
/** The ones the README's "Merchant dashboard" section shows: every page once, a phone, the dark theme, two results. */
const FOR_README = new Set([
  'sign-in-light',
  'overview-light',
  'overview-dark',
  'reviews-light',
  'reviews-light-phone',
  'invitations-light',
  'invitations-csv',
  'widget-light',
  'integration-light',
  'integration-webhook-log',
  'team-light',
  'team-dark-phone',
  'account-light',
]);

/**
 * Saves a screenshot as a test artifact (test-results/dashboard-screenshots/: every page and state in both themes, on
 * a phone and a desktop); with UPDATE_DOCS_SCREENSHOTS=1 the ones the README shows also into docs/screenshots/.
 */
export async function screenshot(page: Page, name: string, { tall = false } = {}): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `dashboard-${name}.png`);
  // `tall`: a phone's first two screens, where one would show little more than the header and the filters.
  const size = page.viewportSize()!;
  const clip = tall
    ? {
        x: 0,
        y: 0,
        width: size.width,
        height: Math.min(size.height * 2, await page.evaluate(() => document.documentElement.scrollHeight)),
      }
    : undefined;
  await page.screenshot({ path, animations: 'disabled', fullPage: tall, clip });
  if (process.env.UPDATE_DOCS_SCREENSHOTS === '1' && FOR_README.has(name)) {
    mkdirSync(join('docs', 'screenshots'), { recursive: true });
    copyFileSync(path, join('docs', 'screenshots', `dashboard-${name}.png`));
  }
}

/** A webhook receiver for the tests of the enclosing describe block: started before them, closed after them. */
export function receiverForBlock(): () => Receiver {
  let receiver: Receiver | undefined;
  test.beforeAll(async () => {
    receiver = await startReceiver();
  });
  test.afterAll(async () => {
    await receiver?.close();
  });
  return () => receiver!;
}

/** A new shop whose new owner is signed in on its Integration page. */
export async function ownerOnIntegration(
  browser: Browser,
  shopName: string,
  label: string,
): Promise<{ shop: Shop; context: BrowserContext; page: Page }> {
  const shop = await createShop(shopName);
  const email = uniqueEmail(label);
  await addUser(shop.id, email, 'owner');
  const context = await signedInContext(browser, email);
  const page = await context.newPage();
  await openPage(page, 'integration');
  return { shop, context, page };
}
