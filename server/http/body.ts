// Request bodies: JSON, urlencoded (with PHP bracket arrays such as phone_numbers[0]=…) and multipart/form-data
// (fields only; files are drained and ignored). Every parser enforces a byte limit and caps on the number of fields
// and on nesting depth (413 past any of them), does work linear in the body's size, and returns plain objects
// without a prototype, so keys such as __proto__ are inert data.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import busboy from 'busboy';
import type { Context } from 'koa';
import { HttpError } from './errors.js';

export type Fields = Record<string, unknown>;

/**
 * What one body may hold, whatever its size in bytes. `fields`: values (form fields, multipart parts, JSON values)
 * and the objects and arrays holding them, together. `depth`: levels of objects and arrays, the body itself being
 * the first (`a[b]=1` has two).
 */
export const BODY_CAPS = { fields: 10_000, depth: 32 } as const;

type CapExceeded = 'fields' | 'depth';

function overCap(cap: CapExceeded): HttpError {
  return cap === 'fields'
    ? new HttpError(
        413,
        `The request body has more than ${BODY_CAPS.fields} fields (values and nested objects together).`,
      )
    : new HttpError(413, `The request body is nested more than ${BODY_CAPS.depth} levels deep.`);
}

/**
 * What one parse did, counted, so that tests hold the parsers to their bounds without a clock: the bytes taken from
 * the request, the turns handed back to the event loop, and the most body bytes (characters, for JSON text) the
 * parser's own loops went through between two such turns. The native steps between turns (UTF-8 decoding,
 * JSON.parse of text already within the caps) are one step each and not counted.
 */
export class ParseWork {
  bytesRead = 0;
  yields = 0;
  longestStretch = 0;
  private stretch = 0;

  read(bytes: number): void {
    this.bytesRead += bytes;
  }

  worked(bytes: number): void {
    this.stretch += bytes;
    this.longestStretch = Math.max(this.longestStretch, this.stretch);
  }

  yielded(): void {
    this.yields++;
    this.stretch = 0;
  }
}

/** Lets other requests run before the parse goes on. */
async function handBack(work: ParseWork | undefined): Promise<void> {
  await yieldToLoop();
  work?.yielded();
}

