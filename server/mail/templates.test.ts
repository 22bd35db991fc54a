import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../languages.js';
import { MAIL_STRINGS } from './strings.js';
import { confirmMail, editMail, invitationMail, replyMail } from './templates.js';

const base = { shopName: 'Fiets & Co', brandName: 'Service', customerName: 'Jane' };
const links = { reviewUrl: 'https://r.example/review/tok', unsubscribeUrl: 'https://r.example/unsubscribe/uns' };

describe('invitationMail', () => {
  it.each(LANGUAGES)('speaks %s, names the shop and the customer, and carries both links', (language) => {
    const mail = invitationMail({ ...base, language, ...links });
    const s = MAIL_STRINGS[language];
    expect(mail.subject).toBe(s.inviteSubject.replace('{shop}', 'Fiets & Co'));
    expect(mail.text).toContain(s.helloName.replace('{name}', 'Jane'));
    expect(mail.text).toContain(links.reviewUrl);
    expect(mail.text).toContain(links.unsubscribeUrl);
    expect(mail.html).toContain(`<html lang="${language}">`);
    expect(mail.html).toContain('Fiets &#38; Co');
    expect(mail.html).toContain(`href="${links.reviewUrl}"`);
    expect(mail.html).toContain(`href="${links.unsubscribeUrl}"`);
  });

  it('greets without a name when the shop sent none', () => {
    const mail = invitationMail({ ...base, customerName: '', language: 'de', ...links });
    expect(mail.text.startsWith('Hallo,\n')).toBe(true);
  });

  it('escapes what shops and customers wrote, and keeps the subject on one line', () => {
    const mail = invitationMail({
      ...base,
      shopName: 'Evil<script>alert(1)</script>\r\nBcc: x@y',
      customerName: '<img src=x onerror=alert(1)>',
      language: 'en',
      ...links,
    });
    expect(mail.html).not.toMatch(/<script|<img/);
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });
});

describe('review e-mails', () => {
  it('link to the edit and confirmation pages', () => {
    expect(editMail({ ...base, language: 'nl', editUrl: 'https://r.example/edit/e1' }).html).toContain(
      'href="https://r.example/edit/e1"',
    );
    const confirm = confirmMail({ ...base, language: 'fr', confirmUrl: 'https://r.example/confirm/c1' });
    expect(confirm.text).toContain('https://r.example/confirm/c1');
    expect(confirm.text).toContain(MAIL_STRINGS.fr.confirmIgnore);
  });

  it('never greet edit and confirmation e-mails by the name the writer gave (their address may be anyone’s)', () => {
    // `base` carries a name: these templates take none, and must not find one either.
    for (const mail of [
      editMail({ ...base, language: 'en', editUrl: 'https://r.example/edit/e1' }),
      confirmMail({ ...base, language: 'en', confirmUrl: 'https://r.example/confirm/c1' }),
    ]) {
      expect(mail.text.startsWith('Hello,\n')).toBe(true);
      expect(mail.text + mail.html + mail.subject).not.toContain('Jane');
    }
  });

  it('quote the reply and the customer’s own words', () => {
    const mail = replyMail({ ...base, language: 'en', reply: 'Thanks!\nSee you', comment: 'Great <b>bike</b>' });
    expect(mail.subject).toBe('Fiets & Co replied to your review');
    expect(mail.text).toContain('> Thanks!\n> See you');
    expect(mail.html).toContain('Great &#60;b&#62;bike&#60;/b&#62;');
  });
});
