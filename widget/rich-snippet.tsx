// The rich snippet fragment shop plugins paste into their pages: score and count with schema.org AggregateRating
// microdata (score out of 10, count of published reviews), in one of the widget languages.
import { renderToString } from 'preact-render-to-string';
import { localeFor } from './strings.js';
import type { Language } from '../server/languages.js';

interface SnippetData {
  shopName: string;
  pageUrl: string;
  /** The shop's review policy page ("How reviews are checked"). */
  policyUrl?: string;
  score: number;
  count: number;
}

export function renderRichSnippet(data: SnippetData, language: Language): string {
  const locale = localeFor(language);
  const link = (
    <a href={data.pageUrl} target="_blank" rel="noopener">
      {data.shopName}
    </a>
  );
  return renderToString(
    <div class="service-rich-snippet" lang={language} itemscope itemtype="https://schema.org/Organization">
      <meta itemprop="name" content={data.shopName} />
      <meta itemprop="url" content={data.pageUrl} />
      {data.count === 0 ? (
        <span>
          {link}: {locale.t.noReviews}
        </span>
      ) : (
        <span itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">
          {link}: <meta itemprop="ratingValue" content={String(data.score)} />
          <meta itemprop="worstRating" content="1" />
          <meta itemprop="bestRating" content="10" />
          <meta itemprop="ratingCount" content={String(data.count)} />
          <strong>{locale.number(data.score)}</strong>/10 · {locale.reviewCount(data.count)}
        </span>
      )}
      {data.policyUrl ? (
        <>
          {' · '}
          <a href={data.policyUrl} target="_blank" rel="noopener">
            {locale.t.policy}
          </a>
        </>
      ) : null}
    </div>,
  );
}
