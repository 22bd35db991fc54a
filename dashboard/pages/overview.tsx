// Overview: the score out of 10 and the number of reviews, a chart of the monthly score and count over the last
// 12 months (an SVG drawing, with the same figures as a table), the 1–5 distribution, the sub-score averages and
// the share of reviews answered. Published reviews only, as shoppers see them.
import { useEffect, useState } from 'preact/hooks';
import { api, shopApi } from '../api.js';
import { month, number, percent, t, tn } from '../i18n.js';
import type { Key } from '../strings/en.js';
import type { PageProps } from '../main.js';
import { ErrorLine, Loading, PageHeading, useLoad } from '../ui.js';
import type { Overview } from '../../server/dashboard/contract.js';

const SUB_SCORE: Record<string, Key> = {
  shippingtime: 'subShippingtime',
  customerservice: 'subCustomerservice',
  pricequality: 'subPricequality',
  aftersale: 'subAftersale',
};

export default function OverviewPage({ shop }: PageProps) {
  const data = useLoad(() => api<Overview>('GET', shopApi(shop.id, '/overview')), String(shop.id));
  const o = data.data;
  return (
    <>
      <PageHeading title={t('pageOverview')} />
      <ErrorLine error={data.error} />
      {!o && data.loading && <Loading />}
      {o && (
        <>
          <section class="cards" aria-label={t('keyFigures')}>
            <div class="card">
              <h2>{t('score')}</h2>
              <p class="figure">
                <span class="big">{o.score === null ? '–' : number(o.score, 1)}</span>
                <span>/10</span>
              </p>
              <p class="muted">{tn('basedOn', o.count)}</p>
            </div>
            <div class="card">
              <h2>{t('answered')}</h2>
              <p class="figure">
                <span class="big">{percent(o.answered_share)}</span>
              </p>
              <p class="muted">{t('answeredHelp')}</p>
            </div>
          </section>
          <MonthChart months={o.months} />
          <div class="two">
            <Distribution distribution={o.distribution} />
            <section aria-labelledby="sub-scores">
              <h2 id="sub-scores">{t('subScores')}</h2>
              <dl class="pairs">
                {Object.entries(o.sub_scores).map(([key, value]) => (
                  <div>
                    <dt>{SUB_SCORE[key] ? t(SUB_SCORE[key]) : key}</dt>
                    <dd>{value === null ? t('noneGiven') : `${number(value, 1)} / 5`}</dd>
                  </div>
                ))}
              </dl>
            </section>
          </div>
          {o.stars && <StarTable stars={o.stars} />}
        </>
      )}
    </>
  );
}

const GROUND_KEYS = ['not_experience', 'offensive', 'personal_data', 'spam', 'conflict_of_interest', 'other'] as const;
const STARS = ['1', '2', '3', '4', '5'] as const;

