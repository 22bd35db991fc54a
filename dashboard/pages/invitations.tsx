// Invitations: every invitation with its state and the reason it was not sent, searchable by e-mail address or
// order number, and bulk invitations from a CSV file (validated row by row by the server, good rows queued by the
// same rules as Add invitation).
import { useEffect, useState } from 'preact/hooks';
import { api, asPage, query, shopApi } from '../api.js';
import { dateTime, number, t, tn } from '../i18n.js';
import type { Key } from '../strings/en.js';
import type { PageProps } from '../main.js';
import { announce } from '../state.js';
import { ErrorLine, Loading, PageHeading, Pager, useAction, useLoad, fieldValue, Field, RecordTable } from '../ui.js';
import type { CsvResult, DashboardInvitation } from '../../server/dashboard/contract.js';
import { ExportLinks } from '../export-links.js';

type Invitation = DashboardInvitation;
type Upload = CsvResult;

const PAGE_SIZE = 20;
/** The largest file the server takes; refused here first so a wrong file is not sent at all. */
const MAX_BYTES = 10 * 1024 * 1024;

export default function InvitationsPage({ shop }: PageProps) {
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const list = useLoad(
    () =>
      api<unknown>('GET', shopApi(shop.id, `/invitations${query({ q, page, page_size: PAGE_SIZE })}`)).then((v) =>
        asPage<Invitation>(v),
      ),
    JSON.stringify([shop.id, q, page]),
  );
  const data = list.data;
  useEffect(() => {
    if (data && q) announce(tn('invitationsFound', data.total));
  }, [data]);
  const search = (event: Event) => {
    event.preventDefault();
    setPage(1);
    setQ(draft.trim());
  };

  return (
    <>
      <PageHeading title={t('pageInvitations')} />
      <Reminders shopId={shop.id} />
      <CsvUpload
        shopId={shop.id}
        onDone={() => {
          if (page === 1 && !q) {
            list.reload();
            return;
          }
          setQ('');
          setDraft('');
          setPage(1);
        }}
      />
      <section aria-labelledby="inv-list">
        <h2 id="inv-list">{t('allInvitations')}</h2>
        {/* biome-ignore lint/a11y/useSemanticElements: <form role=search> is the search landmark; <search> would add a wrapper element around the form */}
        <form class="filters" role="search" aria-label={t('invitationsSearchForm')} onSubmit={search}>
          <Field label={t('searchInvitations')} class="wide">
            <input type="search" value={draft} maxLength={254} onInput={(e) => setDraft(fieldValue(e))} />
          </Field>
          <div class="actions">
            <button type="submit" class="primary">
              {t('search')}
            </button>
          </div>
        </form>
        <ErrorLine error={list.error} />
        {!data && list.loading && <Loading />}
        {data && (
          <>
            <p class="muted">{tn('invitationsFound', data.total)}</p>
            {data.items.length > 0 && (
              <RecordTable
                rows={data.items}
                columns={[
                  { label: t('email'), class: 'break', cell: (inv) => inv.email },
                  { label: t('order'), cell: (inv) => inv.order || '–' },
                  { label: t('name'), cell: (inv) => inv.name || '–' },
                  {
                    label: t('state'),
                    cell: (inv) => (
                      <>
                        <span class={`badge ${inv.state}`}>{t(`inv_${inv.state}` as Key)}</span>
                        {inv.reason && <span class="reason">{inv.reason}</span>}
                      </>
                    ),
                  },
                  { label: t('created'), cell: (inv) => dateTime(inv.created) },
                  {
                    label: t('sent'),
                    cell: (inv) =>
                      inv.sent_at
                        ? dateTime(inv.sent_at)
                        : inv.send_at && inv.state === 'queued'
                          ? t('plannedFor', { when: dateTime(inv.send_at) })
                          : '–',
                  },
                ]}
              />
            )}
            <Pager
              page={page}
              pageSize={PAGE_SIZE}
              total={data.total}
              onPage={setPage}
              label={t('pagesOfInvitations')}
            />
          </>
        )}
      </section>
      <ExportLinks shopId={shop.id} kind="invitations" role={shop.role} />
    </>
  );
}

