// Operator API for bulk review imports (issue 19; docs/operator-api.md, "Bulk review imports"):
//   POST   /admin/api/webshops/{id}/imports                     multipart `file`; `format`, `date_order`, `dry_run`, `reply_authors`
//   GET    /admin/api/webshops/{id}/imports                     the shop's imports, newest first
//   GET    /admin/api/webshops/{id}/imports/{importId}          status and counts
//   POST   /admin/api/webshops/{id}/imports/{importId}/approve  an import from the dashboard, approved
//   POST   /admin/api/webshops/{id}/imports/{importId}/held     `{action: keep|remove, ground}` for all its held reviews (worker)
//   DELETE /admin/api/webshops/{id}/imports/{importId}          undo (within 30 days)
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { requireAdmin } from '../admin/auth.js';
import { OPERATOR } from '../audit/changes.js';
import { readFields } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { idParam, validate } from '../http/validate.js';
import { GROUNDS } from '../moderation/schema.js';
import type { Services } from '../services.js';
import { formatTimestamp } from '../time.js';
import { ImportFileError } from './decode.js';
import { FORMATS, MAPPED_FIELDS, type ColumnMapping } from './formats.js';
import { DateOrderNeeded, MappingNeeded } from './read.js';
import {
  approveImport,
  decideHeld,
  ImportUpload,
  startImport,
  undoImport,
  type ImportActor,
  type StartResult,
} from './service.js';
import type { Import } from './store.js';
import { readUpload } from './upload.js';
import { requireWebshop } from '../webshops/service.js';

/** Imports from the dashboard that may wait for the operator's approval at once, per shop. */
const AWAITING_PER_SHOP = 5;

/** Which column holds what, for a file in no known format: the header's names; the rating and the date at least. */
const columnMappingSchema = z
  .object(
    Object.fromEntries(MAPPED_FIELDS.map((f) => [f, z.string().trim().min(1).max(200).optional()])) as Record<
      (typeof MAPPED_FIELDS)[number],
      z.ZodOptional<z.ZodString>
    >,
  )
  .strict()
  .refine((m) => m.rating !== undefined && m.date !== undefined, {
    message: 'the rating and the date columns are required',
  });

/** The multipart field `mapping`: the mapping as JSON text. */
const mappingField = z
  .string()
  .max(5000)
  .transform((text, ctx): ColumnMapping => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not JSON' });
      return z.NEVER;
    }
    const parsed = columnMappingSchema.safeParse(value);
    if (!parsed.success) {
      ctx.addIssue({
        code: 'custom',
        message: parsed.error.issues.map((i) => `${i.path.join('.') || 'mapping'}: ${i.message}`).join('; '),
      });
      return z.NEVER;
    }
    return parsed.data;
  });

export const importFieldsSchema = z
  .object({
    format: z.enum(FORMATS).optional(),
    date_order: z.enum(['dmy', 'mdy']).optional(),
    dry_run: z.enum(['0', '1', 'true', 'false']).optional(),
    /** WooCommerce: the shop's e-mail addresses or names, comma-separated; their child rows are its replies. */
    reply_authors: z.string().max(2000).optional(),
    /** A file in no known format: JSON `{rating, date, text, title, name, email, product, reply}` naming its columns. */
    mapping: mappingField.optional(),
  })
  .strict();

export const heldDecisionSchema = z
  .object({
    action: z.enum(['keep', 'remove']),
    ground: z.enum(GROUNDS).optional(),
  })
  .strict()
  .refine((d) => d.action === 'keep' || d.ground !== undefined, {
    message: 'ground: required to remove (one of the moderation grounds)',
    path: ['ground'],
  });

const stamp = (d: Date | null) => (d ? formatTimestamp(d) : null);

/** An import as the operator API shows it. */
export function importView(doc: Import) {
  const ran = doc.status !== 'awaiting_approval';
  return {
    id: doc._id,
    status: doc.status,
    file_name: doc.fileName,
    bytes: doc.bytes,
    format: doc.format,
    imported_from: doc.platform,
    date_order: doc.dateOrder,
    created: stamp(doc.created),
    by: doc.by.kind === 'operator' ? 'operator' : `user:${doc.by.id}`,
    approved: stamp(doc.approved),
    finished: stamp(doc.finished),
    undone: stamp(doc.undone),
    error: doc.error,
    // The worker's counts once it ran; before approval, the preview's.
    ...(ran ? doc.counts : { ...doc.preview.counts, imported: 0 }),
    problems: ran ? doc.problems : doc.preview.problems,
    problem_count: ran ? doc.counts.problems : doc.preview.counts.problems,
    preview: {
      rows: doc.preview.counts.read,
      to_import: doc.preview.counts.imported,
      duplicates: doc.preview.counts.duplicates,
      held: doc.preview.counts.held,
      problems: doc.preview.counts.problems,
      distribution: doc.preview.distribution,
      reviews: doc.preview.reviews,
    },
    held_decision: doc.held ? { ...doc.held, at: formatTimestamp(doc.held.at) } : null,
    held_decision_pending: doc.heldPending
      ? {
          action: doc.heldPending.action,
          ground: doc.heldPending.ground,
          at: formatTimestamp(doc.heldPending.at),
          reviews: doc.heldPending.reviews,
        }
      : null,
    photos_queued: doc.photos?.queued ?? 0,
    photos_fetched: doc.photos?.fetched ?? 0,
    photos_failed: doc.photos?.failed ?? 0,
    photo_failure: doc.photos?.last_failure ?? null,
  };
}

