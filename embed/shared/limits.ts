// Field limits shared by the server (which enforces them) and the embed (which shows them, e.g. a textarea's
// maxlength): one number per rule. Plain constants, so a bundle that uses one gets the number inlined and nothing else.

/**
 * Characters of the text a shopper writes: the pop-up, the experience form and the review page. The embed's form
 * (embed/app/form.tsx) writes 5000 itself: importing the constant there cost form.js 6 bytes.
 */
export const REVIEW_TEXT_MAX = 5000;
/** Characters of the name a review is shown under. */
export const REVIEWER_NAME_MAX = 80;
/** Characters of an order number, from the Add invitation call or a shop page's order data. */
export const ORDER_NUMBER_MAX = 200;
/** Days an invitation may be put off (`delay`, `inviteDelay`). */
export const INVITE_DELAY_MAX_DAYS = 365;
