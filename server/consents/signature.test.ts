import { describe, expect, it } from 'vitest';
import { orderSignature, phpUrlencode, signedQuery, verifyOrderSignature } from './signature.js';

const fields = { webshopId: 1234, orderNumber: '1001', email: 'jane@example.com', firstName: 'Jane', inviteDelay: 3 };
const expected =
  '6a1682a2b6f2592e08759e400869e93c2e763cf0516d0db6de79fef63ea2388ac36dccb1892d09bb762a7d387ed1baa06dc3c9bfc31ddea731b15b2b76ffc38a';

describe('order-data signature', () => {
  it('matches the compatibility contract test vector', () => {
    expect(signedQuery(fields)).toBe(
      'webshopId=1234&orderNumber=1001&email=jane%40example.com&firstName=Jane&inviteDelay=3',
    );
    expect(orderSignature(fields, 1234, 'abc.def123')).toBe(expected);
    expect(verifyOrderSignature(fields, expected, 1234, 'abc.def123')).toBe(true);
  });

  it('fails for a changed field or another code', () => {
    expect(verifyOrderSignature({ ...fields, inviteDelay: 4 }, expected, 1234, 'abc.def123')).toBe(false);
    expect(verifyOrderSignature(fields, expected, 1234, 'other')).toBe(false);
  });

  it('encodes like PHP and leaves out null fields', () => {
    expect(phpUrlencode("Jan Piet ~!*'()")).toBe('Jan+Piet+%7E%21%2A%27%28%29');
    expect(signedQuery({ webshopId: '1', orderNumber: 'A 1', email: null, firstName: 'Zoë' })).toBe(
      'webshopId=1&orderNumber=A+1&firstName=Zo%C3%AB',
    );
  });
});
