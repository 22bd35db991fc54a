// Google: the product review feed's address to paste into Merchant Center (with its secret key, rotated after a
// confirmation), when Google last fetched it, and Google's published thresholds each beside this shop's figure
// (server/feed/readiness.ts). Owners and managers (action `google`).
import { useState } from 'preact/hooks';
import { api, shopApi } from '../api.js';
import { dateTime, language, number, t } from '../i18n.js';
import type { PageProps } from '../main.js';
import { announce } from '../state.js';
import { Confirm, CopyButton, ErrorLine, Loading, PageHeading, RecordTable, useLoad } from '../ui.js';
import type { FeedAccess, GoogleSection } from '../../server/feed/google-service.js';

type Country = GoogleSection['readiness']['store_reviews_12_months']['countries'][number];

const status = (meets: boolean) => (
  <span class={meets ? 'ok' : 'muted'}>{meets ? t('googleMet') : t('googleNotMet')}</span>
);

function countryName(code: string): string {
  if (code === 'unknown') return t('googleUnknownCountry');
  try {
    return new Intl.DisplayNames([language.value], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

const score = (value: number | null) =>
  value === null ? t('googleNone') : t('googleOutOf5', { score: number(value, 1) });

export default function GooglePage({ shop }: PageProps) {
  const info = useLoad(() => api<GoogleSection>('GET', shopApi(shop.id, '/google')), String(shop.id));
  const [access, setAccess] = useState<FeedAccess | null>(null);
  const data = info.data;
  const feed = access ?? data;
  return (
    <>
      <PageHeading title={t('pageGoogle')} />
      <p class="muted">{t('googleIntro')}</p>
      <ErrorLine error={info.error} />
      {!data && info.loading && <Loading />}
      {data && feed && (
        <>
          <FeedSection shopId={shop.id} feed={feed} onRotated={setAccess} />
          {data.has_imported_reviews && (
            <p class="card" role="note">
              {data.readiness.imported_reviews
                ? t('googleImported', { n: number(data.readiness.imported_reviews) })
                : t('googleImportedProducts')}
            </p>
          )}
          <Readiness section={data} />
        </>
      )}
    </>
  );
}

function FeedSection({
  shopId,
  feed,
  onRotated,
}: {
  shopId: number;
  feed: FeedAccess;
  onRotated: (access: FeedAccess) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <section aria-labelledby="google-feed" class="card">
      <h2 id="google-feed">{t('googleFeed')}</h2>
      <dl class="pairs">
        <div>
          <dt id="google-feed-url">{t('googleFeedUrl')}</dt>
          <dd>
            <code class="secret" aria-describedby="google-feed-help">
              {feed.url}
            </code>
          </dd>
        </div>
        <div>
          <dt>{t('googleLastFetch')}</dt>
          <dd>{feed.last_fetched_at ? dateTime(feed.last_fetched_at) : t('googleNeverFetched')}</dd>
        </div>
      </dl>
      <p id="google-feed-help" class="muted">
        {t('googleFeedHelp')}
      </p>
      <p class="code-line">
        <CopyButton text={feed.url} label={t('copyGoogleFeedUrl')} />
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          {t('rotateGoogleKey')}
        </button>
      </p>
      {confirming && (
        <Confirm
          title={t('rotateGoogleTitle')}
          text={t('rotateGoogleText')}
          confirm={t('rotateGoogleKey')}
          danger
          onConfirm={async () => {
            onRotated(await api<FeedAccess>('POST', shopApi(shopId, '/google/key')));
            announce(t('googleKeyRotated'));
          }}
          onClose={() => setConfirming(false)}
        />
      )}
    </section>
  );
}

interface Row {
  measure: string;
  threshold: string;
  figure: string;
  meets: boolean | null;
}

function Readiness({ section }: { section: GoogleSection }) {
  const r = section.readiness;
  const rows: Row[] = [
    {
      measure: t('googleProductReviews'),
      threshold: t('googleAbout', { n: number(r.product_reviews.threshold) }),
      figure: number(r.product_reviews.count),
      meets: r.product_reviews.meets,
    },
    {
      measure: t('googleWithoutUrl'),
      threshold: '0',
      figure: number(r.products_left_out.without_url),
      meets: r.products_left_out.without_url === 0,
    },
    {
      measure: t('googleWithoutIds'),
      threshold: '0',
      figure: `${number(r.products_left_out.without_ids)} ${t('googleProductsInFeed', { n: number(r.products_left_out.in_feed) })}`,
      meets: r.products_left_out.without_ids === 0,
    },
    {
      measure: t('googleAverageStore'),
      threshold: t('googleAtLeast', { n: number(r.average_score.threshold, 1) }),
      figure: score(r.average_score.store),
      meets: r.average_score.meets,
    },
    {
      measure: t('googleAverageProducts'),
      threshold: t('googleNone'),
      figure: score(r.average_score.products),
      meets: null,
    },
  ];
  const countries = r.store_reviews_12_months.countries;
  return (
    <section aria-labelledby="google-readiness" class="card">
      <h2 id="google-readiness">{t('googleReadiness')}</h2>
      <RecordTable<Row>
        labelledBy="google-readiness"
        columns={[
          { label: t('googleMeasure'), cell: (row) => row.measure },
          { label: t('googleThisShop'), cell: (row) => row.figure },
          { label: t('googleThreshold'), cell: (row) => row.threshold },
          { label: t('googleStatus'), cell: (row) => (row.meets === null ? t('googleNone') : status(row.meets)) },
        ]}
        rows={rows}
      />
      <h3 id="google-countries">{t('googleStoreReviews')}</h3>
      <p class="muted">{t('googleStoreReviewsHelp')}</p>
      {countries.length ? (
        <RecordTable<Country>
          labelledBy="google-countries"
          columns={[
            { label: t('googleCountry'), cell: (c) => countryName(c.country) },
            { label: t('googleReviews'), cell: (c) => number(c.reviews) },
            { label: t('googleStatus'), cell: (c) => status(c.meets) },
          ]}
          rows={countries}
        />
      ) : (
        <p>{t('googleNoStoreReviews')}</p>
      )}
    </section>
  );
}
