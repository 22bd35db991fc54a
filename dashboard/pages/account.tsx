// My sessions: every browser signed in as this user, each can be signed out; "sign out everywhere" is in the
// account menu.
import { api } from '../api.js';
import { dateTime, t } from '../i18n.js';
import { announce } from '../state.js';
import { ErrorLine, Loading, PageHeading, useAction, useLoad, RecordTable } from '../ui.js';
import type { Session } from '../../server/accounts/openapi.js';

/** "Chrome on Linux" from a user-agent string; the whole string stays available as the cell's text for the rest. */
function browserOf(agent: string): string {
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /Firefox\//.test(agent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(agent)
        ? 'Chrome'
        : /Safari\//.test(agent)
          ? 'Safari'
          : '';
  const system = /Android/.test(agent)
    ? 'Android'
    : /iPhone|iPad/.test(agent)
      ? 'iOS'
      : /Windows/.test(agent)
        ? 'Windows'
        : /Mac OS X/.test(agent)
          ? 'macOS'
          : /Linux/.test(agent)
            ? 'Linux'
            : '';
  return [browser, system].filter(Boolean).join(' · ') || agent || '?';
}

export default function AccountPage() {
  const sessions = useLoad(() => api<{ sessions: Session[] }>('GET', '/sessions'), 'sessions');
  const end = useAction();
  const signOut = (s: Session) =>
    end.run(async () => {
      await api('DELETE', `/sessions/${encodeURIComponent(s.id)}`);
      announce(t('sessionEnded'));
      sessions.reload();
    });
  const list = sessions.data?.sessions ?? [];
  return (
    <>
      <PageHeading title={t('pageAccount')} />
      <p class="muted">{t('sessionsHelp')}</p>
      <ErrorLine error={sessions.error ?? end.error} />
      {!sessions.data && sessions.loading && <Loading />}
      {list.length > 0 && (
        <RecordTable
          caption={t('pageAccount')}
          rows={list}
          columns={[
            {
              label: t('browser'),
              title: (s) => s.user_agent,
              cell: (s) => (
                <>
                  {browserOf(s.user_agent)}
                  {s.current && <strong> ({t('thisBrowser')})</strong>}
                </>
              ),
            },
            { label: t('signedInAt'), cell: (s) => dateTime(s.created) },
            { label: t('lastActive'), cell: (s) => dateTime(s.last_seen) },
            { label: t('expires'), cell: (s) => dateTime(s.expires) },
            {
              label: t('actions'),
              cell: (s) =>
                !s.current && (
                  <button type="button" disabled={end.busy} onClick={() => signOut(s)}>
                    {t('endSession')}
                  </button>
                ),
            },
          ]}
        />
      )}
    </>
  );
}
