// Property tests of the browser's parser of the order-data element: any text gives a usable order or nothing
// (never an exception), orders in every shape plugins print read back as printed, and long text takes linear time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastestMs, fuzzOptions, repeated, textOf } from '../../test/fuzz.js';
import { parseOrderData, type ParsedOrder } from './order.js';

/** For about 1 MB of text: tens of ms when linear; the margin is for a machine busy with other work. */
const LINEAR_MS = 1000;

function expectUsable(parsed: ParsedOrder | undefined): void {
  if (!parsed) return;
  expect(Number.isSafeInteger(parsed.shopId) && parsed.shopId > 0).toBe(true);
  expect(parsed.orderNumber.length).toBeGreaterThan(0);
  expect(parsed.orderNumber.length).toBeLessThanOrEqual(200);
  expect(Number.isInteger(parsed.inviteDelay) && parsed.inviteDelay >= 0 && parsed.inviteDelay <= 365).toBe(true);
  if (parsed.signature !== undefined) expect(parsed.signature).toMatch(/^[0-9a-f]{128}$/);
}

// The ways a template or plugin prints the JSON: as it is, pretty, entity-escaped (named, decimal, hex), twice
// escaped, wrapped in CDATA or a comment.
const escapeNamed = (t: string) =>
  t.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const shapes: ((json: string) => string)[] = [
  (j) => j,
  (j) => JSON.stringify(JSON.parse(j), null, 2),
  escapeNamed,
  (j) => j.replace(/"/g, '&#34;'),
  (j) => j.replace(/"/g, '&#x22;'),
  (j) => escapeNamed(escapeNamed(j)),
  (j) => `<![CDATA[${j}]]>`,
  (j) => `<!--${j}-->`,
];

const order = fc.record(
  {
    webshopId: fc.oneof(fc.integer({ min: 1, max: 2 ** 53 - 1 }), fc.integer({ min: 1, max: 1e9 }).map(String)),
    orderNumber: fc.oneof(
      fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== ''),
      fc.nat(),
    ),
    email: fc.oneof(fc.emailAddress(), fc.constantFrom('', null)),
    firstName: fc.oneof(fc.string({ maxLength: 40 }), fc.constant(null)),
    inviteDelay: fc.oneof(
      fc.integer({ min: 0, max: 1000 }),
      fc.integer({ min: 0, max: 1000 }).map(String),
      fc.constant(''),
    ),
    signature: fc.oneof(fc.stringMatching(/^[0-9a-f]{128}$/), fc.constant('')),
  },
  { requiredKeys: ['webshopId', 'orderNumber'] },
);

describe('the order-data element', () => {
  it('any text gives a usable order or none, never an exception', () => {
    fc.assert(
      fc.property(fc.oneof(textOf('{}[]":,&#;x0123456789abcdefglmopqtu<>!-', 120), fc.string()), (text) =>
        expectUsable(parseOrderData(text)),
      ),
      fuzzOptions(2000),
    );
  });

  it('reads an order back in every shape plugins print it', () => {
    fc.assert(
      fc.property(order, fc.nat(shapes.length - 1), (fields, shape) => {
        const parsed = parseOrderData(shapes[shape]!(JSON.stringify(fields)));
        // Where the printing leaves a value's own `&` unescaped (quotes only, or escaped twice), a value holding
        // an entity decodes one round more than printed: the page is ambiguous, so only usability is checked.
        const ambiguous =
          shape >= 3 && shape <= 5 && Object.values(fields).some((v) => typeof v === 'string' && v.includes('&'));
        if (ambiguous) return expectUsable(parsed);
        expect(parsed?.shopId).toBe(Number(fields.webshopId));
        expect(parsed?.orderNumber).toBe(String(fields.orderNumber).trim());
        const { signature, ...printed } = fields;
        expect(parsed?.order).toEqual(printed);
        expect(parsed?.signature).toBe(signature || undefined);
        expectUsable(parsed);
      }),
      fuzzOptions(1000),
    );
  });

  it('takes linear time on 1 MB of repeated pattern', async () => {
    await fc.assert(
      fc.asyncProperty(repeated('{}[]":,&#;x0123amp<!-', 1024 * 1024), async (text) => {
        let parsed: ParsedOrder | undefined;
        const ms = await fastestMs(() => (parsed = parseOrderData(text)), LINEAR_MS);
        expect(ms, JSON.stringify(text.slice(0, 40))).toBeLessThan(LINEAR_MS);
        expectUsable(parsed);
      }),
      fuzzOptions(15),
    );
  });
});
