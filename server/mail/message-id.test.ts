import { describe, expect, it } from 'vitest';
import { domainOf, messageIdFor } from './message-id.js';

describe('messageIdFor', () => {
  it('is the same for the same purpose, so a resent copy is recognisable', () => {
    const purpose = { kind: 'invitation', invitationId: '65f0c0ffee0000000000abcd' } as const;
    expect(messageIdFor(purpose, 'mail.example')).toBe(messageIdFor({ ...purpose }, 'mail.example'));
    expect(messageIdFor(purpose, 'Mail.Example')).toBe('<invitation.65f0c0ffee0000000000abcd@mail.example>');
  });

  it('differs by purpose and by reply revision', () => {
    const ids = [
      messageIdFor({ kind: 'invitation', invitationId: '12' }, 'x.example'),
      messageIdFor({ kind: 'edit', reviewId: 12 }, 'x.example'),
      messageIdFor({ kind: 'confirm', reviewId: 12 }, 'x.example'),
      messageIdFor({ kind: 'reply', reviewId: 12, revision: 1 }, 'x.example'),
      messageIdFor({ kind: 'reply', reviewId: 12, revision: 2 }, 'x.example'),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^<[A-Za-z0-9.]+@x\.example>$/);
  });
});

describe('domainOf', () => {
  it('takes the domain of a From address with or without a display name', () => {
    expect(domainOf('Reviews <noreply@Reviews.Example.com>')).toBe('reviews.example.com');
    expect(domainOf('noreply@shop.example')).toBe('shop.example');
    expect(domainOf('nonsense')).toBe('localhost');
  });
});
