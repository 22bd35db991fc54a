// The HTTP side shared by the operator's and the dashboard's export routes: the query read at the edge, the slot
// refused with the service's 429, and the file answered as a download.
import type { Context } from 'koa';
import { HttpError } from '../http/errors.js';
import { tooManyRequests } from '../http/rate-limit.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';
import { exportQuery, startExport } from './service.js';

/** How long a client refused for a running export is told to wait: exports of 20,000 reviews take seconds. */
const BUSY_RETRY_SECONDS = 30;

/** `?format=`: a bad one is a 400 in the endpoint family's envelope (`{error:{code,message}}`), code as given. */
export function formatOf(ctx: Context, code: string): 'csv' | 'json' {
  try {
    return validate(exportQuery, { format: ctx.query.format }, 400).format;
  } catch (err) {
    if (err instanceof HttpError) throw new HttpError(400, err.message, code);
    throw err;
  }
}

/** Starts the export and answers it as a file to save, or 429 while the shop's previous export still runs. */
export async function answerExport(
  ctx: Context,
  services: Pick<Services, 'audit' | 'config' | 'exportSlots' | 'invitations' | 'log' | 'now' | 'reviews'>,
  request: Parameters<typeof startExport>[2],
): Promise<void> {
  const file = await startExport(services, services.exportSlots, request);
  if (!file) {
    throw tooManyRequests(
      BUSY_RETRY_SECONDS,
      'Another export of this shop is running: one at a time per shop. Try again when it is done.',
      'export_running',
    );
  }
  ctx.set('Content-Type', file.contentType);
  ctx.set('Content-Disposition', `attachment; filename="${file.fileName}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = file.body;
}
