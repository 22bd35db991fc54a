// The review policy page: server-rendered, no script. Every text goes through Preact, which escapes it; the
// operator's texts are plain text (blank lines make paragraphs), never markup.
import { renderDocument } from '../pages/components.js';
import { ORIGINS } from '../reviews/origin.js';
import type { PolicyNumbers } from './numbers.js';
import { STARS, type StarTable } from '../compliance/counters.js';
import type { Ground, OperatorText, PolicyLanguage, PolicyStrings } from './strings.js';
import type { SignalName } from '../signals/rules.js';

interface PolicyPageData {
  lang: PolicyLanguage;
  t: PolicyStrings;
  brandName: string;
  shopName: string;
  /** The shop's public review page, where every review has its "Report" link. */
  shopPageUrl: string;
  text: OperatorText;
  numbers: PolicyNumbers;
  removed: { ground: Ground; count: number }[];
  removedSince: Date;
  /** The automatic checks that are on (config SIGNALS). */
  signals: SignalName[];
  /** Whether incentivised reviews count in the score (INCENTIVISED_IN_SCORE). */
  incentivisedInScore: boolean;
  /** Per star over the last 12 months, from the compliance counters (compliance/counters.ts). */
  stars: StarTable;
}

const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => <p>{p}</p>);

export function policyPage(d: PolicyPageData): string {
  const { t, numbers } = d;
  const number = new Intl.NumberFormat(d.lang);
  const since = new Intl.DateTimeFormat(d.lang, { dateStyle: 'long', timeZone: 'UTC' }).format(d.removedSince);
  const removedTotal = d.removed.reduce((sum, r) => sum + r.count, 0);
  return renderDocument({
    lang: d.lang,
    title: `${t.title(d.shopName)} | ${d.brandName}`,
    footer: t.footer(d.brandName),
    children: (
      <>
        <h1>{t.title(d.shopName)}</h1>
        <p>{t.intro(d.shopName, d.brandName)}</p>

        <section class="card" aria-labelledby="collected">
          <h2 id="collected">{t.collectedHeading}</h2>
          {numbers.methods.length ? (
            <ul>
              {numbers.methods.map((m) => (
                <li>{t.method[m]}</li>
              ))}
            </ul>
          ) : (
            <p>{t.collectedNone}</p>
          )}
        </section>

        <section class="card" aria-labelledby="origins">
          <h2 id="origins">{t.originsHeading}</h2>
          <dl>
            {ORIGINS.map((o) => (
              <>
                <dt>
                  <span class="badge">{t.origin[o].label}</span>{' '}
                  <span>({t.originCount(number.format(numbers.byOrigin[o]))})</span>
                </dt>
                <dd>{t.origin[o].description}</dd>
              </>
            ))}
            <dt>
              <span class="badge">{t.incentivised.label}</span>{' '}
              <span>({t.originCount(number.format(numbers.incentivised))})</span>
            </dt>
            <dd>{t.incentivised.description}</dd>
          </dl>
          {paragraphs(d.text.checks)}
        </section>

        <section class="card" aria-labelledby="publication">
          <h2 id="publication">{t.publicationHeading}</h2>
          {paragraphs(d.text.publication)}
          <h3 id="grounds">{t.groundsHeading}</h3>
          <ul aria-labelledby="grounds">
            {d.removed.map((r) => (
              <li>{t.ground[r.ground]}</li>
            ))}
          </ul>
        </section>

        <section class="card" aria-labelledby="signals">
          <h2 id="signals">{t.signalsHeading}</h2>
          <p>{d.signals.length ? t.signalsOn(d.signals.map((s) => t.signalName[s]).join('; ')) : t.signalsNone}</p>
        </section>

        <section class="card" aria-labelledby="score">
          <h2 id="score">{t.scoreHeading}</h2>
          {t.score.map((p) => (
            <p>{p}</p>
          ))}
        </section>

        <section class="card" aria-labelledby="incentives">
          <h2 id="incentives">{t.incentivesHeading}</h2>
          <p>
            {numbers.incentivised
              ? t.incentivesSome(number.format(numbers.incentivised), number.format(numbers.total))
              : t.incentivesNone}
          </p>
          <p data-incentives-policy={d.incentivisedInScore ? 'counted' : 'excluded'}>
            {d.incentivisedInScore ? t.incentivesCounted : t.incentivesExcluded}
          </p>
        </section>

        <section class="card" aria-labelledby="stars">
          <h2 id="stars">{t.starsHeading}</h2>
          <p>{t.starsIntro(since)}</p>
          <table class="stars">
            <thead>
              <tr>
                <td />
                {STARS.map((s) => (
                  <th scope="col">{t.starColumn(s)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              <tr data-row="received">
                <th scope="row">{t.receivedRow}</th>
                {STARS.map((s) => (
                  <td>{number.format(d.stars.received[s] ?? 0)}</td>
                ))}
              </tr>
              <tr data-row="published">
                <th scope="row">{t.publishedRow}</th>
                {STARS.map((s) => (
                  <td>{number.format(d.stars.published[s] ?? 0)}</td>
                ))}
              </tr>
              {d.removed.map(({ ground }) => (
                <tr data-row={`removed:${ground}`}>
                  <th scope="row">{t.removedRow(t.ground[ground])}</th>
                  {STARS.map((s) => (
                    <td>{number.format(d.stars.removed[ground][s] ?? 0)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>

        <section class="card" aria-labelledby="removed">
          <h2 id="removed">{t.removedHeading}</h2>
          <p>{t.removedIntro(since)}</p>
          <table class="removed">
            <thead>
              <tr>
                <th scope="col">{t.groundColumn}</th>
                <th scope="col">{t.countColumn}</th>
              </tr>
            </thead>
            <tbody>
              {d.removed.map((r) => (
                <tr data-ground={r.ground}>
                  <th scope="row">{t.ground[r.ground]}</th>
                  <td>{number.format(r.count)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">{t.removedTotal}</th>
                <td>{number.format(removedTotal)}</td>
              </tr>
            </tfoot>
          </table>
        </section>

        <section class="card" aria-labelledby="report">
          <h2 id="report">{t.reportHeading}</h2>
          {paragraphs(d.text.reporting)}
          <p>
            <a href={d.shopPageUrl}>{t.reportLink(d.shopName)}</a>
          </p>
        </section>
      </>
    ),
  });
}

/** The page for a shop number that does not exist. */
export function policyNotFound(t: PolicyStrings, lang: PolicyLanguage, brandName: string): string {
  return renderDocument({
    lang,
    title: `${t.notFoundTitle} | ${brandName}`,
    footer: t.footer(brandName),
    children: (
      <>
        <h1>{t.notFoundTitle}</h1>
        <p>{t.notFoundBody}</p>
      </>
    ),
  });
}
