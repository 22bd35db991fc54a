// Reviews: newest first, paged, filtered (rating, status, language, reply, unread, dates) and searched; per review:
// reply (optionally notifying the reviewer, for roles that may), edit or delete the reply, mark read or unread,
// report it to the operator with a ground. There is no control to delete or hide a review: the shop cannot gate its reviews.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, asPage, query, shopApi, type Page } from '../api.js';
import { date, t, tn } from '../i18n.js';
import type { Key } from '../strings/en.js';
import type { PageProps } from '../main.js';
import { can } from '../../server/accounts/roles.js';
import { filtersOf, filterQuery, LANGUAGE_CODES, NO_FILTERS, STATUSES, type Filters } from '../review-filters.js';
import type { Ground } from '../../server/moderation/schema.js';
import { announce } from '../state.js';
import { ExportLinks } from '../export-links.js';
import {
  checkedOf,
  Confirm,
  Dialog,
  ErrorLine,
  Loading,
  PageHeading,
  Pager,
  useAction,
  useLoad,
  fieldValue,
  Field,
} from '../ui.js';
import type { DashboardReview } from '../../server/dashboard/contract.js';

type Review = DashboardReview;

/** The grounds of the operator's report queue (server/moderation/schema.ts), in the order the form shows them. */
const GROUNDS = [
  'not_experience',
  'offensive',
  'personal_data',
  'spam',
  'conflict_of_interest',
  'other',
] as const satisfies readonly Ground[];
const PAGE_SIZE = 20;
/** Writes the filters into the address in place (no history entry per filter change), keeping `shop`. */
function keepInAddress(filters: Filters, page: number): void {
  const url = new URL(location.href);
  for (const key of [...Object.keys(NO_FILTERS), 'page']) url.searchParams.delete(key);
  new URLSearchParams(filterQuery(filters, page).slice(1)).forEach((value, key) => {
    url.searchParams.set(key, value);
  });
  history.replaceState(history.state, '', url);
}

export default function ReviewsPage({ shop }: PageProps) {
  const [initial] = useState(() => filtersOf(location.search));
  const [draft, setDraft] = useState<Filters>(initial.filters);
  const [filters, setFilters] = useState<Filters>(initial.filters);
  const [page, setPage] = useState(initial.page);
  useEffect(() => keepInAddress(filters, page), [filters, page]);
  // On a phone the less used filters start folded, so the reviews are not a screen away.
  const [wide] = useState(() => {
    const f = initial.filters;
    return matchMedia('(min-width: 40rem)').matches || !!(f.language || f.reply || f.from || f.to || f.unread);
  });
  const key = JSON.stringify([shop.id, filters, page]);
  const list = useLoad(
    () =>
      api<unknown>('GET', shopApi(shop.id, `/reviews${query({ ...filters, page, page_size: PAGE_SIZE })}`)).then((v) =>
        asPage<Review>(v),
      ),
    key,
  );
  const [items, setItems] = useState<Review[] | null>(null);
  useEffect(() => {
    if (!list.data) return;
    setItems(list.data.items);
    announce(tn('reviewsFound', list.data.total));
  }, [list.data]);

  const set = (patch: Partial<Filters>) => setDraft({ ...draft, ...patch });
  const apply = (event: Event) => {
    event.preventDefault();
    setPage(1);
    setFilters(draft);
  };
  const clear = () => {
    setDraft(NO_FILTERS);
    setFilters(NO_FILTERS);
    setPage(1);
  };
  const replace = (updated: Review) => setItems((all) => all?.map((r) => (r.id === updated.id ? updated : r)) ?? null);
  const data: Page<Review> | undefined = list.data;

  return (
    <>
      <PageHeading title={t('pageReviews')} />
      {/* biome-ignore lint/a11y/useSemanticElements: <form role=search> is the search landmark; <search> would add a wrapper element around the form */}
      <form class="filters" role="search" aria-label={t('filtersLabel')} onSubmit={apply}>
        <Field label={t('searchReviews')} class="wide">
          <input type="search" value={draft.q} maxLength={200} onInput={(e) => set({ q: fieldValue(e) })} />
        </Field>
        <Field label={t('rating')}>
          <select value={draft.rating} onChange={(e) => set({ rating: fieldValue(e) })}>
            <option value="">{t('anyRating')}</option>
            {[5, 4, 3, 2, 1].map((n) => (
              <option value={String(n)}>{tn('stars', n)}</option>
            ))}
          </select>
        </Field>
        <Field label={t('status')}>
          <select value={draft.status} onChange={(e) => set({ status: fieldValue(e) })}>
            <option value="">{t('anyStatus')}</option>
            {STATUSES.map((s) => (
              <option value={s}>{t(`status_${s}` as Key)}</option>
            ))}
          </select>
        </Field>
        <details class="more" open={wide}>
          <summary>{t('moreFilters')}</summary>
          <div class="more-fields">
            <Field label={t('reviewLanguage')}>
              <select value={draft.language} onChange={(e) => set({ language: fieldValue(e) })}>
                <option value="">{t('anyLanguage')}</option>
                {LANGUAGE_CODES.map((code) => (
                  <option value={code}>{t(`lang_${code}` as Key)}</option>
                ))}
              </select>
            </Field>
            <Field label={t('replyFilter')}>
              <select value={draft.reply} onChange={(e) => set({ reply: fieldValue(e) })}>
                <option value="">{t('replyAny')}</option>
                <option value="with">{t('replyWith')}</option>
                <option value="without">{t('replyWithout')}</option>
              </select>
            </Field>
            <Field label={t('from')}>
              <input type="date" value={draft.from} onInput={(e) => set({ from: fieldValue(e) })} />
            </Field>
            <Field label={t('to')}>
              <input
                type="date"
                value={draft.to}
                min={draft.from || undefined}
                onInput={(e) => set({ to: fieldValue(e) })}
              />
            </Field>
            <label class="check">
              <input type="checkbox" checked={draft.unread} onChange={(e) => set({ unread: checkedOf(e) })} />
              <span>{t('unreadOnly')}</span>
            </label>
          </div>
        </details>
        <div class="actions">
          <button type="submit" class="primary">
            {t('applyFilters')}
          </button>
          <button type="button" onClick={clear}>
            {t('clearFilters')}
          </button>
        </div>
      </form>
      <ErrorLine error={list.error} />
      {!data && list.loading && <Loading />}
      {data && (
        <>
          <p class="muted">{tn('reviewsFound', data.total)}</p>
          {items && items.length === 0 && <p>{t('noReviews')}</p>}
          <div class="reviews">
            {items?.map((review) => (
              <ReviewCard key={review.id} review={review} shopId={shop.id} role={shop.role} onChange={replace} />
            ))}
          </div>
          <Pager page={page} pageSize={PAGE_SIZE} total={data.total} onPage={setPage} label={t('pagesOfReviews')} />
        </>
      )}
      <ExportLinks shopId={shop.id} kind="reviews" role={shop.role} />
    </>
  );
}

