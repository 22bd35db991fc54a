// The invitation flow end to end, as a shop and its customer meet it: the shop's back end adds an invitation
// with the order's products, the service e-mails it (caught by a real SMTP server, see e2e/server.ts), the
// customer follows the link and rates the shop and a product, and the product review reaches the shop through
// product_reviews.xml.
import { test, expect } from '@playwright/test';

const base = () => process.env.WIDGET_BASE!;
const auth = () => `id=${process.env.WIDGET_SHOP}&code=${process.env.WIDGET_CODE}`;

interface CaughtMail {
  headers: Record<string, string>;
  messageId: string;
  body: string;
}

async function mailsTo(address: string): Promise<CaughtMail[]> {
  const res = await fetch(`${process.env.E2E_MAILBOX}/?to=${encodeURIComponent(address)}`);
  return (await res.json()) as CaughtMail[];
}

test('an invitation e-mail caught by the SMTP server leads to a review in the product feed', async ({ page }) => {
  const stamp = Date.now();
  const email = `flow-${stamp}@example.com`;
  const order = `FLOW-${stamp}`;
  const product = {
    id: `bell-${stamp}`,
    name: 'Fietsbel Ding-dong',
    url: 'https://trapper.example/fietsbel',
    gtin: '8712345678906',
  };
  const added = await fetch(`${base()}/api/1.0/invitations.json?${auth()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      email,
      order,
      delay: '0',
      language: 'nl',
      customer_name: 'Els',
      order_data: JSON.stringify({ products: [product] }),
    }).toString(),
  });
  expect(await added.json()).toEqual({ status: 'success', message: 'Invitation successfully added to queue!' });

  // delay 0: sent within seconds, in Dutch, with the review link and a way to unsubscribe.
  await expect.poll(async () => (await mailsTo(email)).length, { timeout: 20_000 }).toBe(1);
  const [mail] = await mailsTo(email);
  expect(mail!.headers['list-unsubscribe']).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/unsubscribe\/[\w-]+>/);
  expect(mail!.body).toContain('Els');
  const link = new RegExp(`${base().replace(/[.:/]/g, '\\$&')}/review/[\\w-]+`).exec(mail!.body)?.[0];
  expect(link, 'review link in the e-mail').toBeDefined();

  await page.goto(link!);
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
  await page.locator('label[for="rating-5"]').click();
  await page.getByLabel('Je naam').fill('Els uit Delft');
  await page.locator('label[for="product_0_rating-4"]').click();
  await page.locator('#product_0_content').fill(`Klinkt helder, ${stamp}`);
  await page.getByRole('button', { name: 'Review plaatsen' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bedankt voor je review');

  // The shop's plugin syncs product reviews from the feed.
  const feed = await (await fetch(`${base()}/api/1.0/product_reviews.xml?${auth()}&detailed=1`)).text();
  expect(feed).toContain(`Klinkt helder, ${stamp}`);
  expect(feed).toContain(product.gtin);
  expect(feed).toContain(product.url);
  // The shop review is verified and public in ratings.json.
  const ratings = await (await fetch(`${base()}/api/1.0/ratings.json?${auth()}`)).json();
  expect(ratings.ratings[0]).toMatchObject({ name: 'Els uit Delft', email, rating: 5 });
});
