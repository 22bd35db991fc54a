// Integration: the shop id, the API code (shown on request, rotated after a confirmation), whether order data must
// be signed, which shop plugins are calling, and the webhooks (create, edit, turn off, delete, delivery log,
// redeliver) with the same rules as the classic webhook endpoints.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, asPage, query, shopApi, type Page } from '../api.js';
import { dateTime, number, t } from '../i18n.js';
import type { PageProps } from '../main.js';
import { announce } from '../state.js';
import {
  checkedOf,
  Confirm,
  CopyButton,
  ErrorLine,
  Loading,
  PageHeading,
  Pager,
  useAction,
  useLoad,
  fieldValue,
  Field,
  RecordTable,
} from '../ui.js';
import type { DashboardDelivery, DashboardWebhook, Integration } from '../../server/dashboard/contract.js';

type Webhook = DashboardWebhook;
type Delivery = DashboardDelivery;

const TOPICS = ['reviews.created', 'reviews.updated', 'reviews.deleted'] as const;

export default function IntegrationPage({ shop }: PageProps) {
  const info = useLoad(() => api<Integration>('GET', shopApi(shop.id, '/integration')), String(shop.id));
  return (
    <>
      <PageHeading title={t('pageIntegration')} />
      <ErrorLine error={info.error} />
      {!info.data && info.loading && <Loading />}
      {info.data && (
        <>
          <section aria-labelledby="credentials" class="card">
            <h2 id="credentials">{t('credentials')}</h2>
            <dl class="pairs">
              <div>
                <dt>{t('shopId')}</dt>
                <dd>
                  <code>{info.data.shop_id}</code>
                </dd>
              </div>
            </dl>
            <ApiCode shopId={shop.id} />
          </section>
          <SignedOrderData shopId={shop.id} initial={info.data.require_signed_order_data} />
          <Webhooks shopId={shop.id} />
          <Plugins plugins={info.data.plugins} />
        </>
      )}
    </>
  );
}

function ApiCode({ shopId }: { shopId: number }) {
  const [code, setCode] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const reveal = useAction();
  const show = () =>
    reveal.run(async () => {
      setCode((await api<{ code: string }>('POST', shopApi(shopId, '/integration/code/reveal'))).code);
    });
  return (
    <div class="api-code">
      <h3>{t('apiCode')}</h3>
      <p class="muted">{t('apiCodeHelp')}</p>
      {code ? (
        <p class="code-line">
          <code class="secret">{code}</code>
          <CopyButton text={code} label={t('copyApiCode')} />
          <button type="button" onClick={() => setCode(null)}>
            {t('hideApiCode')}
          </button>
        </p>
      ) : (
        <p>
          <button type="button" disabled={reveal.busy} onClick={show}>
            {t('showApiCode')}
          </button>
        </p>
      )}
      <ErrorLine error={reveal.error} />
      <p>
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          {t('rotateApiCode')}
        </button>
      </p>
      {confirming && (
        <Confirm
          title={t('rotateTitle')}
          text={t('rotateText')}
          confirm={t('rotate')}
          danger
          onConfirm={async () => {
            setCode((await api<{ code: string }>('POST', shopApi(shopId, '/integration/code/rotate'))).code);
            announce(t('rotated'));
          }}
          onClose={() => setConfirming(false)}
        />
      )}
    </div>
  );
}

function SignedOrderData({ shopId, initial }: { shopId: number; initial: boolean }) {
  const [value, setValue] = useState(initial);
  const save = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await save.run(() => api('PATCH', shopApi(shopId, '/integration'), { require_signed_order_data: value })))
      announce(t('settingsSaved'));
  };
  return (
    <section aria-labelledby="signed" class="card">
      <h2 id="signed">{t('orderData')}</h2>
      <form onSubmit={submit}>
        <label class="check">
          <input
            type="checkbox"
            checked={value}
            aria-describedby="signed-help"
            onChange={(e) => setValue(checkedOf(e))}
          />
          <span>{t('requireSigned')}</span>
        </label>
        <p id="signed-help" class="muted">
          {t('requireSignedHelp')}
        </p>
        <ErrorLine error={save.error} />
        <button type="submit" class="primary" disabled={save.busy}>
          {t('saveSetting')}
        </button>
      </form>
    </section>
  );
}

