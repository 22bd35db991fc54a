// multipart/form-data with files (the review forms' photos): fields are read as body.ts reads them, each file is
// handed as a stream to the caller, which stores it as it arrives: a file is never held whole in memory. Limits: the
// fields' bytes, the bytes of each file (past it the file's stream ends and `truncated()` says so), and the whole
// body (413), so a form takes at most what its files need.
import { Transform, type Readable } from 'node:stream';
import busboy from 'busboy';
import type { Context } from 'koa';
import { BODY_CAPS, FormFields, type Fields } from './body.js';
import { HttpError } from './errors.js';

export interface IncomingFile {
  /** The form field's name. */
  field: string;
  /** As the browser sent it (only to name the file in a message; never trusted for anything else). */
  filename: string;
  stream: Readable;
  /** Whether the file went past `fileBytes` (its stream ended there; the rest was dropped). */
  truncated(): boolean;
}

export interface UploadLimits {
  /** Bytes of all the text fields together. */
  fieldBytes: number;
  /** Files taken; further ones are drained and counted in `extraFiles`. */
  maxFiles: number;
  /** Bytes of one file. */
  fileBytes: number;
}

/** What multipart framing adds per part (boundary, headers) at most, for the body's byte bound. */
const PART_OVERHEAD = 4096;

/**
 * Reads a multipart body; `onFile` gets each non-empty file in turn and must consume its stream. Resolves once the
 * body is read and every `onFile` settled; rejects with an HttpError (413, 400) for a body past the limits, after the
 * `onFile` calls already started have settled (the caller removes what they stored).
 */
export function readFormWithFiles<T>(
  ctx: Context,
  limits: UploadLimits,
  onFile: (file: IncomingFile) => Promise<T>,
): Promise<{ fields: Fields; files: T[]; extraFiles: number }> {
  const bodyLimit = limits.fieldBytes + limits.maxFiles * (limits.fileBytes + PART_OVERHEAD) + 64 * 1024;
  if (Number(ctx.get('content-length') || 0) > bodyLimit) return Promise.reject(tooLarge(bodyLimit));
  return new Promise((resolve, reject) => {
    const form = new FormFields();
    const handled: Promise<T>[] = [];
    let fieldBytes = 0;
    let extraFiles = 0;
    let failure: Error | undefined;
    const open = new Set<Readable>();
    const fail = (err: Error) => {
      if (failure) return;
      failure = err;
      ctx.req.unpipe();
      ctx.req.resume();
      // A file being stored would wait for bytes that no longer come.
      for (const stream of open) stream.destroy(err);
      settle();
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: ctx.req.headers,
        limits: { fieldSize: limits.fieldBytes, fileSize: limits.fileBytes, parts: BODY_CAPS.fields + 2 },
      });
    } catch {
      reject(new HttpError(400, 'The multipart body has no boundary.'));
      return;
    }
    let closed = false;
    function settle() {
      if (!closed && !failure) return;
      void Promise.allSettled(handled).then((results) => {
        if (failure) return reject(failure);
        const rejected = results.find((r) => r.status === 'rejected');
        if (rejected) return reject((rejected as PromiseRejectedResult).reason);
        resolve({ fields: form.fields, files: results.map((r) => (r as PromiseFulfilledResult<T>).value), extraFiles });
      });
    }
    parser.on('field', (name, value, info) => {
      if (failure) return;
      fieldBytes += name.length + value.length;
      if (fieldBytes > limits.fieldBytes || info.valueTruncated) return fail(tooLarge(bodyLimit));
      try {
        form.add(name, value);
      } catch (err) {
        fail(err as Error);
      }
    });
    parser.on('file', (field, stream, info) => {
      // A file input left empty still sends a part, without a name or bytes.
      if (failure || !info.filename) return void stream.resume();
      if (handled.length >= limits.maxFiles) {
        extraFiles++;
        return void stream.resume();
      }
      const file: IncomingFile = {
        field,
        filename: info.filename.slice(0, 200),
        stream,
        truncated: () => (stream as Readable & { truncated?: boolean }).truncated === true,
      };
      open.add(stream);
      stream.once('close', () => open.delete(stream));
      const done = onFile(file).finally(() => stream.resume());
      // Observed here so that a rejection is never unhandled; settle() reports it.
      done.catch(() => undefined);
      handled.push(done);
    });
    parser.on('partsLimit', () =>
      fail(new HttpError(413, `The request body has more than ${BODY_CAPS.fields} parts.`)),
    );
    parser.on('error', () => fail(new HttpError(400, 'The multipart body is malformed.')));
    parser.on('close', () => {
      closed = true;
      settle();
    });
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, next) {
        received += chunk.length;
        if (received > bodyLimit) {
          fail(tooLarge(bodyLimit));
          return next();
        }
        next(null, chunk);
      },
    });
    ctx.req.pipe(counter).pipe(parser);
  });
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body too large (limit ${Math.round(limit / 1024 / 1024)} MB).`);
}
