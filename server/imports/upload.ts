// The multipart upload of an import file (`file`, plus a few small fields in any order): the file goes to the
// ImportUpload piece by piece as it arrives, so a 100 MB file never sits in memory; past the limit the request is
// refused (413) and what was stored is removed by the caller.
import busboy from 'busboy';
import type { Context } from 'koa';
import { HttpError } from '../http/errors.js';
import { IMPORT_LIMITS } from './csv.js';
import type { ImportUpload } from './service.js';

export interface UploadForm {
  fields: Record<string, string>;
  fileName: string | null;
}

const FIELD_BYTES = 10_000;

export function readUpload(ctx: Context, upload: ImportUpload): Promise<UploadForm> {
  if (!ctx.is('multipart/form-data')) {
    return Promise.reject(new HttpError(415, 'Send the file as multipart/form-data, in the field "file".'));
  }
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = Object.create(null);
    let fileName: string | null = null;
    let fileDone: Promise<void> = Promise.resolve();
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
      parser = busboy({
        headers: ctx.req.headers,
        limits: { files: 1, fileSize: IMPORT_LIMITS.bytes, fields: 20, fieldSize: FIELD_BYTES, parts: 22 },
      });
    } catch {
      reject(new HttpError(400, 'The multipart body has no boundary.'));
      return;
    }
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new HttpError(413, `The field ${name} is too long.`));
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || fileName !== null) {
        stream.resume();
        return;
      }
      fileName = info.filename || 'import.csv';
      stream.on('limit', () =>
        fail(
          new HttpError(
            413,
            `The file is larger than ${IMPORT_LIMITS.bytes / 1024 / 1024} MB, the limit of an import.`,
          ),
        ),
      );
      fileDone = (async () => {
        for await (const data of stream) {
          if (failed) continue;
          await upload.add(data as Buffer);
        }
      })().catch((err: Error) => fail(err));
    });
    parser.on('filesLimit', () => undefined);
    parser.on('fieldsLimit', () => fail(new HttpError(413, 'Too many form fields.')));
    parser.on('partsLimit', () => fail(new HttpError(413, 'Too many form parts.')));
    parser.on('error', () => fail(new HttpError(400, 'The multipart body is malformed.')));
    parser.on('close', () => {
      void fileDone.then(() => {
        if (failed) return;
        if (fileName === null)
          return fail(new HttpError(422, 'file: required (the CSV file to import)', 'validation_failed'));
        resolve({ fields, fileName });
      });
    });
    ctx.req.pipe(parser);
  });
}
