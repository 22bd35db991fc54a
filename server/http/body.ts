// Request bodies: JSON, urlencoded (with PHP bracket arrays such as phone_numbers[0]=…) and multipart/form-data
// (fields only; files are drained and ignored). Every parser enforces a byte limit (413) and returns plain
// objects without a prototype, so keys such as __proto__ are inert data.
import busboy from 'busboy';
import type { Context } from 'koa';
import { HttpError } from './errors.js';

export type Fields = Record<string, unknown>;

export async function readRawBody(ctx: Context, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body too large (limit ${Math.round(limit / 1024)} KB).`);
}

/** Reads the body as form fields or JSON, depending on its Content-Type; an empty body gives {}. */
export async function readFields(ctx: Context, limit: number): Promise<Fields> {
  if (ctx.is('multipart/form-data')) return readMultipart(ctx, limit);
  const raw = await readRawBody(ctx, limit);
  if (raw.length === 0) return Object.create(null) as Fields;
  if (ctx.is('application/json', '+json')) return parseJsonObject(raw);
  return parseFormEncoded(raw.toString('utf8'));
}

export function parseJsonObject(raw: Buffer | string): Fields {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString());
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'The request body must be a JSON object.');
  }
  return value as Fields;
}

/** Parses `a=1&b[]=2&b[]=3&c[x]=4` the way PHP does (nested objects and arrays), into prototype-free objects. */
export function parseFormEncoded(text: string): Fields {
  const fields = Object.create(null) as Fields;
  for (const [key, value] of new URLSearchParams(text)) assignBracketed(fields, key, value);
  return fields;
}

export function assignBracketed(target: Fields, key: string, value: string): void {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match || !match[2]) {
    target[key] = value;
    return;
  }
  const path = [match[1]!, ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
  let node: Fields = target;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    const last = i === path.length - 1;
    if (last) {
      if (segment === '') {
        node[String(Object.keys(node).length)] = value;
      } else node[segment] = value;
      break;
    }
    const name = segment === '' ? String(Object.keys(node).length) : segment;
    const next = node[name];
    if (typeof next === 'object' && next !== null) node = next as Fields;
    else {
      const created = Object.create(null) as Fields;
      node[name] = created;
      node = created;
    }
  }
}

/** Turns `{ "0": a, "1": b }` objects (PHP arrays) into arrays; other values are returned as they are. */
export function asList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && value !== null) return Object.values(value);
  return undefined;
}

function readMultipart(ctx: Context, limit: number): Promise<Fields> {
  return new Promise((resolve, reject) => {
    const fields = Object.create(null) as Fields;
    let total = 0;
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      ctx.req.unpipe();
      ctx.req.resume();
      reject(err);
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: ctx.req.headers, limits: { fieldSize: limit, fields: 10_000, files: 0 } });
    } catch {
      reject(new HttpError(400, 'The multipart body has no boundary.'));
      return;
    }
    parser.on('field', (name, value, info) => {
      total += name.length + value.length;
      if (total > limit || info.valueTruncated) return fail(tooLarge(limit));
      assignBracketed(fields, name, value);
    });
    parser.on('file', (_name, stream) => stream.resume());
    parser.on('error', () => fail(new HttpError(400, 'The multipart body is malformed.')));
    parser.on('close', () => {
      if (!failed) resolve(fields);
    });
    // Field sizes are checked above; this bounds the raw stream too (boundaries, headers, ignored files).
    let received = 0;
    ctx.req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit + 64 * 1024) fail(tooLarge(limit));
    });
    ctx.req.pipe(parser);
  });
}
