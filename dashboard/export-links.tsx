// "Export reviews" / "Export invitations": two download links (CSV, JSON) for the roles that may export. Plain links
// the browser saves (the server streams the file; nothing is held in the page), so they work with the keyboard and
// without the page doing anything. Whose e-mail addresses are in the file is said next to them.
import { can, type Role } from '../server/accounts/roles.js';
import { t } from './i18n.js';
import type { Key } from './strings/en.js';

export function ExportLinks({ shopId, kind, role }: { shopId: number; kind: 'reviews' | 'invitations'; role: Role }) {
  if (!can(role, 'export')) return null;
  const href = (format: 'csv' | 'json') => `/dashboard/api/shops/${shopId}/${kind}/export?format=${format}`;
  const heading = `export-${kind}`;
  const note: Key =
    kind === 'invitations'
      ? 'exportInvitationsNote'
      : role === 'owner'
        ? 'exportReviewsNoteOwner'
        : 'exportReviewsNote';
  return (
    <section class="export" aria-labelledby={heading}>
      <h2 id={heading}>{t(kind === 'reviews' ? 'exportReviews' : 'exportInvitations')}</h2>
      <p class="muted">{t(note)}</p>
      <p class="actions">
        <a class="button" href={href('csv')} download>
          {t('exportCsv')}
        </a>
        <a class="button" href={href('json')} download>
          {t('exportJson')}
        </a>
      </p>
    </section>
  );
}
