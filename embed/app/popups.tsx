// The shop pop-up (sidebar, `Service`, `servicePopup`) and the reviews pop-up (`serviceReviews`).
import { useEffect, useState } from 'preact/hooks';
import { api, ctx, date, S, safeHref, t } from './env.js';
import { Badges, Stars, Summary, Title } from './ui.js';

interface PublicReview {
  id: number;
  name: string;
  rating: number;
  comment: string | null;
  date: string;
  country: string;
  verified: boolean;
  reply: string | null;
}

const PAGE = 5;

/** Published reviews, newest first, five per page, with the shop's replies. */
export function ReviewList() {
  const [page, setPage] = useState(0);
  // undefined while loading, null when loading failed.
  const [data, setData] = useState<{ total: number; reviews: PublicReview[] } | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    api<{ total: number; reviews: PublicReview[] }>(`reviews.json?offset=${page * PAGE}&limit=${PAGE}`).then(
      (r) => live && setData(r.status === 200 && Array.isArray(r.body.reviews) ? r.body : null),
    );
    return () => void (live = false);
  }, [page]);

  if (data === null) return <p role="alert" class="err">{S.error}</p>;
  if (!data) return <p class="mu" role="status">{S.loading}</p>;
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
              <span class="sr">{t('stars_many', { n: r.rating })}</span>
              {r.verified && <span class="ver">{S.verified}</span>}
            </p>
            {r.comment && <p class="text">{r.comment}</p>}
            {r.reply && (
              <div class="reply">
                <p class="who">{t('replyFrom')}</p>
                <p class="text">{r.reply}</p>
              </div>
            )}
          </li>
        ))}
      </ul>
      {pages > 1 && (
        <nav class="pager" aria-label={t('reviewsOf')}>
          <button type="button" class="btn2" aria-disabled={page === 0} onClick={() => page > 0 && setPage(page - 1)}>
            {S.prev}
          </button>
          <span aria-live="polite">{t('pageOf', { p: page + 1, n: pages })}</span>
          <button type="button" class="btn2" aria-disabled={page >= pages - 1} onClick={() => page < pages - 1 && setPage(page + 1)}>
            {S.next}
          </button>
        </nav>
      )}
    </div>
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
    </p>
  );
}

/** Key points (score, badges), the shop's details, and its reviews on request. */
export function ShopPopup() {
  const [showList, setShowList] = useState(false);
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
        <dd>{site ? <a href={site} target="_blank" rel="noopener">{site.replace(/^https?:\/\/(www\.)?/, '').replace(/\/$/, '')}</a> : '–'}</dd>
      </dl>
      <h3>{t('reviewsOf')}</h3>
      <button type="button" class="btn" aria-expanded={showList} onClick={() => setShowList(!showList)}>
        {S.showReviews}
      </button>
      {showList && <ReviewList />}
      <Footer />
    </>
  );
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
