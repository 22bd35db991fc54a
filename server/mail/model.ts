// The mail feature's model, types only: what other features (and the start-up migrations) name without importing
// the queues and the database behind them.

/** The e-mails about a review (review-queue.ts): the edit link, the confirmation link, the shop's reply. */
export type ReviewMailKind = 'edit' | 'confirm' | 'reply';
