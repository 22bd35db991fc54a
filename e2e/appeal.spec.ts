// A statement of reasons and a complaint, end to end (issue 21): a customer's review (through a real invitation
// e-mail) is reported and removed by the operator with a statement; the writer's e-mail, caught by the test SMTP
// server, carries the complaint link; the writer opens the complaint page in Chromium and files the complaint with
// the keyboard alone; the operator reverses the removal; the review is back and the writer is told by e-mail. The
// complaint page has no serious or critical axe-core violation, blank and with an error.
import { test, expect } from '@playwright/test';
import { expectAxeClean } from './a11y.js';

const base = () => process.env.WIDGET_BASE!;
const auth = () => `id=${process.env.WIDGET_SHOP}&code=${process.env.WIDGET_CODE}`;
const admin = (path: string, json?: unknown) =>
  fetch(`${base()}${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}`,
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });

interface CaughtMail {
  headers: Record<string, string>;
  body: string;
}

async function mailsTo(address: string): Promise<CaughtMail[]> {
  return (await (await fetch(`${process.env.E2E_MAILBOX}/?to=${encodeURIComponent(address)}`)).json()) as CaughtMail[];
}

async function openReports(): Promise<{ id: string; review_id: number; source: string }[]> {
  return (await (await admin('/admin/api/reports?status=open&limit=100')).json()).reports;
}

test('a writer contests a removal with the keyboard alone, and the reversed removal restores the review', async ({
  page,
}) => {
  const stamp = Date.now();
  const email = `appeal-${stamp}@example.com`;
  const comment = `The bell rattled, and the staff ignored my e-mails for weeks (${stamp}).`;

  // The customer's review, through the invitation the shop added.
  const added = await fetch(`${base()}/api/1.0/invitations.json?${auth()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, order: `APPEAL-${stamp}`, delay: '0', language: 'en' }).toString(),
  });
  expect((await added.json()).status).toBe('success');
  await expect.poll(async () => (await mailsTo(email)).length, { timeout: 60_000 }).toBe(1);
  const reviewLink = /http:\/\/[^\s]+\/review\/[\w-]+/.exec((await mailsTo(email))[0]!.body)![0];
  const written = await fetch(reviewLink, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ rating: '1', name: 'Ruth', comment }).toString(),
  });
  expect(written.status).toBe(200);
  const ratings = await (await fetch(`${base()}/api/1.0/ratings.json?${auth()}&limit=100`)).json();
  const reviewId = (ratings.ratings as { id: number; email: string }[]).find((r) => r.email === email)!.id;

  // Someone reports it; the operator removes it with a statement of reasons.
  const form = await (await fetch(`${base()}/reviews/${reviewId}/report`)).text();
  const token = /name="token" value="([^"]+)"/.exec(form)![1]!;
  const reported = await fetch(`${base()}/reviews/${reviewId}/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ground: 'offensive', text: 'Rude', token }).toString(),
  });
  expect(reported.status).toBe(200);
  const report = (await openReports()).find((r) => r.review_id === reviewId)!;
  const statement = 'We read the review as accusing named staff.';
  expect(
    (await admin(`/admin/api/reports/${report.id}/decision`, { action: 'remove', ground: 'offensive', statement }))
      .status,
  ).toBe(200);

  await expect.poll(async () => (await mailsTo(email)).length, { timeout: 60_000 }).toBe(2);
  const removal = (await mailsTo(email))[1]!;
  expect(removal.body).toContain(statement);
  expect(removal.body).toContain('A person decided this, not an automatic system.');
  const appealLink = /http:\/\/[^\s]+\/appeal\/[\w-]+/.exec(removal.body)![0];

  await page.goto(appealLink);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contest a decision');
  await expectAxeClean(page, 'page', 'complaint page');
  // In the dark scheme, and in another of the seven languages (opening the page changes nothing).
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAxeClean(page, 'page', 'complaint page, dark');
  await page.goto(`${appealLink}?lang=hr`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'hr');
  await expectAxeClean(page, 'page', 'complaint page, Croatian, dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(appealLink);

  // Blank text (spaces pass the browser's `required`): the server's error, announced and linked to the field.
  let focusedName = '';
  for (let i = 0; i < 20 && focusedName !== 'text'; i++) {
    await page.keyboard.press('Tab');
    focusedName = await page.evaluate(() => (document.activeElement as HTMLTextAreaElement | null)?.name ?? '');
  }
  expect(focusedName, 'Tab reaches the complaint text').toBe('text');
  await page.keyboard.type('   ');
  await page.keyboard.press('Tab');
  await expect(page.locator('button:focus')).toHaveText('Send complaint');
  await page.keyboard.press('Enter');
  await expect(page.locator('.errors')).toBeVisible();
  await expectAxeClean(page, 'page', 'complaint page with an error');

  // The error summary’s link leads to the field: reached with Tab on the page the server answered with.
  let onLink = false;
  for (let i = 0; i < 20 && !onLink; i++) {
    await page.keyboard.press('Tab');
    onLink = await page.evaluate(() => document.activeElement?.closest('.errors') !== null);
  }
  expect(onLink, 'Tab reaches the error summary’s link').toBe(true);
  await page.keyboard.press('Enter');
  await expect(page.locator('textarea:focus')).toHaveCount(1);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('I named nobody; the staff did ignore my e-mails.');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your complaint was received');

  const complaint = (await openReports()).find((r) => r.review_id === reviewId && r.source === 'appeal')!;
  expect((await admin(`/admin/api/reports/${complaint.id}/decision`, { action: 'reverse' })).status).toBe(200);
  await expect.poll(async () => (await mailsTo(email)).length, { timeout: 60_000 }).toBe(3);
  expect((await mailsTo(email))[2]!.body).toContain('reversed it');

  const shopPage = await (await fetch(`${base()}/webshops/${process.env.WIDGET_SHOP}?lang=en`)).text();
  expect(shopPage).toContain(`(${stamp})`);
});