/** The policy page's per-star table (issue 21): what the public sees of this shop, low scores published like high. */
function StarTable({ stars }: { stars: NonNullable<Overview['stars']> }) {
  const row = (label: string, counts: Record<string, number> | undefined) => (
    <tr>
      <th scope="row">{label}</th>
      {STARS.map((s) => (
        <td data-label={tn('starsColumn', Number(s))}>{number(counts?.[s] ?? 0)}</td>
      ))}
    </tr>
  );
  return (
    <section aria-labelledby="per-star">
      <h2 id="per-star">{t('starsHeading')}</h2>
      <p>{t('starsIntro')}</p>
      <div class="table-wrap">
        {/* On a phone each row is a card (styles.css, table.rows): no sideways scrolling (1.4.10). */}
        <table class="rows">
          <thead>
            <tr>
              <td />
              {STARS.map((s) => (
                <th scope="col">{tn('starsColumn', Number(s))}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {row(t('starsReceived'), stars.received)}
            {row(t('starsPublished'), stars.published)}
            {GROUND_KEYS.map((g) => row(`${t('starsRemoved')}: ${t(`ground_${g}`)}`, stars.removed[g]))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

const PAD = { top: 12, right: 36, bottom: 28, left: 36 };
const NARROW = '(max-width: 40rem)';

/** Drawn in a narrower box on a phone, so that its text is not shrunk to nothing. */
function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => matchMedia(NARROW).matches);
  useEffect(() => {
    const query = matchMedia(NARROW);
    const changed = () => setNarrow(query.matches);
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, []);
  return narrow;
}

function MonthChart({ months }: { months: Overview['months'] }) {
  const narrow = useNarrow();
  const W = narrow ? 360 : 640;
  const H = narrow ? 240 : 220;
  const maxCount = Math.max(1, ...months.map((m) => m.count));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const step = plotW / Math.max(1, months.length);
  const x = (i: number) => PAD.left + step * i + step / 2;
  const yCount = (n: number) => PAD.top + plotH - (n / maxCount) * plotH;
  const yScore = (s: number) => PAD.top + plotH - (s / 10) * plotH;
  const line = months
    .map((m, i) => (m.score === null ? null : `${x(i).toFixed(1)},${yScore(m.score).toFixed(1)}`))
    .reduce<string[][]>(
      (runs, point) => {
        if (point === null) runs.push([]);
        else runs[runs.length - 1]!.push(point);
        return runs;
      },
      [[]],
    )
    .filter((run) => run.length > 0);
  return (
    <section aria-labelledby="chart-title" class="chart">
      <h2 id="chart-title">{t('chartTitle')}</h2>
      <p class="legend" aria-hidden="true">
        <span class="key bars" /> {t('reviewsCount')} <span class="key line" /> {t('scoreOutOf10')}
      </p>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={t('chartDescription')} preserveAspectRatio="xMidYMid meet">
        {[0, 5, 10].map((s) => (
          <g>
            <line class="grid" x1={PAD.left} x2={W - PAD.right} y1={yScore(s)} y2={yScore(s)} />
            <text class="axis" x={W - PAD.right + 6} y={yScore(s) + 4}>
              {s}
            </text>
          </g>
        ))}
        <text class="axis" x={PAD.left - 6} y={PAD.top + 4} text-anchor="end">
          {maxCount}
        </text>
        <text class="axis" x={PAD.left - 6} y={PAD.top + plotH + 4} text-anchor="end">
          0
        </text>
        {months.map((m, i) => (
          <g>
            <rect
              class="bar"
              x={x(i) - step * 0.3}
              width={step * 0.6}
              y={yCount(m.count)}
              height={PAD.top + plotH - yCount(m.count)}
            />
            {(!narrow || i % 2 === 1) && (
              <text class="axis" x={x(i)} y={H - 8} text-anchor="middle">
                {month(m.month, 'short').split(' ')[0]}
              </text>
            )}
          </g>
        ))}
        {line.map((run) => (run.length > 1 ? <polyline class="line" points={run.join(' ')} /> : null))}
        {months.map((m, i) => (m.score === null ? null : <circle class="dot" cx={x(i)} cy={yScore(m.score)} r={4} />))}
      </svg>
      <details>
        <summary>{t('chartAsTable')}</summary>
        <div class="table-wrap">
          <table>
            <caption>{t('chartTitle')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('month')}</th>
                <th scope="col">{t('scoreOutOf10')}</th>
                <th scope="col">{t('countHeader')}</th>
              </tr>
            </thead>
            <tbody>
              {months.map((m) => (
                <tr>
                  <th scope="row">{month(m.month, 'long')}</th>
                  <td>{m.score === null ? '–' : number(m.score, 1)}</td>
                  <td>{number(m.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}

function Distribution({ distribution }: { distribution: Overview['distribution'] }) {
  const total = Object.values(distribution).reduce((a, b) => a + b, 0);
  return (
    <section aria-labelledby="distribution">
      <h2 id="distribution">{t('distribution')}</h2>
      <table class="distribution">
        <thead>
          <tr>
            <th scope="col">{t('rating')}</th>
            <th scope="col">{t('countHeader')}</th>
            <th scope="col">{t('share')}</th>
          </tr>
        </thead>
        <tbody>
          {([5, 4, 3, 2, 1] as const).map((stars) => {
            const n = distribution[stars] ?? 0;
            const share = total ? n / total : 0;
            return (
              <tr>
                <th scope="row">{tn('stars', stars)}</th>
                <td>{number(n)}</td>
                <td>
                  <span class="meter" aria-hidden="true">
                    <span style={{ width: `${Math.round(share * 100)}%` }} />
                  </span>{' '}
                  {percent(share)}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
