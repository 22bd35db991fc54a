// The shop pop-up (sidebar, `Service`, `servicePopup`) and the reviews pop-up (`serviceReviews`).
import { Component } from 'preact';
import { api, ctx, date, plural, S, safeHref, t } from './env.js';
import { Badges, Stars, Summary, Title } from './ui.js';
import type { EmbedReview, ReviewsPage } from '../shared/api-types.js';
import type { StringKey } from '../strings/index.js';

const PAGE = 5;

/** Published reviews, newest first, five per page, with the shop's replies. */
class ReviewList extends Component<object, { page: number; data?: ReviewsPage | null }> {
  // data: undefined while the first page loads, null when loading failed. Each page shows until the next arrives.
  override state = { page: 0 } as { page: number; data?: ReviewsPage | null };
  /** The page last asked for (an answer for another page, or after the list has gone, is dropped). */
  asked = 0;

  override componentDidMount() {
    this.show(0);
  }

  override componentWillUnmount() {
    this.asked = -1;
  }

  show(page: number) {
    this.asked = page;
    this.setState({ page });
    void api<ReviewsPage>(`reviews.json?offset=${page * PAGE}&limit=${PAGE}`).then(
      (r) =>
        this.asked === page &&
        this.setState({ data: r.status === 200 && Array.isArray(r.body.reviews) ? r.body : null }),
    );
  }

  render() {
    const { page, data } = this.state;
    if (data === null)
      return (
        <p role="alert" class="err">
          {S.error}
        </p>
      );
    if (!data)
      return (
        <p class="mu" role="status">
          {S.loading}
        </p>
      );
    const { total, reviews } = data;
    if (!total) return <p class="mu">{S.noReviews}</p>;
    const pages = Math.ceil(total / PAGE);
    return (
      <div class="list">
        <ul>
          {reviews.map((r) => (
            <li key={r.id} class="review">
              <p class="who">
                <strong>{r.name}</strong>
                <span class="mu"> · {date(r.date)}</span>
              </p>
              <p class="rated">
                <Stars value={r.rating} />
                <span class="sr">{plural('stars', r.rating)}</span>
                <Labels r={r} />
              </p>
              {r.comment && <p class="text">{r.comment}</p>}
              {r.photos?.map((p) => (
                <a key={p.url} href={p.url} target="_blank" rel="noopener">
                  <img class="ph" src={p.thumb_url} alt={p.alt} width={64} height={64} loading="lazy" />
                </a>
              ))}
              {r.reply && (
                <div class="reply">
                  <p class="who">{t('replyFrom')}</p>
                  <p class="text">{r.reply}</p>
                </div>
              )}
              <a
                class="small"
                href={`${ctx.base}/reviews/${encodeURIComponent(r.id)}/report`}
                target="_blank"
                rel="noopener"
                aria-label={t('reportLabel', { name: r.name })}
              >
                {S.report}
              </a>
            </li>
          ))}
        </ul>
        {pages > 1 && (
          <nav class="pager" aria-label={t('reviewsOf')}>
            <button
              type="button"
              class="btn2"
              aria-disabled={page === 0}
              onClick={() => page > 0 && this.show(page - 1)}
            >
              {S.prev}
            </button>
            <span aria-live="polite">{t('pageOf', { p: page + 1, n: pages })}</span>
            <button
              type="button"
              class="btn2"
              aria-disabled={page >= pages - 1}
              onClick={() => page < pages - 1 && this.show(page + 1)}
            >
              {S.next}
            </button>
          </nav>
        )}
      </div>
    );
  }
}

/**
 * How the review came to us (issue 11), and whether the writer was offered something for it, each with what it
 * means for a screen reader. Reviews from a server before origins (no `origin`) show what `verified` says.
 */
function Labels({ r }: { r: EmbedReview }) {
  const origin = r.origin ?? (r.verified ? 'verified_order' : undefined);
  return (
    <>
      {origin && `origin_${origin}` in S && (
        <Label
          name={origin}
          text={
            origin === 'imported' && !r.imported_from
              ? S.imported
              : t(`origin_${origin}`, { platform: r.imported_from! })
          }
        />
      )}
      {r.incentivised && <Label name="incentivised" text={S.incentivised} />}
    </>
  );
}

function Label({ name, text }: { name: string; text: string }) {
  return (
    <span class={`lab ${name}`}>
      {text}
      <span class="sr"> ({t(`about_${name}` as StringKey)})</span>
    </span>
  );
}

function Footer() {
  const page = safeHref(ctx.shop.page);
  return (
    <p class="foot">
      {page ? (
        <a href={page} target="_blank" rel="noopener">
          {t('publicPage')}
        </a>
      ) : (
        t('poweredBy')
      )}
      {' · '}
      <a href={`${ctx.base}/webshops/${ctx.id}/policy`} target="_blank" rel="noopener">
        {S.policy}
      </a>
    </p>
  );
}

/** Key points (score, badges), the shop's details, and its reviews on request. */
export class ShopPopup extends Component<object, { showList?: boolean }> {
  render() {
    const { showList } = this.state;
    const site = safeHref(ctx.shop.url);
    return (
      <>
        <Title>{ctx.shop.name}</Title>
        <section aria-label={S.keyPoints}>
          <Summary />
          <Badges />
        </section>
        <h3>{S.details}</h3>
        <dl class="facts">
          <dt>{S.website}</dt>
          <dd>
            {site ? (
              <a href={site} target="_blank" rel="noopener">
                {site.replace(/^https?:\/\/(www\.)?/, '').replace(/\/$/, '')}
              </a>
            ) : (
              '–'
            )}
          </dd>
        </dl>
        <h3>{t('reviewsOf')}</h3>
        <button
          type="button"
          class="btn"
          aria-expanded={!!showList}
          onClick={() => this.setState({ showList: !showList })}
        >
          {S.showReviews}
        </button>
        {showList && <ReviewList />}
        <Footer />
      </>
    );
  }
}

export function ReviewsPopup() {
  return (
    <>
      <Title>{t('reviewsOf')}</Title>
      <Summary />
      <ReviewList />
      <Footer />
    </>
  );
}
