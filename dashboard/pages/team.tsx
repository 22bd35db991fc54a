// Team (owners): the shop's users with their roles, when and by whom each was added, who has not signed in since
// (nothing of their other shops: the server tells no more); adding, changing and removing users (the last owner stays: the server answers 409 last_owner); and the shop's audit
// trail: merchant actions (replies, settings, code rotation, team and webhook changes) and moderation.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, asPage, query, shopApi } from '../api.js';
import { dateTime, t } from '../i18n.js';
import type { Key } from '../strings/en.js';
import type { PageProps } from '../main.js';
import { me, announce } from '../state.js';
import { ROLES, type Role } from '../../server/accounts/roles.js';
import {
  Confirm,
  ErrorLine,
  Loading,
  PageHeading,
  Pager,
  useAction,
  useLoad,
  fieldValue,
  type Loaded,
  Field,
  RecordTable,
} from '../ui.js';
import type { TeamUser } from '../../server/accounts/openapi.js';
import type { DashboardAuditEntry } from '../../server/dashboard/contract.js';

/** `operator`, `system`, `writer` or `user:<id>`. */
type Actor = string | { kind: string; id?: string };

type AuditEntry = DashboardAuditEntry;

export default function TeamPage({ shop }: PageProps) {
  const users = useLoad(() => api<{ users: TeamUser[] }>('GET', shopApi(shop.id, '/users')), String(shop.id));
  return (
    <>
      <PageHeading title={t('pageTeam')} />
      <Users shopId={shop.id} users={users} />
      <Audit shopId={shop.id} users={users.data?.users ?? []} />
    </>
  );
}

