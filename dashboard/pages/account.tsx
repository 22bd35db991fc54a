// My sessions: every browser signed in as this user, each can be signed out; "sign out everywhere" is in the
// account menu.
import { api } from '../api.js';
import { dateTime, t } from '../i18n.js';
import { announce } from '../state.js';
import { ErrorLine, Loading, PageHeading, useAction, useLoad } from '../ui.js';

interface Session {
  id: string;
  created: string;
  last_seen: string;
  expires: string;
  user_agent: string;
  current: boolean;
}

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
        <div class="table-wrap">
          <table class="rows">
            <caption class="sr-only">{t('pageAccount')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('browser')}</th>
                <th scope="col">{t('signedInAt')}</th>
                <th scope="col">{t('lastActive')}</th>
                <th scope="col">{t('expires')}</th>
                <th scope="col">{t('actions')}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <tr>
                  <td data-label={t('browser')} title={s.user_agent}>
                    {browserOf(s.user_agent)}
                    {s.current && <strong> ({t('thisBrowser')})</strong>}
                  </td>
                  <td data-label={t('signedInAt')}>{dateTime(s.created)}</td>
                  <td data-label={t('lastActive')}>{dateTime(s.last_seen)}</td>
                  <td data-label={t('expires')}>{dateTime(s.expires)}</td>
                  <td data-label={t('actions')}>
                    {!s.current && (
                      <button type="button" disabled={end.busy} onClick={() => signOut(s)}>
                        {t('endSession')}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
