// The worker's import job: runs the imports queued to run, undoes those queued to be undone, applies the decisions on
// their held reviews, and removes the files of uploads that died half-way (service.ts drainImports). Triggered when
// an import is queued; every minute as well, as a safety net, reading the small `import_work` queue only.
import { randomUUID } from 'node:crypto';
import type { Services } from '../services.js';
import { drainImports, IMPORT_JOB } from './service.js';
import { drainImportPhotos, IMPORT_PHOTO_JOB } from './photo-import.js';

const SAFETY_NET_MS = 60_000;

export function defineImportJobs(
  services: Pick<
    Services,
    | 'activity'
    | 'audit'
    | 'compliance'
    | 'config'
    | 'importPhotos'
    | 'imports'
    | 'log'
    | 'moderation'
    | 'now'
    | 'photoStorage'
    | 'photos'
    | 'productReviews'
    | 'reviews'
    | 'scheduler'
    | 'webshops'
  >,
): void {
  services.scheduler.define(IMPORT_JOB, () => drainImports(services, randomUUID()), SAFETY_NET_MS);
  // The photo URLs of imported files, fetched one at a time (photo-import.ts).
  services.scheduler.define(IMPORT_PHOTO_JOB, () => drainImportPhotos(services, randomUUID()), SAFETY_NET_MS);
}
