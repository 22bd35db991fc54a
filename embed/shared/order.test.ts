// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { decodeEntities, parseOrderData } from './order.js';

// The compatibility contract's test vector (the signature is checked on the server; here it must pass through).
const SIGNATURE =
  '6a1682a2b6f2592e08759e400869e93c2e763cf0516d0db6de79fef63ea2388ac36dccb1892d09bb762a7d387ed1baa06dc3c9bfc31ddea731b15b2b76ffc38a';
const FIELDS = { webshopId: 1234, orderNumber: '1001', email: 'jane@example.com', firstName: 'Jane', inviteDelay: 3 };

/** Puts the element on the page as a plugin prints it, and reads it back the way the embed does. */
function fromPage(html: string) {
  document.body.innerHTML = html;
  return parseOrderData(document.getElementById('service_order_completed')!.textContent ?? '');
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

describe('the order-data element in every shape plugins print', () => {
  const expected = { order: FIELDS, shopId: 1234, orderNumber: '1001', inviteDelay: 3 };

  it('typed, pretty-printed', () => {
    const json = JSON.stringify(FIELDS, null, 2);
    expect(fromPage(`<script type="application/json" id="service_order_completed">\n${json}\n</script>`)).toEqual(
      expected,
    );
  });

  it('untyped, minified', () => {
    expect(fromPage(`<script id="service_order_completed">${JSON.stringify(FIELDS)}</script>`)).toEqual(expected);
  });

  it('HTML-entity-escaped inside the element (named and numeric entities)', () => {
    const named = escapeHtml(JSON.stringify(FIELDS));
    expect(named).toContain('{&quot;webshopId&quot;');
    expect(fromPage(`<script type="application/json" id="service_order_completed">${named}</script>`)).toEqual(
      expected,
    );
    const numeric = JSON.stringify(FIELDS).replace(/"/g, '&#34;');
    expect(fromPage(`<script id="service_order_completed">${numeric}</script>`)).toEqual(expected);
    const hex = JSON.stringify(FIELDS).replace(/"/g, '&#x22;');
    expect(fromPage(`<script id="service_order_completed">${hex}</script>`)).toEqual(expected);
  });

  it('escaped twice', () => {
    const twice = escapeHtml(escapeHtml(JSON.stringify(FIELDS)));
    expect(fromPage(`<script id="service_order_completed">${twice}</script>`)).toEqual(expected);
  });

  it('numbers as strings, passed on as printed (the signature covers them as text)', () => {
    const asStrings = { webshopId: '1234', orderNumber: '1001', inviteDelay: '3' };
    expect(
      fromPage(`<script type="application/json" id="service_order_completed">${JSON.stringify(asStrings)}</script>`),
    ).toEqual({
      order: asStrings,
      shopId: 1234,
      orderNumber: '1001',
      inviteDelay: 3,
    });
  });

  it('an order number given as a number, and one with leading zeros kept exactly', () => {
    expect(parseOrderData('{"webshopId":1,"orderNumber":1001}')).toMatchObject({
      orderNumber: '1001',
      order: { orderNumber: 1001 },
    });
    expect(parseOrderData('{"webshopId":1,"orderNumber":"000123"}')).toMatchObject({ orderNumber: '000123' });
  });

  it('with a signature (lowercased), and without one', () => {
    const signed = fromPage(
      `<script type="application/json" id="service_order_completed">${JSON.stringify({ ...FIELDS, signature: SIGNATURE.toUpperCase() })}</script>`,
    );
    expect(signed).toEqual({ ...expected, signature: SIGNATURE });
    expect(parseOrderData(JSON.stringify({ ...FIELDS, signature: '' }))).toEqual(expected);
  });

  it('inviteDelay defaults to 5; empty and null optional fields pass through as printed', () => {
    expect(parseOrderData('{"webshopId":7,"orderNumber":"A1"}')).toEqual({
      order: { webshopId: 7, orderNumber: 'A1' },
      shopId: 7,
      orderNumber: 'A1',
      inviteDelay: 5,
    });
    expect(
      parseOrderData('{"webshopId":7,"orderNumber":"A1","email":"","firstName":null,"inviteDelay":""}')?.order,
    ).toEqual({
      webshopId: 7,
      orderNumber: 'A1',
      email: '',
      firstName: null,
      inviteDelay: '',
    });
  });

  it('refuses what cannot be used', () => {
    for (const bad of [
      '',
      'not json',
      '[1,2]',
      '{"orderNumber":"1"}',
      '{"webshopId":1}',
      '{"webshopId":1,"orderNumber":"  "}',
      '{"webshopId":"12a","orderNumber":"1"}',
      '{"webshopId":1,"orderNumber":"1","email":42}',
      '{"webshopId":1,"orderNumber":"1","inviteDelay":"soon"}',
      '{"webshopId":1,"orderNumber":"1","signature":"abc"}',
    ]) {
      expect(parseOrderData(bad), bad).toBeUndefined();
    }
  });

  it('decodes entities as text, never as markup', () => {
    const hostile = escapeHtml(
      JSON.stringify({ webshopId: 1, orderNumber: '1', firstName: '<img src=x onerror="alert(1)">' }),
    );
    const parsed = fromPage(`<script id="service_order_completed">${hostile}</script>`);
    expect(parsed?.order.firstName).toBe('<img src=x onerror="alert(1)">');
    expect(document.querySelectorAll('img')).toHaveLength(0);
    expect(decodeEntities('&lt;b&gt; &amp;amp; &#x1F600; &unknown; &#0;')).toBe('<b> &amp; 😀 &unknown; &#0;');
  });
});