function ReviewCard({
  review,
  shopId,
  role,
  onChange,
}: {
  review: Review;
  shopId: number;
  role: PageProps['shop']['role'];
  onChange: (r: Review) => void;
}) {
  const [mode, setMode] = useState<'view' | 'reply' | 'edit'>('view');
  const [dialog, setDialog] = useState<'delete' | 'report' | null>(null);
  const actions = useRef<HTMLDivElement>(null);
  const focusActions = () => setTimeout(() => actions.current?.querySelector('button')?.focus(), 0);
  const read = useAction();
  const path = (rest: string) => shopApi(shopId, `/reviews/${review.id}${rest}`);
  const headingId = `review-${review.id}`;

  const toggleRead = () =>
    read.run(async () => {
      onChange(await api<Review>('POST', path('/read'), { read: !review.read }));
      announce(review.read ? t('markedUnread') : t('markedRead'));
    });

  return (
    <article class={review.read ? 'review' : 'review unread'} aria-labelledby={headingId}>
      <header>
        <h2 id={headingId}>{review.name || t('anonymous')}</h2>
        <p class="rating">
          <span class="stars" aria-hidden="true">
            {'★'.repeat(review.rating)}
            <span class="off">{'★'.repeat(Math.max(0, 5 - review.rating))}</span>
          </span>{' '}
          {t('ratingOutOf5', { n: review.rating })}
        </p>
      </header>
      <p class="meta">
        <span>{date(review.created)}</span>
        <span class={`badge ${review.status}`}>{t(`status_${review.status}` as Key)}</span>
        {!review.read && <span class="badge unread">{t('unread')}</span>}
        {review.language && <span>{review.language.toUpperCase()}</span>}
        {review.country && <span>{review.country}</span>}
        {review.order && <span>{t('orderNumber', { order: review.order })}</span>}
        <span>{t(`origin_${review.origin}` as Key) ?? review.origin}</span>
        {review.incentivised && <span>{t('incentivised')}</span>}
      </p>
      {review.comment ? <p class="comment">{review.comment}</p> : <p class="muted">{t('noComment')}</p>}
      {review.photos?.length ? (
        <p class="photos">
          {review.photos.map((p) => (
            <a href={p.url} target="_blank" rel="noopener">
              <img src={p.thumb_url} alt={p.alt} width={p.thumb_width} height={p.thumb_height} loading="lazy" />
            </a>
          ))}
        </p>
      ) : null}
      <SubRatings ratings={review.ratings} />
      {review.reply && mode !== 'edit' && (
        <div class="reply">
          <h3>{t('shopReply')}</h3>
          <p>{review.reply.text}</p>
          <p class="muted">{date(review.reply.date)}</p>
        </div>
      )}
      {mode !== 'view' ? (
        <ReplyForm
          review={review}
          editing={mode === 'edit'}
          mayNotify={can(role, 'notify')}
          path={path('/reply')}
          onDone={(updated) => {
            if (updated) {
              onChange(updated);
              announce(t('replySaved'));
            }
            setMode('view');
            focusActions();
          }}
        />
      ) : (
        <div class="actions" ref={actions}>
          {can(role, 'reply') && !review.reply && review.status !== 'deleted' && (
            <button type="button" onClick={() => setMode('reply')}>
              {t('reply')}
            </button>
          )}
          {can(role, 'reply') && review.reply && (
            <>
              <button type="button" onClick={() => setMode('edit')}>
                {t('editReply')}
              </button>
              <button type="button" onClick={() => setDialog('delete')}>
                {t('deleteReply')}
              </button>
            </>
          )}
          {can(role, 'mark_read') && (
            <button type="button" disabled={read.busy} onClick={toggleRead}>
              {review.read ? t('markUnread') : t('markRead')}
            </button>
          )}
          {can(role, 'report') && review.status !== 'deleted' && (
            <button type="button" onClick={() => setDialog('report')}>
              {t('report')}
            </button>
          )}
        </div>
      )}
      <ErrorLine error={read.error} />
      {dialog === 'delete' && (
        <Confirm
          title={t('deleteReply')}
          text={t('deleteReplyText')}
          confirm={t('deleteReply')}
          danger
          onConfirm={async () => {
            onChange(await api<Review>('DELETE', path('/reply')));
            announce(t('replyDeleted'));
            focusActions();
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'report' && (
        <ReportDialog path={path('/report')} name={review.name} onClose={() => setDialog(null)} />
      )}
    </article>
  );
}

const SUB_RATINGS: Record<string, Key> = {
  shippingtime: 'subShippingtime',
  customerservice: 'subCustomerservice',
  pricequality: 'subPricequality',
  aftersale: 'subAftersale',
};

/** The sub-scores the reviewer gave (0 means not given). */
function SubRatings({ ratings }: { ratings: Record<string, number> }) {
  const given = Object.entries(ratings ?? {}).filter(([key, value]) => value > 0 && SUB_RATINGS[key]);
  if (given.length === 0) return null;
  return (
    <dl class="subs">
      {given.map(([key, value]) => (
        <div>
          <dt>{t(SUB_RATINGS[key]!)}</dt>
          <dd>{t('ratingOutOf5', { n: value })}</dd>
        </div>
      ))}
    </dl>
  );
}

function ReplyForm(props: {
  review: Review;
  editing: boolean;
  mayNotify: boolean;
  path: string;
  onDone: (r?: Review) => void;
}) {
  const { review, editing, mayNotify, path, onDone } = props;
  const [text, setText] = useState(editing ? (review.reply?.text ?? '') : '');
  const [notify, setNotify] = useState(false);
  const save = useAction();
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    field.current?.focus();
  }, []);
  const id = `reply-${review.id}`;
  const submit = async (event: Event) => {
    event.preventDefault();
    let updated: Review | undefined;
    const ok = await save.run(async () => {
      updated = editing
        ? await api<Review>('PATCH', path, { text })
        : await api<Review>('POST', path, { text, notify });
    });
    if (ok) onDone(updated);
  };
  return (
    <form class="reply-form" onSubmit={submit}>
      <label for={id}>{t('yourReply')}</label>
      <textarea
        id={id}
        ref={field}
        rows={4}
        required
        maxLength={10000}
        value={text}
        onInput={(e) => setText(fieldValue(e))}
      />
      {!editing && mayNotify && (
        <label class="check">
          <input type="checkbox" checked={notify} onChange={(e) => setNotify(checkedOf(e))} />
          <span>{t('notifyReviewer')}</span>
        </label>
      )}
      <ErrorLine error={save.error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={save.busy}>
          {t('saveReply')}
        </button>
        <button type="button" onClick={() => onDone()}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

function ReportDialog({ path, name, onClose }: { path: string; name: string; onClose: () => void }) {
  const [ground, setGround] = useState<string>('');
  const [text, setText] = useState('');
  const send = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const ok = await send.run(() => api('POST', path, { ground, text }));
    if (ok) {
      announce(t('reportSent'));
      onClose();
    }
  };
  return (
    <Dialog title={t('reportTitle', { name: name || t('anonymous') })} onClose={onClose}>
      <form onSubmit={submit}>
        <p>{t('reportIntro')}</p>
        <fieldset>
          <legend>{t('ground')}</legend>
          {GROUNDS.map((g) => (
            <label class="check">
              <input
                type="radio"
                name="ground"
                value={g}
                required
                checked={ground === g}
                onChange={() => setGround(g)}
              />
              <span>{t(`ground_${g}` as Key)}</span>
            </label>
          ))}
        </fieldset>
        <Field label={t('reportText')} class="block">
          <textarea rows={3} maxLength={2000} value={text} onInput={(e) => setText(fieldValue(e))} />
        </Field>
        <ErrorLine error={send.error} />
        <div class="actions">
          <button type="submit" class="primary" disabled={send.busy}>
            {t('sendReport')}
          </button>
          <button type="button" onClick={onClose}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
