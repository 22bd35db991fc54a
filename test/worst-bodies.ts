// The most expensive request bodies of each kind within a byte limit, for the body-parser benchmark and the test
// that /healthz stays quick while they are posted. Each is the worst case of one way a parser could spend more than
// linear time: many fields, deep nesting, keys of one huge field, escapes, and the same past the caps.
import { BODY_CAPS } from '../server/http/body.js';
import { PRODUCT_ENTRIES } from '../server/invitations/order-data.js';
import { multipartBody } from './request-context.js';

export type BodyKind = 'urlencoded' | 'json' | 'multipart' | 'order_data';

interface WorstBody {
  kind: BodyKind;
  name: string;
  body: Buffer;
  contentType: string;
  /** Whether the parsers accept it (false: refused with 413 by a cap). */
  accepted: boolean;
}

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/** `a[][]…` with the deepest nesting the cap allows: the body is one level, the name and each `[]` but the last one more. */
const deepestKey = (name: string) => `${name}${'[]'.repeat(BODY_CAPS.depth - 1)}`;

/** Bodies of at most `size` bytes (4 MB: the Add invitation limit). */
export function worstBodies(size = 4 * 1024 * 1024): WorstBody[] {
  const n = BODY_CAPS.fields;
  const pad = (used: number, count: number) => 'x'.repeat(Math.max(0, Math.floor((size - used) / count) - 8));
  const formFields = (count: number, key: (i: number) => string) => {
    const keys = Array.from({ length: count }, (_, i) => key(i));
    const value = pad(keys.join('==&').length, count);
    return keys.map((k) => `${k}=${value}`).join('&');
  };
  const parts = (count: number, key: (i: number) => string) => {
    const overhead = multipartBody(Array.from({ length: count }, (_, i) => [key(i), ''])).body.length;
    const value = pad(overhead, count);
    return multipartBody(Array.from({ length: count }, (_, i) => [key(i), value]));
  };
  const form = (name: string, text: string, accepted: boolean): WorstBody => ({
    kind: 'urlencoded',
    name,
    body: Buffer.from(text),
    contentType: FORM,
    accepted,
  });
  const json = (name: string, text: string, accepted: boolean): WorstBody => ({
    kind: 'json',
    name,
    body: Buffer.from(text),
    contentType: JSON_TYPE,
    accepted,
  });
  const multipart = (name: string, { body, type }: { body: Buffer; type: string }, accepted: boolean): WorstBody => ({
    kind: 'multipart',
    name,
    body,
    contentType: type,
    accepted,
  });
  // With an address, so that Add invitation goes on to read order_data.
  const orderData = (name: string, jsonText: string): WorstBody => ({
    kind: 'order_data',
    name,
    body: Buffer.from(`email=flood%40example.com&order_data=${jsonText}`),
    contentType: FORM,
    accepted: true,
  });
  const half = Math.floor(size / 2) - 16;
  /** A JSON object of `count` distinct keys, padded with one long value to about `total` characters. */
  const distinctKeys = (count: number, total = size) => {
    const keys = Array.from({ length: count }, (_, i) => `"k${i}":""`).join(',');
    return `{${keys},"pad":"${'x'.repeat(Math.max(0, total - keys.length - 24))}"}`;
  };

  // The deepest keys make depth - 2 objects each (and one shared at the top), and count one value.
  const deepFields = Math.floor((n - 1) / (BODY_CAPS.depth - 1));

  return [
    form(
      `${n - 1} fields appended with [] (and their list)`,
      formFields(n - 1, () => 'a[]'),
      true,
    ),
    form(
      `${n} distinct fields`,
      formFields(n, (i) => `f${i}`),
      true,
    ),
    form(
      `${deepFields} fields nested ${BODY_CAPS.depth} levels`,
      formFields(deepFields, () => deepestKey('a')),
      true,
    ),
    form(
      `${n} fields nested ${BODY_CAPS.depth} levels (past the field cap)`,
      formFields(n, () => deepestKey('a')),
      false,
    ),
    form('4 MB of empty [] fields (past the field cap)', 'a[]=&'.repeat(Math.floor(size / 5)), false),
    form('4 MB of separators and bare names', 'a&'.repeat(half), false),
    form('one key nested 2 million levels', `a${'[]'.repeat(half)}=1`, false),
    form('one key of unclosed brackets', `a${'[b'.repeat(half)}=1`, true),

    json(`${n - 1} distinct keys`, distinctKeys(n - 1), true),
    json('a string of 2 million escapes', `{"a":"${'\\"'.repeat(half - 4)}"}`, true),
    json('nested 2 million levels', `{"a":${'['.repeat(half - 4)}${']'.repeat(half - 4)}}`, false),
    json('an array of 2 million values', `{"a":[${'0,'.repeat(half - 4)}0]}`, false),
    json('an object of 300,000 keys', distinctKeys(Math.floor(size / 14)), false),

    multipart(
      `${n - 1} fields appended with [] (and their list)`,
      parts(n - 1, () => 'a[]'),
      true,
    ),
    multipart(
      `${deepFields} fields nested ${BODY_CAPS.depth} levels`,
      parts(deepFields, () => deepestKey('a')),
      true,
    ),
    multipart(
      `${n} fields nested ${BODY_CAPS.depth} levels (past the field cap)`,
      parts(n, () => deepestKey('a')),
      false,
    ),
    multipart(
      '4 MB of empty parts (past the field cap)',
      multipartBody(Array.from({ length: Math.floor(size / 60) }, () => ['a[]', ''])),
      false,
    ),
    multipart('4 MB of empty file parts', fileParts(size), false),

    orderData('nested 2 million levels', `{"products":${'['.repeat(half - 16)}${']'.repeat(half - 16)}}`),
    orderData('products: an array of 2 million values', `{"products":[${'0,'.repeat(half - 16)}0]}`),
    orderData('4 MB of small objects beside one product', smallObjects(size - 128)),
    orderData(
      `products: ${PRODUCT_ENTRIES} entries of distinct keys, up to the values cap`,
      distinctProducts(size - 64),
    ),
  ];
}

/** What only a JSON.parse of everything pays for: 300,000 small objects, and the product a plugin would send. */
function smallObjects(size: number): string {
  const product = '{"id":"1","name":"Product"}';
  const count = Math.floor((size - product.length - 32) / 11);
  return `{"extras":[${Array.from({ length: count }, (_, i) => `{"k":${i % 1000}}`).join(',')}],"products":[${product}]}`;
}

/** Products entries with distinct keys (the slowest for JSON.parse), as many as are read, padded with one name. */
function distinctProducts(size: number): string {
  const perEntry = Math.floor(BODY_CAPS.fields / PRODUCT_ENTRIES) - 2;
  const entries = Array.from({ length: PRODUCT_ENTRIES }, (_, e) => {
    const keys = Array.from({ length: perEntry }, (_, k) => `"k${e}_${k}":0`).join(',');
    return `{"id":"${e}","name":"P",${keys}}`;
  }).join(',');
  return `{"products":[${entries}],"pad":"${'x'.repeat(Math.max(0, size - entries.length - 32))}"}`;
}

function fileParts(size: number): { body: Buffer; type: string } {
  const boundary = 'b0undary';
  const part = `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="f"\r\n\r\n\r\n`;
  return {
    body: Buffer.from(`${part.repeat(Math.floor((size - 20) / part.length))}--${boundary}--\r\n`),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}
