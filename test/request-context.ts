// A Koa context for a request whose body is given, for testing body parsers without a server or a socket.
import Koa, { type Context } from 'koa';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

export function requestContext(body: Buffer | string, contentType: string): Context {
  const bytes = Buffer.from(body);
  const req = new IncomingMessage(new Socket());
  req.method = 'POST';
  req.headers = { 'content-type': contentType, 'content-length': String(bytes.length) };
  // In slices, as a socket delivers it, so that parsers see bodies arrive in several chunks.
  for (let at = 0; at < bytes.length; at += 64 * 1024) req.push(bytes.subarray(at, at + 64 * 1024));
  req.push(null);
  return new Koa().createContext(req, new ServerResponse(req));
}

/** A multipart/form-data body of text fields, and its Content-Type. */
export function multipartBody(fields: [string, string][], boundary = 'b0undary'): { body: Buffer; type: string } {
  const parts = fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return { body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), type: `multipart/form-data; boundary=${boundary}` };
}