/** One reminder e-mail when an invitation's link was not used after this many days (0: none); the operator's rule. */
function Reminders({ shopId }: { shopId: number }) {
  const settings = useLoad(
    () => api<{ reminder_days: number }>('GET', shopApi(shopId, '/invitations/settings')),
    String(shopId),
  );
  const [days, setDays] = useState<string | null>(null);
  const save = useAction();
  const shown = days ?? (settings.data ? String(settings.data.reminder_days) : '');
  const submit = async (event: Event) => {
    event.preventDefault();
    const ok = await save.run(() =>
      api('PATCH', shopApi(shopId, '/invitations/settings'), { reminder_days: Number(shown) }),
    );
    if (ok) {
      announce(Number(shown) === 0 ? t('remindersOff') : t('remindersSaved', { days: number(Number(shown)) }));
      setDays(null);
      settings.reload();
    }
  };
  return (
    <section aria-labelledby="reminders-title" class="card">
      <h2 id="reminders-title">{t('remindersTitle')}</h2>
      <p>{t('remindersHelp')}</p>
      {settings.loading && !settings.data ? (
        <Loading />
      ) : (
        <form onSubmit={submit} class="upload">
          <Field label={t('reminderDays')}>
            <input
              type="number"
              min={0}
              max={90}
              step={1}
              required
              inputMode="numeric"
              value={shown}
              onInput={(e) => setDays(fieldValue(e))}
            />
          </Field>
          <div class="actions">
            <button type="submit" disabled={save.busy}>
              {t('saveReminders')}
            </button>
          </div>
        </form>
      )}
      <ErrorLine error={settings.error ?? save.error} />
    </section>
  );
}

function CsvUpload({ shopId, onDone }: { shopId: number; onDone: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<Upload | null>(null);
  const [tooLarge, setTooLarge] = useState(false);
  const upload = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!file) return;
    if (file.size > MAX_BYTES) {
      setTooLarge(true);
      return;
    }
    setTooLarge(false);
    setResult(null);
    await upload.run(async () => {
      const answer = await api<Upload>('POST', shopApi(shopId, '/invitations/csv'), undefined, {
        raw: { body: file, type: 'text/csv' },
      });
      setResult(answer);
      onDone();
    });
  };
  return (
    <section aria-labelledby="csv-title" class="card">
      <h2 id="csv-title">{t('csvTitle')}</h2>
      <p>{t('csvHelp')}</p>
      <p>
        <code>email,order,name,language,delay</code>
      </p>
      <form onSubmit={submit} class="upload">
        <Field label={t('csvFile')} class="block">
          <input
            type="file"
            accept=".csv,text/csv"
            required
            onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? null)}
          />
        </Field>
        <div class="actions">
          <button type="submit" class="primary" disabled={upload.busy}>
            {t('upload')}
          </button>
        </div>
      </form>
      {tooLarge && (
        <p class="error" role="alert">
          {t('csvTooLarge')}
        </p>
      )}
      <ErrorLine error={upload.error} />
      <div role="status">
        {upload.busy && <p>{t('uploading')}</p>}
        {result && (
          <>
            <p>
              {t('csvResult', {
                queued: number(result.queued),
                skipped: number(result.skipped_duplicates),
                reviewed: number(result.skipped_reviewed ?? 0),
                errors: number(result.error_count ?? result.errors.length),
              })}
            </p>
            {result.errors.length > 0 && (
              <ul class="errors">
                {result.errors.slice(0, 200).map((e) => (
                  <li>{t('csvRowError', { row: e.row, message: e.message })}</li>
                ))}
                {(result.error_count ?? result.errors.length) > Math.min(200, result.errors.length) && (
                  <li>
                    {tn(
                      'moreErrors',
                      (result.error_count ?? result.errors.length) - Math.min(200, result.errors.length),
                    )}
                  </li>
                )}
              </ul>
            )}
          </>
        )}
      </div>
    </section>
  );
}
