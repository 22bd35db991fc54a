// "Import reviews" (issue 19; owner and manager): a review export of another platform, sent once as a dry run for
// the preview (the first reviews as they will appear, the first problems with their line numbers, the counts), with
// the questions a file may raise (the order of day and month, which WooCommerce authors are the shop), then sent again
// to be imported. The upload goes through XMLHttpRequest for its progress; the imports stay listed with their counts,
// status and the worker's progress, and those from the dashboard wait for the operator's approval.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, shopApi, upload } from '../api.js';
import { dateTime, number, percent, t, tn } from '../i18n.js';
import type { Key } from '../strings/en.js';
import type { PageProps } from '../main.js';
import { announce } from '../state.js';
import { ErrorLine, Field, Loading, PageHeading, RecordTable, useLoad } from '../ui.js';
import type { DashboardImport, ImportDryRun } from '../../server/imports/openapi.js';

/** The largest file the server takes; refused here first so it is not sent at all. */
const MAX_BYTES = 100 * 1024 * 1024;
/** How often the list is read again while an import runs. */
const POLL_MS = 1500;

type DateOrder = 'dmy' | 'mdy';
/** What a column mapping names (server/imports/formats.ts MAPPED_FIELDS). */
const MAPPED = ['rating', 'date', 'text', 'title', 'name', 'email', 'product', 'reply'] as const;
type Mapping = Partial<Record<(typeof MAPPED)[number], string>>;
/** A first guess of each field's column from the header's words; the shop corrects it. */
const GUESS: Record<(typeof MAPPED)[number], RegExp> = {
  rating: /rating|stars?|score|sterren|note/i,
  date: /date|datum|created|time/i,
  text: /text|body|content|comment|review|tekst/i,
  title: /title|titel|headline|subject/i,
  name: /name|naam|author|reviewer/i,
  email: /e-?mail/i,
  product: /product|sku|item|artikel/i,
  reply: /reply|response|answer|antwoord|reactie/i,
};
function guessMapping(columns: readonly string[]): Mapping {
  const mapping: Mapping = {};
  const taken = new Set<string>();
  for (const field of MAPPED) {
    const column = columns.find((c) => !taken.has(c) && GUESS[field].test(c));
    if (column) {
      mapping[field] = column;
      taken.add(column);
    }
  }
  return mapping;
}
/** The API's `YYYY-MM-DD HH:MM:SS` (UTC) as ISO 8601, which the date formatters read. */
const utc = (stamp: string) => `${stamp.replace(' ', 'T')}Z`;
type Preview = ImportDryRun;

export default function ImportPage({ shop }: PageProps) {
  const list = useLoad(() => api<{ imports: DashboardImport[] }>('GET', shopApi(shop.id, '/imports')), String(shop.id));
  const running = list.data?.imports.some((i) => i.status === 'running') ?? false;
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(list.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [running, list.data]);
  return (
    <>
      <PageHeading title={t('pageImport')} />
      <ImportForm shopId={shop.id} onStarted={list.reload} />
      <ImportList imports={list.data?.imports} loading={list.loading} error={list.error} />
    </>
  );
}

/** A share as the progress bar's text, said by screen readers at every quarter. */
function useUploadProgress() {
  const [share, setShare] = useState<number | null>(null);
  const said = useRef(-1);
  const onProgress = (value: number) => {
    setShare(value);
    const quarter = Math.floor(value * 4);
    if (quarter !== said.current) {
      said.current = quarter;
      announce(value >= 1 ? t('importUploaded') : t('importUploading', { percent: percent(value) }));
    }
  };
  const reset = () => {
    said.current = -1;
    setShare(null);
  };
  return { share, onProgress, reset };
}