function Users({ shopId, users }: { shopId: number; users: Loaded<{ users: TeamUser[] }> }) {
  const [removing, setRemoving] = useState<TeamUser | null>(null);
  const list = users.data?.users ?? [];
  // The Remove button that had the focus goes with its row: the focus would fall to the top of the document.
  const heading = useRef<HTMLHeadingElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (refocus.current && users.data) {
      refocus.current = false;
      heading.current?.focus();
    }
  }, [users.data]);
  return (
    <section aria-labelledby="users">
      <h2 id="users" tabIndex={-1} ref={heading}>
        {t('users')}
      </h2>
      <ErrorLine error={users.error} />
      {!users.data && users.loading && <Loading />}
      {list.length > 0 && (
        <div class="table-wrap">
          <table class="rows">
            <caption class="sr-only">{t('users')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('email')}</th>
                <th scope="col">{t('role')}</th>
                <th scope="col">{t('addedAt')}</th>
                <th scope="col">{t('addedBy')}</th>
                <th scope="col">{t('state')}</th>
                <th scope="col">{t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((u) => (
                <UserRow
                  key={u.id}
                  shopId={shopId}
                  user={u}
                  users={list}
                  // The server keeps a shop's last owner (409 last_owner): no button that can only fail.
                  onlyOwner={u.role === 'owner' && list.filter((o) => o.role === 'owner').length === 1}
                  onChange={users.reload}
                  onRemove={() => setRemoving(u)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <AddUser shopId={shopId} onAdded={users.reload} />
      {removing && (
        <Confirm
          title={t('removeUserTitle')}
          text={t('removeUserText', { email: removing.email })}
          confirm={t('remove')}
          danger
          onConfirm={async () => {
            await api('DELETE', shopApi(shopId, `/users/${removing.id}`));
            announce(t('userRemoved', { email: removing.email }));
            refocus.current = true;
            users.reload();
          }}
          onClose={() => setRemoving(null)}
        />
      )}
    </section>
  );
}

function UserRow(props: {
  shopId: number;
  user: TeamUser;
  users: TeamUser[];
  onlyOwner: boolean;
  onChange: () => void;
  onRemove: () => void;
}) {
  const { shopId, user, users, onlyOwner, onChange, onRemove } = props;
  const [role, setRole] = useState<Role>(user.role);
  const save = useAction();
  const you = String(me.value?.user.id) === String(user.id);
  const id = `role-${user.id}`;
  const submit = () =>
    save.run(async () => {
      await api('PATCH', shopApi(shopId, `/users/${user.id}`), { role });
      announce(t('roleChanged', { email: user.email, role: t(`role_${role}` as Key) }));
      onChange();
    });
  return (
    <tr>
      <td data-label={t('email')} class="break">
        {user.email}
        {you && <span class="muted"> ({t('you')})</span>}
      </td>
      <td data-label={t('role')}>
        <label class="sr-only" for={id}>
          {t('roleOf', { email: user.email })}
        </label>
        <select id={id} value={role} onChange={(e) => setRole(fieldValue(e) as Role)}>
          {ROLES.map((r) => (
            <option value={r}>{t(`role_${r}` as Key)}</option>
          ))}
        </select>
        {role !== user.role && (
          <button type="button" disabled={save.busy} onClick={submit}>
            {t('saveRole')}
          </button>
        )}
        <ErrorLine error={save.error} />
      </td>
      <td data-label={t('addedAt')}>{dateTime(user.added_at)}</td>
      <td data-label={t('addedBy')} class="break">
        {user.added_by ? actorName(user.added_by, users) : '–'}
      </td>
      <td data-label={t('state')}>
        {user.signed_in_since_added ? t('signedInOnce') : <span class="badge queued">{t('pending')}</span>}
      </td>
      <td data-label={t('actions')}>
        {onlyOwner ? (
          <span class="muted">{t('onlyOwner')}</span>
        ) : (
          <button type="button" class="danger" onClick={onRemove}>
            {t('remove')}
          </button>
        )}
      </td>
    </tr>
  );
}

function AddUser({ shopId, onAdded }: { shopId: number; onAdded: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('support');
  const add = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const ok = await add.run(() => api('POST', shopApi(shopId, '/users'), { email: email.trim(), role }));
    if (ok) {
      announce(t('userAdded', { email: email.trim() }));
      setEmail('');
      onAdded();
    }
  };
  return (
    <form class="card settings" onSubmit={submit} aria-labelledby="add-user">
      <h3 id="add-user">{t('addUser')}</h3>
      <p class="muted">{t('addUserHelp')}</p>
      <Field label={t('newUserEmail')} class="block">
        <input
          type="email"
          required
          autoComplete="off"
          maxLength={254}
          value={email}
          onInput={(e) => setEmail(fieldValue(e))}
        />
      </Field>
      <Field label={t('role')}>
        <select value={role} onChange={(e) => setRole(fieldValue(e) as Role)}>
          {ROLES.map((r) => (
            <option value={r}>{t(`role_${r}` as Key)}</option>
          ))}
        </select>
      </Field>
      <p class="muted">{t('rolesHelp')}</p>
      <ErrorLine error={add.error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={add.busy}>
          {t('addUser')}
        </button>
      </div>
    </form>
  );
}

const ACTIONS: Record<string, Key> = {
  'reply.created': 'audit_reply_created',
  'reply.replaced': 'audit_reply_created',
  'reply.edited': 'audit_reply_edited',
  'reply.deleted': 'audit_reply_deleted',
  'report.created': 'audit_report_created',
  'report.kept': 'audit_report_kept',
  'report.removed': 'audit_report_removed',
  'report.redacted': 'audit_report_redacted',
  'team.user_added': 'audit_team_user_added',
  'team.role_changed': 'audit_team_role_changed',
  'team.user_removed': 'audit_team_user_removed',
  'integration.code_revealed': 'audit_code_revealed',
  'integration.code_rotated': 'audit_code_rotated',
  'integration.settings_changed': 'audit_integration_settings',
  'widget.settings_changed': 'audit_widget_settings',
  'invitations.csv_uploaded': 'audit_csv_uploaded',
  'webhook.created': 'audit_webhook_created',
  'webhook.changed': 'audit_webhook_changed',
  'webhook.deleted': 'audit_webhook_deleted',
  'webhook.redelivered': 'audit_webhook_redelivered',
  'invitations.settings_changed': 'audit_invitation_settings',
  'review.imported': 'audit_review_imported',
  'review.changed': 'audit_review_changed',
  'review.deleted': 'audit_review_deleted',
  'webshop.created': 'audit_shop_created',
  'webshop.settings_changed': 'audit_shop_settings',
  'customer.erased': 'audit_customer_erased',
  'google_feed.key_rotated': 'audit_google_key_rotated',
  'import.started': 'audit_import_started',
  'import.approved': 'audit_import_approved',
  'import.done': 'audit_import_done',
  'import.failed': 'audit_import_failed',
  'import.undone': 'audit_import_undone',
  'import.removed': 'audit_import_removed',
  'import.held_kept': 'audit_import_held',
  'import.held_removed': 'audit_import_held',
};

/** A user as their address when they are on the team, else by number. */
function person(ref: string, users: TeamUser[]): string {
  const id = ref.slice(ref.indexOf(':') + 1);
  return users.find((u) => String(u.id) === id)?.email ?? t('userNumber', { id });
}

function actorName(actor: Actor, users: TeamUser[]): string {
  const who = typeof actor === 'string' ? actor : actor.id ? `${actor.kind}:${actor.id}` : actor.kind;
  if (who.startsWith('user:')) return person(who, users);
  if (who === 'operator') return t('actorOperator');
  if (who === 'system') return t('actorSystem');
  if (who === 'writer') return t('actorWriter');
  return who;
}

function target(ref: string | null, users: TeamUser[]): string {
  if (!ref) return '–';
  const [kind, id = ''] = ref.split(':');
  if (kind === 'user') return person(ref, users);
  if (kind === 'review') return t('reviewNumber', { id });
  if (kind === 'webhook') return t('webhookNumber', { id });
  return ref;
}

function Audit({ shopId, users }: { shopId: number; users: TeamUser[] }) {
  const [page, setPage] = useState(1);
  const entries = useLoad(
    () =>
      api<unknown>('GET', shopApi(shopId, `/audit${query({ page })}`)).then((v) => asPage<AuditEntry>(v, 'entries')),
    JSON.stringify([shopId, page]),
  );
  const data = entries.data;
  return (
    <section aria-labelledby="audit">
      <h2 id="audit">{t('auditTrail')}</h2>
      <p class="muted">{t('auditHelp')}</p>
      <ErrorLine error={entries.error} />
      {!data && entries.loading && <Loading />}
      {data && data.items.length === 0 && <p>{t('noAudit')}</p>}
      {data && data.items.length > 0 && (
        <RecordTable
          caption={t('auditTrail')}
          rows={data.items}
          columns={[
            { label: t('time'), cell: (e) => dateTime(e.at) },
            { label: t('who'), class: 'break', cell: (e) => actorName(e.actor, users) },
            { label: t('what'), cell: (e) => (ACTIONS[e.action] ? t(ACTIONS[e.action]!) : e.action) },
            { label: t('target'), class: 'break', cell: (e) => target(e.target, users) },
          ]}
        />
      )}
      {data && (
        <Pager
          page={page}
          pageSize={data.page_size || 20}
          total={data.total}
          onPage={setPage}
          label={t('pagesOfAudit')}
        />
      )}
    </section>
  );
}
