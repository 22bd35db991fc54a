// Every e-mail's Message-ID is derived from what it is for (and, for replies, which revision), never random:
// when a crash makes the service send a message a second time, the copy carries the same Message-ID, so mail
// servers and clients can recognise it (many drop it) and so can we when counting.

export type MailPurpose =
  | { kind: 'invitation'; invitationId: string }
  | { kind: 'reminder'; invitationId: string }
  | { kind: 'edit'; reviewId: number }
  | { kind: 'confirm'; reviewId: number }
  | { kind: 'reply'; reviewId: number; revision: number };

/** `<invitation.65f0c…@reviews.example.com>`, `<review.12.reply.3@…>`: no secrets, only ids the database holds. */
export function messageIdFor(purpose: MailPurpose, domain: string): string {
  const host = domain.toLowerCase();
  switch (purpose.kind) {
    case 'invitation':
      return `<invitation.${purpose.invitationId}@${host}>`;
    case 'reminder':
      return `<invitation.${purpose.invitationId}.reminder@${host}>`;
    case 'edit':
      return `<review.${purpose.reviewId}.edit@${host}>`;
    case 'confirm':
      return `<review.${purpose.reviewId}.confirm@${host}>`;
    case 'reply':
      return `<review.${purpose.reviewId}.reply.${purpose.revision}@${host}>`;
  }
}

/** The domain part of a From address (`Shop Reviews <noreply@reviews.example.com>`), or `localhost`. */
export function domainOf(address: string): string {
  const m = /@([A-Za-z0-9.-]+)>?\s*$/.exec(address.trim());
  return m ? m[1]!.toLowerCase() : 'localhost';
}
