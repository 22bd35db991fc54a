// A Koa context for a request whose body is given, for testing body parsers without a server or a socket.
import Koa, { type Context } from 'koa';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/**
 * `chunkBytes`: the size of the chunks the body arrives in (a socket hands over 64 KB, or up to megabytes when the
 * body arrived faster than it was read); `declared: false` sends no Content-Length, as a chunked upload does.
 */
export function requestContext(
  body: Buffer | string,
  contentType: string,
  { chunkBytes = 64 * 1024, declared = true }: { chunkBytes?: number; declared?: boolean } = {},
): Context {
  const bytes = Buffer.from(body);
  const req = new IncomingMessage(new Socket());
  req.method = 'POST';
  req.headers = { 'content-type': contentType, ...(declared ? { 'content-length': String(bytes.length) } : {}) };
  // In slices, as a socket delivers it, so that parsers see bodies arrive in several chunks: one each time the
  // parser asks for more (pushed all at once, they would be read as one).
  let at = 0;
  req._read = () => {
    if (at >= bytes.length) {
      req.push(null);
      return;
    }
    const chunk = bytes.subarray(at, at + chunkBytes);
    at += chunkBytes;
    req.push(chunk);
  };
  return new Koa().createContext(req, new ServerResponse(req));
}

/** A multipart/form-data body of text fields, and its Content-Type. */
export function multipartBody(fields: [string, string][], boundary = 'b0undary'): { body: Buffer; type: string } {
  const parts = fields.map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}