function Plugins({ plugins }: { plugins: Integration['plugins'] }) {
  return (
    <section aria-labelledby="plugins">
      <h2 id="plugins">{t('plugins')}</h2>
      {plugins.length === 0 ? (
        <p>{t('noPlugins')}</p>
      ) : (
        <RecordTable
          caption={t('plugins')}
          rows={plugins}
          columns={[
            { label: t('client'), cell: (p) => p.client || '–' },
            { label: t('platformVersion'), cell: (p) => p.platform_version || '–' },
            { label: t('pluginVersion'), cell: (p) => p.plugin_version || '–' },
            { label: t('lastSeen'), cell: (p) => dateTime(p.last_seen) },
            { label: t('pageInvitations'), cell: (p) => number(p.invitations) },
          ]}
        />
      )}
    </section>
  );
}

type Editing = { kind: 'add' } | { kind: 'edit'; webhook: Webhook } | null;

function Webhooks({ shopId }: { shopId: number }) {
  const [page, setPage] = useState(1);
  const list = useLoad(
    () => api<unknown>('GET', shopApi(shopId, `/webhooks${query({ page })}`)).then((v) => asPage<Webhook>(v)),
    JSON.stringify([shopId, page]),
  );
  const [editing, setEditing] = useState<Editing>(null);
  const [log, setLog] = useState<Webhook | null>(null);
  const [removing, setRemoving] = useState<Webhook | null>(null);
  const toggle = useAction();
  const data = list.data;
  const hooks = data?.items ?? [];
  // Deleting the only webhook of the last page leaves that page empty: show the page before it.
  useEffect(() => {
    if (data && data.items.length === 0 && data.total > 0 && page > 1)
      setPage(Math.ceil(data.total / (data.page_size || 20)));
  }, [data]);
  // The form goes when it is saved or cancelled, and the focus with it: back to the button in its place.
  const addButton = useRef<HTMLButtonElement>(null);
  const formClosed = useRef(false);
  useEffect(() => {
    if (!editing && formClosed.current) {
      formClosed.current = false;
      addButton.current?.focus();
    }
  }, [editing]);
  const setActive = (w: Webhook) =>
    toggle.run(async () => {
      await api('PATCH', shopApi(shopId, `/webhooks/${w.id}`), { is_active: !w.is_active });
      announce(w.is_active ? t('webhookOff') : t('webhookOn'));
      list.reload();
    });
  return (
    <section aria-labelledby="webhooks">
      <h2 id="webhooks">{t('webhooks')}</h2>
      <p class="muted">{t('webhooksHelp')}</p>
      <ErrorLine error={list.error ?? toggle.error} />
      {hooks.length > 0 && (
        <RecordTable
          caption={t('webhooks')}
          rows={hooks}
          columns={[
            { label: t('event'), cell: (w) => w.topic },
            {
              label: t('url'),
              class: 'break',
              cell: (w) => (
                <>
                  {w.url}
                  {w.secret && (
                    <details>
                      <summary>{t('secret')}</summary>
                      <code class="secret">{w.secret}</code>
                    </details>
                  )}
                </>
              ),
            },
            {
              label: t('state'),
              cell: (w) => (
                <>
                  {w.is_active ? t('active') : t('inactive')}
                  {w.disabled_reason && <span class="reason">{w.disabled_reason}</span>}
                </>
              ),
            },
            {
              label: t('actions'),
              class: 'row-actions',
              cell: (w) => (
                <>
                  <button type="button" onClick={() => setLog(w)}>
                    {t('deliveries')}
                  </button>
                  <button type="button" onClick={() => setEditing({ kind: 'edit', webhook: w })}>
                    {t('edit')}
                  </button>
                  <button type="button" disabled={toggle.busy} onClick={() => setActive(w)}>
                    {w.is_active ? t('turnOff') : t('turnOn')}
                  </button>
                  <button type="button" class="danger" onClick={() => setRemoving(w)}>
                    {t('delete')}
                  </button>
                </>
              ),
            },
          ]}
        />
      )}
      {data && (
        <Pager
          page={page}
          pageSize={data.page_size || 20}
          total={data.total}
          onPage={setPage}
          label={t('pagesOfWebhooks')}
        />
      )}
      {data && data.total === 0 && <p>{t('noWebhooks')}</p>}
      {editing ? (
        <WebhookForm
          shopId={shopId}
          webhook={editing.kind === 'edit' ? editing.webhook : null}
          onDone={(saved) => {
            formClosed.current = true;
            setEditing(null);
            if (!saved) return;
            // A new webhook is the newest: it is on the first page.
            if (editing.kind === 'add' && page !== 1) setPage(1);
            else list.reload();
          }}
        />
      ) : (
        <p>
          <button type="button" class="primary" ref={addButton} onClick={() => setEditing({ kind: 'add' })}>
            {t('addWebhook')}
          </button>
        </p>
      )}
      {log && <DeliveryLog shopId={shopId} webhook={log} onClose={() => setLog(null)} />}
      {removing && (
        <Confirm
          title={t('deleteWebhookTitle')}
          text={t('deleteWebhookText', { url: removing.url })}
          confirm={t('delete')}
          danger
          onConfirm={async () => {
            await api('DELETE', shopApi(shopId, `/webhooks/${removing.id}`));
            if (log?.id === removing.id) setLog(null);
            announce(t('webhookDeleted'));
            list.reload();
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </section>
  );
}

function WebhookForm({
  shopId,
  webhook,
  onDone,
}: {
  shopId: number;
  webhook: Webhook | null;
  onDone: (saved: boolean) => void;
}) {
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [topic, setTopic] = useState(webhook?.topic ?? TOPICS[0]);
  const [active, setActive] = useState(webhook?.is_active ?? true);
  const save = useAction();
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), [webhook?.id]);
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = { url: url.trim(), topic, is_active: active };
    const ok = await save.run(() =>
      webhook
        ? api('PATCH', shopApi(shopId, `/webhooks/${webhook.id}`), body)
        : api('POST', shopApi(shopId, '/webhooks'), body),
    );
    if (ok) {
      announce(t('webhookSaved'));
      onDone(true);
    }
  };
  return (
    <form class="card settings" onSubmit={submit} aria-labelledby="webhook-form">
      <h3 id="webhook-form">{webhook ? t('editWebhook') : t('addWebhook')}</h3>
      <Field label={t('url')} class="block">
        <input type="url" required maxLength={2000} value={url} ref={field} onInput={(e) => setUrl(fieldValue(e))} />
      </Field>
      <Field label={t('event')}>
        <select value={topic} onChange={(e) => setTopic(fieldValue(e) as Webhook['topic'])}>
          {TOPICS.map((topic) => (
            <option value={topic}>{topic}</option>
          ))}
        </select>
      </Field>
      <label class="check">
        <input type="checkbox" checked={active} onChange={(e) => setActive(checkedOf(e))} />
        <span>{t('active')}</span>
      </label>
      <ErrorLine error={save.error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={save.busy}>
          {t('saveWebhook')}
        </button>
        <button type="button" onClick={() => onDone(false)}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

function DeliveryLog({ shopId, webhook, onClose }: { shopId: number; webhook: Webhook; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const entries = useLoad(
    () =>
      api<unknown>('GET', shopApi(shopId, `/webhooks/${webhook.id}/deliveries${query({ page })}`)).then((v) =>
        asPage<Delivery>(v),
      ),
    JSON.stringify([webhook.id, page]),
  );
  const redeliver = useAction();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [webhook.id]);
  const data: Page<Delivery> | undefined = entries.data;
  const again = (eventId: string) =>
    redeliver.run(async () => {
      await api('POST', shopApi(shopId, `/webhooks/${webhook.id}/redeliver`), { event_id: eventId });
      announce(t('redeliverQueued'));
      entries.reload();
    });
  return (
    <section class="card" aria-labelledby="log-title">
      <h3 id="log-title" tabIndex={-1} ref={heading}>
        {t('deliveriesOf', { url: webhook.url })}
      </h3>
      <div class="actions">
        <button type="button" onClick={entries.reload}>
          {t('refresh')}
        </button>
        <button type="button" onClick={onClose}>
          {t('close')}
        </button>
      </div>
      <ErrorLine error={entries.error ?? redeliver.error} />
      {entries.loading && !data && <Loading />}
      {data && data.items.length === 0 && <p>{t('noDeliveries')}</p>}
      {data && data.items.length > 0 && (
        <RecordTable
          labelledBy="log-title"
          rows={data.items}
          columns={[
            { label: t('time'), cell: (d) => dateTime(d.time) },
            { label: t('event'), cell: (d) => d.topic },
            { label: t('eventId'), cell: (d) => <code>{d.event_id}</code> },
            { label: t('attempt'), cell: (d) => `${number(d.attempt)}${d.redelivery ? ` (${t('redelivery')})` : ''}` },
            { label: t('result'), cell: (d) => d.http_status ?? d.error ?? '–' },
            { label: t('duration'), cell: (d) => t('ms', { n: number(d.duration_ms) }) },
            {
              label: t('actions'),
              cell: (d) => (
                <button type="button" disabled={redeliver.busy} onClick={() => again(d.event_id)}>
                  {t('redeliver')}
                </button>
              ),
            },
          ]}
        />
      )}
      {data && (
        <Pager
          page={page}
          pageSize={data.page_size || 20}
          total={data.total}
          onPage={setPage}
          label={t('pagesOfDeliveries')}
        />
      )}
    </section>
  );
}