function dryRunView(result: Extract<StartResult, { dryRun: true }>) {
  const { counts, distribution, reviews, problems } = result.preview;
  return {
    dry_run: true,
    format: result.analysis.format,
    imported_from: result.analysis.platform,
    date_order: result.analysis.dateOrder,
    read: counts.read,
    to_import: counts.imported,
    duplicates: counts.duplicates,
    held: counts.held,
    store_reviews: counts.store_reviews,
    product_reviews: counts.product_reviews,
    distribution,
    reviews,
    problems,
    problem_count: counts.problems,
    reply_authors_found: result.analysis.replyAuthorsFound,
    columns: result.analysis.header.slice(0, 100),
    mapping: result.mapping ?? null,
    warnings: [
      'Imported reviews are never verified and never go to Google: ratings that your previous platform sent to Google’s product ratings are lost there.',
    ],
  };
}

/** Receives the upload and starts the import: shared by the operator API and the dashboard. */
export async function receiveImport(
  ctx: Context,
  services: Pick<Services, 'audit' | 'config' | 'imports' | 'now' | 'scheduler' | 'webshops'>,
  shopId: number,
  by: ImportActor,
): Promise<void> {
  const shop = await requireWebshop(services, shopId);
  // A shop's users cannot pile files up in the database faster than the operator looks at them.
  if (by.kind === 'user') {
    const waiting = (await services.imports.list(shop.id)).filter((i) => i.status === 'awaiting_approval');
    if (waiting.length >= AWAITING_PER_SHOP) {
      throw new HttpError(
        409,
        `${AWAITING_PER_SHOP} imports of this shop already wait for approval: wait for the operator's decision.`,
        'conflict',
      );
    }
  }
  const upload = new ImportUpload(services, shop.id);
  await upload.begin();
  let result: StartResult;
  try {
    const form = await readUpload(ctx, upload);
    const fields = validate(importFieldsSchema, form.fields);
    result = await startImport(
      services,
      shop,
      upload,
      { fileName: form.fileName ?? 'import.csv', by },
      {
        format: fields.format,
        dateOrder: fields.date_order,
        dryRun: fields.dry_run === '1' || fields.dry_run === 'true',
        replyAuthors: (fields.reply_authors ?? '')
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean),
        mapping: fields.mapping,
      },
    );
  } catch (err) {
    // Nothing of a refused upload remains (removing it twice is harmless).
    await upload.discard();
    if (err instanceof DateOrderNeeded) throw new HttpError(422, err.message, 'date_order_needed');
    if (err instanceof MappingNeeded) {
      // The columns go with the error: the dashboard's mapping step offers them.
      ctx.status = 422;
      ctx.body = { error: { code: 'mapping_needed', message: err.message, columns: err.columns } };
      return;
    }
    if (err instanceof ImportFileError) throw new HttpError(422, err.message, 'file_refused');
    throw err;
  }
  if (result.dryRun) {
    ctx.body = dryRunView(result);
    return;
  }
  ctx.status = 202;
  ctx.body = importView(result.import);
}

export function registerImportAdminRoutes(
  router: Router,
  services: Pick<Services, 'audit' | 'config' | 'importPhotos' | 'imports' | 'now' | 'scheduler' | 'webshops'>,
): void {
  const admin = requireAdmin(services.config.adminToken);
  const shopOf = async (id: string | undefined) => {
    return requireWebshop(services, idParam(id, 'webshop'));
  };
  const importOf = async (shopId: number, importId: string | undefined) => {
    const doc = importId ? await services.imports.get(shopId, importId) : null;
    if (!doc) throw new HttpError(404, 'No such import.');
    return doc;
  };

  router.post('/admin/api/webshops/:id/imports', admin, async (ctx) => {
    await receiveImport(ctx, services, idParam(ctx.params.id, 'webshop'), { kind: 'operator' });
  });

  router.get('/admin/api/webshops/:id/imports', admin, async (ctx) => {
    const shop = await shopOf(ctx.params.id);
    ctx.body = { imports: (await services.imports.list(shop.id)).map(importView) };
  });

  router.get('/admin/api/webshops/:id/imports/:importId', admin, async (ctx) => {
    const shop = await shopOf(ctx.params.id);
    ctx.body = importView(await importOf(shop.id, ctx.params.importId));
  });

  router.post('/admin/api/webshops/:id/imports/:importId/approve', admin, async (ctx) => {
    const shop = await shopOf(ctx.params.id);
    ctx.status = 202;
    ctx.body = importView(await approveImport(services, shop.id, (await importOf(shop.id, ctx.params.importId))._id));
  });

  router.post('/admin/api/webshops/:id/imports/:importId/held', admin, async (ctx) => {
    const shop = await shopOf(ctx.params.id);
    const doc = await importOf(shop.id, ctx.params.importId);
    const decision = validate(heldDecisionSchema, await readFields(ctx, 16 * 1024));
    const pending = await decideHeld(
      services,
      shop.id,
      doc._id,
      { action: decision.action, ground: decision.ground ?? null },
      OPERATOR,
    );
    ctx.status = 202;
    ctx.body = importView(pending);
  });

  router.delete('/admin/api/webshops/:id/imports/:importId', admin, async (ctx) => {
    const shop = await shopOf(ctx.params.id);
    const doc = await importOf(shop.id, ctx.params.importId);
    ctx.status = 202;
    ctx.body = importView(await undoImport(services, shop.id, doc._id, OPERATOR));
  });
}