function ImportForm({ shopId, onStarted }: { shopId: number; onStarted: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [dateOrder, setDateOrder] = useState<DateOrder | null>(null);
  const [askDateOrder, setAskDateOrder] = useState(false);
  const [replyAuthors, setReplyAuthors] = useState<string[]>([]);
  // A file of no known format: its columns, the shop's mapping (null: none given), and whether the step is shown.
  const [columns, setColumns] = useState<string[]>([]);
  const [mapping, setMapping] = useState<Mapping | null>(null);
  const [mappingOpen, setMappingOpen] = useState(false);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [tooLarge, setTooLarge] = useState(false);
  const [started, setStarted] = useState<DashboardImport | null>(null);
  const progress = useUploadProgress();
  const previewHeading = useRef<HTMLHeadingElement>(null);
  const dateQuestion = useRef<HTMLFieldSetElement>(null);
  const mappingStep = useRef<HTMLFieldSetElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const send = async (dryRun: boolean): Promise<unknown> => {
    const form = new FormData();
    if (dryRun) form.set('dry_run', '1');
    if (dateOrder) form.set('date_order', dateOrder);
    if (replyAuthors.length) form.set('reply_authors', replyAuthors.join(','));
    if (mapping) form.set('mapping', JSON.stringify(mapping));
    form.set('file', file!, file!.name);
    progress.reset();
    return upload(shopApi(shopId, '/imports'), form, progress.onProgress);
  };

  const run = async (dryRun: boolean) => {
    if (!file) return;
    if (file.size > MAX_BYTES) {
      setTooLarge(true);
      return;
    }
    setTooLarge(false);
    setBusy(true);
    setError(null);
    try {
      const answer = await send(dryRun);
      if (dryRun) {
        setPreview(answer as Preview);
        setAskDateOrder(false);
        setMappingOpen(false);
        announce(t('importPreviewReady', { n: number((answer as Preview).to_import) }));
        requestAnimationFrame(() => previewHeading.current?.focus());
      } else {
        setStarted(answer as DashboardImport);
        setPreview(null);
        announce(
          (answer as DashboardImport).status === 'awaiting_approval' ? t('importStarted') : t('importStartedRunning'),
        );
        onStarted();
      }
    } catch (err) {
      if (err instanceof ApiError && err.code === 'date_order_needed') {
        setPreview(null);
        setAskDateOrder(true);
        announce(t('importDateOrderAsked'));
        requestAnimationFrame(() => dateQuestion.current?.querySelector('input')?.focus());
      } else if (err instanceof ApiError && err.code === 'mapping_needed') {
        const found = Array.isArray(err.details.columns) ? (err.details.columns as string[]) : [];
        setPreview(null);
        setColumns(found);
        setMapping(guessMapping(found));
        setMappingOpen(true);
        announce(t('importMappingAsked'));
        requestAnimationFrame(() => mappingStep.current?.querySelector('select')?.focus());
      } else {
        setError(err);
      }
    } finally {
      setBusy(false);
    }
  };

  const chooseAnother = () => {
    setFile(null);
    setPreview(null);
    setStarted(null);
    setAskDateOrder(false);
    setDateOrder(null);
    setReplyAuthors([]);
    setMapping(null);
    setMappingOpen(false);
    progress.reset();
    if (fileInput.current) fileInput.current.value = '';
    fileInput.current?.focus();
  };

  return (
    <section aria-labelledby="import-file-title" class="card">
      <h2 id="import-file-title">{t('pageImport')}</h2>
      <p>{t('importIntro')}</p>
      <form
        class="upload"
        onSubmit={(event) => {
          event.preventDefault();
          void run(true);
        }}
      >
        <Field label={t('importFile')} class="block">
          <input
            ref={fileInput}
            type="file"
            accept=".csv,.txt,.json,text/csv,text/plain,application/json"
            required
            aria-describedby="import-file-help"
            onChange={(e) => {
              setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null);
              setPreview(null);
              setStarted(null);
              setAskDateOrder(false);
              setDateOrder(null);
              setReplyAuthors([]);
              setMapping(null);
              setMappingOpen(false);
            }}
          />
          <p id="import-file-help" class="muted">
            {t('importFileHelp')}
          </p>
        </Field>
        {askDateOrder && (
          <fieldset ref={dateQuestion} class="choice">
            <legend>{t('importDateOrderLegend')}</legend>
            <p class="muted">{t('importDateOrderHelp')}</p>
            {(['dmy', 'mdy'] as const).map((order) => (
              <label>
                <input
                  type="radio"
                  name="date_order"
                  value={order}
                  required
                  checked={dateOrder === order}
                  onChange={() => setDateOrder(order)}
                />{' '}
                {t(order === 'dmy' ? 'importDmy' : 'importMdy')}
              </label>
            ))}
          </fieldset>
        )}
        {mappingOpen && mapping && (
          <fieldset ref={mappingStep} class="choice mapping">
            <legend>{t('importMappingLegend')}</legend>
            <p class="muted">{t('importMappingHelp')}</p>
            {MAPPED.map((field) => (
              <Field label={t(`importMapping_${field}` as Key)}>
                <select
                  required={field === 'rating' || field === 'date'}
                  value={mapping[field] ?? ''}
                  onChange={(e) => {
                    const column = (e.currentTarget as HTMLSelectElement).value;
                    setMapping((m) => ({ ...m, [field]: column || undefined }));
                  }}
                >
                  <option value="">{t('importMappingNone')}</option>
                  {columns.map((c) => (
                    <option value={c}>{c}</option>
                  ))}
                </select>
              </Field>
            ))}
          </fieldset>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {t('importShowPreview')}
          </button>
        </div>
      </form>
      {tooLarge && (
        <p class="error" role="alert">
          {t('importTooLarge')}
        </p>
      )}
      <ErrorLine error={error} />
      {progress.share !== null && (
        <p class="progress">
          <span id="import-upload-label">{t('importUploadProgress')}</span>{' '}
          <progress
            aria-labelledby="import-upload-label"
            max={100}
            value={Math.round(progress.share * 100)}
            aria-valuetext={percent(progress.share)}
          />{' '}
          <span>{percent(progress.share)}</span>
          {busy && progress.share >= 1 && <span class="muted"> {t('importChecking')}</span>}
        </p>
      )}
      {started && (
        <p class="notice" role="status">
          {started.status === 'awaiting_approval' ? t('importStarted') : t('importStartedRunning')}
        </p>
      )}
      {preview && (
        <PreviewView
          preview={preview}
          fileName={file?.name ?? ''}
          headingRef={previewHeading}
          busy={busy}
          replyAuthors={replyAuthors}
          onReplyAuthors={setReplyAuthors}
          onUpdate={() => void run(true)}
          onImport={() => void run(false)}
          onCancel={chooseAnother}
          onChangeMapping={() => {
            setColumns(preview.columns);
            setMapping(preview.mapping ?? {});
            setMappingOpen(true);
            setPreview(null);
            requestAnimationFrame(() => mappingStep.current?.querySelector('select')?.focus());
          }}
        />
      )}
    </section>
  );
}

function PreviewView(props: {
  preview: Preview;
  fileName: string;
  headingRef: preact.RefObject<HTMLHeadingElement | null>;
  busy: boolean;
  replyAuthors: string[];
  onReplyAuthors: (authors: string[]) => void;
  onUpdate: () => void;
  onImport: () => void;
  onCancel: () => void;
  onChangeMapping: () => void;
}) {
  const { preview } = props;
  const counts: [Key, number][] = [
    ['importCountToImport', preview.to_import],
    ['importCountDuplicates', preview.duplicates],
    ['importCountProblems', preview.problem_count],
    ['importCountHeld', preview.held],
    ['importCountProductOnly', preview.product_reviews],
  ];
  const toggleAuthor = (author: string, on: boolean) =>
    props.onReplyAuthors(on ? [...props.replyAuthors, author] : props.replyAuthors.filter((a) => a !== author));
  return (
    <div class="import-preview">
      <h3 id="import-preview-title" ref={props.headingRef} tabIndex={-1}>
        {t('importPreviewTitle', { file: props.fileName })}
      </h3>
      <p class="muted">{t('importFrom', { platform: preview.imported_from })}</p>
      {preview.mapping && (
        <p>
          {t('importMappingUsed')}{' '}
          <button type="button" onClick={props.onChangeMapping}>
            {t('importChangeMapping')}
          </button>
        </p>
      )}
      <dl class="counts">
        {counts.map(([label, n]) => (
          <div>
            <dt>{t(label)}</dt>
            <dd>{number(n)}</dd>
          </div>
        ))}
      </dl>
      <p class="notice warning">{t('importGoogleWarning')}</p>
      {preview.reply_authors_found.length > 0 && (
        <fieldset class="choice">
          <legend>{t('importRepliesLegend')}</legend>
          <p class="muted">{t('importRepliesHelp')}</p>
          {preview.reply_authors_found.map((author) => (
            <label>
              <input
                type="checkbox"
                checked={props.replyAuthors.includes(author)}
                onChange={(e) => toggleAuthor(author, (e.currentTarget as HTMLInputElement).checked)}
              />{' '}
              {author}
            </label>
          ))}
          <div class="actions">
            <button type="button" disabled={props.busy} onClick={props.onUpdate}>
              {t('importUpdatePreview')}
            </button>
          </div>
        </fieldset>
      )}
      <h4>{t('importFirstReviews')}</h4>
      {preview.reviews.length === 0 ? (
        <p class="muted">{t('importNothing')}</p>
      ) : (
        <ul class="import-reviews">
          {preview.reviews.map((r) => (
            <li class="review">
              <p class="rating">
                <span class="stars" aria-hidden="true">
                  {'★'.repeat(r.rating)}
                  <span class="off">{'★'.repeat(Math.max(0, 5 - r.rating))}</span>
                </span>{' '}
                {t('ratingOutOf5', { n: r.rating })}
              </p>
              {r.title && <p class="title">{r.title}</p>}
              {r.text ? <p class="comment">{r.text}</p> : <p class="muted">{t('noComment')}</p>}
              <p class="meta">
                <span>{r.name || t('anonymous')}</span>
                <span>{dateTime(utc(r.date))}</span>
                <span>{t('importFrom', { platform: preview.imported_from })}</span>
                {r.product && <span>{t('importProductOf', { product: r.product })}</span>}
                {r.held && <span class="badge quarantined">{t('importHeldBadge')}</span>}
              </p>
              {r.reply && (
                <div class="reply">
                  <p>
                    <strong>{t('shopReply')}</strong>
                  </p>
                  <p>{r.reply}</p>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <h4>{t('importFirstProblems')}</h4>
      {preview.problems.length === 0 ? (
        <p class="muted">{t('importNoProblems')}</p>
      ) : (
        <ul class="errors">
          {preview.problems.slice(0, 20).map((p) => (
            <li>{t('importProblemLine', { line: p.line, reason: p.reason })}</li>
          ))}
        </ul>
      )}
      <div class="actions">
        <button type="button" class="primary" disabled={props.busy || preview.to_import === 0} onClick={props.onImport}>
          {tn('importStart', preview.to_import)}
        </button>
        <button type="button" onClick={props.onCancel}>
          {t('importOther')}
        </button>
      </div>
    </div>
  );
}

/** How far the worker got: rows read of the file's rows (a done import is full). */
function RunProgress({ item }: { item: DashboardImport }) {
  if (item.status !== 'running' && item.status !== 'done') return null;
  const rows = Math.max(1, item.preview.rows);
  const read = item.status === 'done' ? rows : Math.min(item.read, rows);
  const label = `import-progress-${item.id}`;
  return (
    <span class="run-progress">
      <span id={label} class="sr-only">
        {t('importProgressOf', { file: item.file_name })}
      </span>
      <progress
        aria-labelledby={label}
        max={rows}
        value={read}
        aria-valuetext={t('importProgressText', { read: number(read), rows: number(rows) })}
      />{' '}
      <span class="muted">{t('importProgressText', { read: number(read), rows: number(rows) })}</span>
    </span>
  );
}

function ImportList({
  imports,
  loading,
  error,
}: {
  imports: DashboardImport[] | undefined;
  loading: boolean;
  error: unknown;
}) {
  const waiting = imports?.some((i) => i.status === 'awaiting_approval') ?? false;
  return (
    <section aria-labelledby="import-list-title">
      <h2 id="import-list-title">{t('importListTitle')}</h2>
      <ErrorLine error={error} />
      {!imports && loading && <Loading />}
      {waiting && <p class="notice">{t('importAwaitingNotice')}</p>}
      {imports && imports.length === 0 && <p class="muted">{t('importNone')}</p>}
      {imports && imports.length > 0 && (
        <RecordTable
          labelledBy="import-list-title"
          rows={imports}
          columns={[
            { label: t('importFileName'), class: 'break', cell: (i) => i.file_name },
            { label: t('importWho'), class: 'break', cell: (i) => i.by_email ?? i.by },
            { label: t('importWhen'), cell: (i) => dateTime(utc(i.created)) },
            {
              label: t('importCounts'),
              cell: (i) =>
                i.status === 'awaiting_approval'
                  ? t('importCountsPreview', {
                      imported: number(i.preview.to_import),
                      duplicates: number(i.preview.duplicates),
                      problems: number(i.preview.problems),
                      held: number(i.preview.held),
                    })
                  : t('importCountsCell', {
                      imported: number(i.imported),
                      duplicates: number(i.duplicates),
                      problems: number(i.problem_count),
                      held: number(i.held),
                    }),
            },
            {
              label: t('importStatus'),
              cell: (i) => (
                <>
                  <span class={`badge ${i.status}`}>{t(`import_${i.status}` as Key)}</span> <RunProgress item={i} />
                  {i.error && <span class="reason">{i.error}</span>}
                </>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