export async function readRawBody(ctx: Context, limit: number, work?: ParseWork): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    work?.read((chunk as Buffer).length);
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body too large (limit ${Math.round(limit / 1024)} KB).`);
}

/**
 * Reads the body as form fields or JSON, depending on its Content-Type; an empty body gives {}. The work on a
 * large body is done in slices of at most SLICE_BYTES, with other requests served in between: a 4 MB body is tens
 * of ms of work. `work`, when given, counts what the parse did.
 */
export async function readFields(ctx: Context, limit: number, work?: ParseWork): Promise<Fields> {
  if (ctx.is('multipart/form-data')) return readMultipart(ctx, limit, work);
  const raw = await readRawBody(ctx, limit, work);
  if (raw.length === 0) return Object.create(null) as Fields;
  if (ctx.is('application/json', '+json')) return readJsonObject(raw, work);
  const form = new FormDecoder(raw);
  for (let end = SLICE_BYTES; end < raw.length; end += SLICE_BYTES) {
    const from = form.position;
    form.decodeTo(end);
    work?.worked(form.position - from);
    await handBack(work);
  }
  work?.worked(raw.length - form.position);
  return form.finish();
}

/** What one slice of a body's parsing covers at most: a few ms of work. */
export const SLICE_BYTES = 256 * 1024;

export function parseJsonObject(raw: Buffer | string): Fields {
  const text = raw.toString();
  refuseOverCaps(text);
  return jsonObject(text);
}

/** parseJsonObject, letting other requests run between decoding, each slice of the cap scan, and JSON.parse. */
async function readJsonObject(raw: Buffer, work: ParseWork | undefined): Promise<Fields> {
  const text = raw.toString();
  await handBack(work);
  const scan = new JsonCapScan(text);
  for (let end = SLICE_BYTES; ; end += SLICE_BYTES) {
    const from = scan.position;
    const cap = scan.scanTo(end);
    if (cap) throw overCap(cap);
    work?.worked(scan.position - from);
    await handBack(work);
    if (end >= text.length) break;
  }
  return jsonObject(text);
}

/** JSON.parse is fast, but not on millions of values or levels (seconds for 4 MB): those never reach it. */
function refuseOverCaps(text: string): void {
  const cap = jsonOverCaps(text);
  if (cap) throw overCap(cap);
}

function jsonObject(text: string): Fields {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'The request body must be a JSON object.');
  }
  return value as Fields;
}

const [QUOTE, BACKSLASH, COMMA] = [0x22, 0x5c, 0x2c];
const [AMPERSAND, EQUALS, PLUS, PERCENT, SPACE] = [0x26, 0x3d, 0x2b, 0x25, 0x20];
const [OPEN_OBJECT, OPEN_ARRAY, CLOSE_OBJECT, CLOSE_ARRAY] = [0x7b, 0x5b, 0x7d, 0x5d];

/**
 * Which cap JSON text goes past, if any, in one pass that stops there; invalid JSON is left to JSON.parse. Every
 * object or array counts one field for its first value and one per comma after it, so this bounds the values.
 */
export function jsonOverCaps(text: string): CapExceeded | undefined {
  return new JsonCapScan(text).scanTo(text.length);
}

/** The scan of jsonOverCaps, resumable, so that a large body is checked in slices (a string may span several). */
class JsonCapScan {
  private depth = 0;
  private fields = 0;
  private inString = false;
  private at = 0;

  constructor(private readonly text: string) {}

  /** Where the scan is: the characters before it were checked. */
  get position(): number {
    return this.at;
  }

  /** Scans the characters before `end` (an escape that straddles it is read whole). */
  scanTo(end: number): CapExceeded | undefined {
    const { text } = this;
    const stop = Math.min(end, text.length);
    let { depth, fields, inString } = this;
    let i = this.at;
    for (; i < stop; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (c === BACKSLASH) i++;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (++depth > BODY_CAPS.depth) return 'depth';
        if (++fields > BODY_CAPS.fields) return 'fields';
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
      else if (c === COMMA && ++fields > BODY_CAPS.fields) return 'fields';
    }
    Object.assign(this, { depth, fields, inString, at: Math.min(i, text.length) });
    return undefined;
  }
}

/** The index of the quote closing the JSON string that opens at `start`, or the end of the text. */
export function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
  }
  return text.length;
}

/**
 * Parses `a=1&b[]=2&b[]=3&c[x]=4` the way PHP does (nested objects and arrays), into prototype-free objects.
 * Names and values are decoded as URLSearchParams decodes them (`+` is a space, `%XX` a byte, then UTF-8), but in
 * one pass over the bytes: URLSearchParams and String#replace spend about a second on 4 MB of `a+a+…`.
 */
export function parseFormEncoded(body: Buffer | string): Fields {
  return new FormDecoder(typeof body === 'string' ? Buffer.from(body) : body).finish();
}

/** The urlencoded parser of parseFormEncoded, resumable, so that a large body can be decoded in slices. */
class FormDecoder {
  private readonly form = new FormFields();
  /** The name or value being decoded; decoding never makes it longer than the body. */
  private readonly decoded: Buffer;
  private length = 0;
  private at = 0;
  private pairs = 0;
  private inPair = false;
  private name: string | undefined;

  constructor(private readonly bytes: Buffer) {
    this.decoded = Buffer.allocUnsafe(bytes.length);
  }

  /** Where decoding is: the bytes before it were read. */
  get position(): number {
    return this.at;
  }

  /** Decodes the bytes before `end` (an escape that straddles it is read whole); throws 413 past a cap. */
  decodeTo(end: number): void {
    const { bytes, decoded } = this;
    const stop = Math.min(end, bytes.length);
    let i = this.at;
    let length = this.length;
    let inPair = this.inPair;
    for (; i < stop; i++) {
      const byte = bytes[i]!;
      // Most bytes mean themselves: one look-up, then on to the next.
      if (inPair && PLAIN[byte]) {
        decoded[length++] = byte;
        continue;
      }
      if (byte === AMPERSAND) {
        this.length = length;
        this.endPair();
        length = 0;
        inPair = false;
        continue;
      }
      if (!inPair) {
        inPair = this.inPair = true;
        if (++this.pairs > BODY_CAPS.fields) throw overCap('fields');
      }
      if (byte === EQUALS && this.name === undefined) {
        this.name = decoded.toString('utf8', 0, length);
        length = 0;
      } else if (byte === PLUS) decoded[length++] = SPACE;
      else if (byte === PERCENT && i + 2 < bytes.length && HEX[bytes[i + 1]!]! >= 0 && HEX[bytes[i + 2]!]! >= 0) {
        decoded[length++] = HEX[bytes[i + 1]!]! * 16 + HEX[bytes[i + 2]!]!;
        i += 2;
      } else decoded[length++] = byte;
    }
    this.at = i;
    this.length = length;
  }

  finish(): Fields {
    this.decodeTo(this.bytes.length);
    this.endPair();
    return this.form.fields;
  }

  /** At `&` or the end: adds the pair read since the last one (nothing between two `&` is no field at all). */
  private endPair(): void {
    if (this.inPair) {
      const text = this.decoded.toString('utf8', 0, this.length);
      if (this.name === undefined) this.form.add(text, '');
      else this.form.add(this.name, text);
    }
    this.inPair = false;
    this.name = undefined;
    this.length = 0;
  }
}

/** Bytes that stand for themselves in a name or value: all but `&`, `=`, `+` and `%`. */
const PLAIN = new Uint8Array(256).fill(1);
for (const byte of [AMPERSAND, EQUALS, PLUS, PERCENT]) PLAIN[byte] = 0;

/** The value of each byte as a hex digit, or -1. */
const HEX = new Int8Array(256).fill(-1);
for (const [i, digit] of [...'0123456789abcdef'].entries())
  HEX[digit.charCodeAt(0)] = HEX[digit.toUpperCase().charCodeAt(0)] = i;

const WHOLE_NUMBER = /^(?:0|[1-9]\d{0,14})$/;

/**
 * The fields of one form body, built pair by pair. Values and the objects their keys create count together
 * against the fields cap, as they do in JSON: 10,000 keys `a[][]…[]=` would otherwise make 300,000 objects.
 */
export class FormFields {
  readonly fields = Object.create(null) as Fields;
  private count = 0;
  /** For each object made from bracket keys, the index the next `[]` takes: PHP's "next free element". */
  private readonly nextIndex = new Map<Fields, number>();

  /** Sets `key` (`name`, or `name[a][]…`) to `value`; throws 413 past a cap. */
  add(key: string, value: string): void {
    this.counted();
    const path = bracketPath(key);
    if (!path) {
      this.fields[key] = value;
      return;
    }
    let node = this.fields;
    for (let i = 0; i < path.length - 1; i++) {
      const name = this.slot(node, path[i]!);
      const next = node[name];
      if (typeof next === 'object' && next !== null) node = next as Fields;
      else {
        this.counted();
        node = node[name] = Object.create(null) as Fields;
      }
    }
    node[this.slot(node, path.at(-1)!)] = value;
  }

  private counted(): void {
    if (++this.count > BODY_CAPS.fields) throw overCap('fields');
  }

  /** The key a path segment stands for in `node`: `[]` takes the next index, and a given index moves it on. */
  private slot(node: Fields, segment: string): string {
    const next = this.nextIndex.get(node) ?? 0;
    if (segment === '') {
      this.nextIndex.set(node, next + 1);
      return String(next);
    }
    if (WHOLE_NUMBER.test(segment) && Number(segment) >= next) this.nextIndex.set(node, Number(segment) + 1);
    return segment;
  }
}

/**
 * `name[a][]` as ['name', 'a', '']; undefined when the key is not of that form (then it is a plain name). Scans
 * once, without a regular expression, and stops at the depth cap, so a 4 MB key costs no more than its length.
 */
function bracketPath(key: string): string[] | undefined {
  const open = key.indexOf('[');
  if (open <= 0) return undefined;
  const name = key.slice(0, open);
  if (name.includes(']')) return undefined;
  const path = [name];
  for (let start = open; start < key.length; ) {
    if (key[start] !== '[') return undefined;
    const close = key.indexOf(']', start + 1);
    if (close === -1) return undefined;
    const segment = key.slice(start + 1, close);
    if (segment.includes('[')) return undefined;
    // The body is a level, and every segment but the last opens one more.
    if (path.length >= BODY_CAPS.depth) throw overCap('depth');
    path.push(segment);
    start = close + 1;
  }
  return path;
}

/** Turns `{ "0": a, "1": b }` objects (PHP arrays) into arrays; other values are returned as they are. */
export function asList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && value !== null) return Object.values(value);
  return undefined;
}

function readMultipart(ctx: Context, limit: number, work: ParseWork | undefined): Promise<Fields> {
  return new Promise((resolve, reject) => {
    const form = new FormFields();
    let total = 0;
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      ctx.req.off('data', onData);
      ctx.req.resume();
      reject(err);
    };
    let parser: busboy.Busboy;
    try {
      // Files count as parts, so a body of empty file parts meets the fields cap as well. Busboy counts parts by
      // their boundaries, the opening one included: the boundary after part n + 1 is number n + 2.
      const limits = { fieldSize: limit, fields: BODY_CAPS.fields, parts: BODY_CAPS.fields + 2, files: 0 };
      parser = busboy({ headers: ctx.req.headers, limits });
    } catch {
      reject(new HttpError(400, 'The multipart body has no boundary.'));
      return;
    }
    parser.on('field', (name, value, info) => {
      if (failed) return;
      total += name.length + value.length;
      if (total > limit || info.valueTruncated) return fail(tooLarge(limit));
      try {
        form.add(name, value);
      } catch (err) {
        fail(err as Error);
      }
    });
    // Busboy drops what is past a limit without a word; past the cap the body is refused instead.
    parser.on('fieldsLimit', () => fail(overCap('fields')));
    parser.on('partsLimit', () => fail(overCap('fields')));
    parser.on('error', () => fail(new HttpError(400, 'The multipart body is malformed.')));
    parser.on('close', () => {
      if (!failed) resolve(form.fields);
    });
    // Field sizes are checked above; this bounds the raw stream too (boundaries, headers, ignored files).
    let received = 0;
    // At most SLICE_BYTES per turn of the event loop, other requests served in between: a socket can hand over
    // 2 MB at once, and busboy parses what it is given in one go (4 MB of small parts is tens of ms of work).
    // The request may end (its last chunk read) while that chunk is still being fed: the parser ends after it.
    let feeding = false;
    let ended = false;
    const end = () => {
      if (!failed) parser.end();
    };
    function onData(chunk: Buffer) {
      work?.read(chunk.length);
      received += chunk.length;
      if (received > limit + 64 * 1024) return fail(tooLarge(limit));
      ctx.req.pause();
      feeding = true;
      feed(chunk, 0);
    }
    function feed(chunk: Buffer, from: number) {
      const slice = chunk.subarray(from, from + SLICE_BYTES);
      parser.write(slice);
      work?.worked(slice.length);
      if (failed) return;
      setImmediate(() => {
        work?.yielded();
        if (from + SLICE_BYTES < chunk.length) return feed(chunk, from + SLICE_BYTES);
        feeding = false;
        if (ended) end();
        else ctx.req.resume();
      });
    }
    ctx.req.on('data', onData);
    ctx.req.on('end', () => {
      ended = true;
      if (!feeding) end();
    });
  });
}
