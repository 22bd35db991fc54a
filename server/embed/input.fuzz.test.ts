// Property tests of what the embed app may send (the order element's fields, consent and verify bodies): the
// schemas never throw, what they accept becomes well-formed order data, and its signature check never throws.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyOrderSignature } from '../consents/signature.js';
import { isValidEmail } from '../email.js';
import { fuzzOptions, textOf } from '../../test/fuzz.js';
import { INVITE_DELAY_MAX_DAYS } from '../../embed/shared/limits.js';
import { consentSchema, orderData, signedFields, verifySchema } from './input.js';

// Each field as shops print it, and as it should never be: wrong types, signs, blanks, lone surrogates, huge
// numbers. Mostly of the right type, so that bodies get past the schema often enough to test what follows it.
const junk = fc.oneof(fc.string(), fc.double(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 }));
const mostly = <T>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 6 }, { arbitrary: junk, weight: 1 });
const digits = fc.oneof(
  fc.nat().map(String),
  textOf(' -0123456789', 18),
  fc.constantFrom('0', '-0', ' 42 ', '999999999999999', '1e3'),
);
const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  textOf('\ud800\udc00 aé😀', 10),
  fc.string({ minLength: 190, maxLength: 330 }),
);
const order = fc.record(
  {
    webshopId: mostly(fc.oneof(fc.integer({ min: -5, max: 2 ** 53 + 2 }), digits)),
    orderNumber: mostly(fc.oneof(text, fc.nat(), fc.integer())),
    email: mostly(fc.oneof(fc.emailAddress(), text, fc.constant(null))),
    firstName: mostly(fc.oneof(text, fc.constant(null))),
    inviteDelay: mostly(fc.oneof(fc.integer({ min: -1000, max: 100_000 }), digits, fc.constantFrom('', null))),
  },
  { requiredKeys: ['webshopId', 'orderNumber'] },
);
const signature = mostly(fc.oneof(fc.stringMatching(/^[0-9a-fA-F]{128}$/), text, fc.constant('')));
const body = mostly(
  fc.record(
    {
      order: mostly(order),
      signature,
      choice: mostly(fc.constantFrom('write_now', 'ask_later')),
      language: mostly(fc.oneof(fc.constantFrom('nl', 'en-GB'), text)),
      textVersion: mostly(fc.oneof(fc.constantFrom('1', ' v2 '), text)),
    },
    { requiredKeys: ['order', 'choice', 'language', 'textVersion'] },
  ),
);

function expectOrderData(raw: Parameters<typeof orderData>[0]): void {
  const data = orderData(raw);
  // Not always positive (`-0`, `-5` pass the schema): the API then answers that the order is another shop's.
  expect(Number.isSafeInteger(data.webshopId)).toBe(true);
  expect(data.orderNumber).toBe(data.orderNumber.trim());
  expect(data.orderNumber.length).toBeLessThanOrEqual(200);
  expect(data.email === '' || isValidEmail(data.email)).toBe(true);
  expect(data.firstName.length).toBeLessThanOrEqual(100);
  expect(Number.isInteger(data.inviteDelay) && data.inviteDelay >= 0 && data.inviteDelay <= INVITE_DELAY_MAX_DAYS).toBe(
    true,
  );
}

describe('embed bodies', () => {
  it('consent: the schema never throws; what it accepts is well-formed order data whose signature check never throws', () => {
    fc.assert(
      fc.property(body, (input) => {
        const parsed = consentSchema.safeParse(input);
        if (!parsed.success) return;
        expectOrderData(parsed.data.order);
        if (parsed.data.signature) {
          expect(typeof verifyOrderSignature(signedFields(parsed.data.order), parsed.data.signature, 1, 'code')).toBe(
            'boolean',
          );
        }
      }),
      fuzzOptions(2000),
    );
  });

  it('verify: the same for the signed element check', () => {
    fc.assert(
      fc.property(body, (input) => {
        const parsed = verifySchema.safeParse(input);
        if (!parsed.success) return;
        expectOrderData(parsed.data.order);
        expect(typeof verifyOrderSignature(signedFields(parsed.data.order), parsed.data.signature, 1, 'code')).toBe(
          'boolean',
        );
      }),
      fuzzOptions(2000),
    );
  });
});
