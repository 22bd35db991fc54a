// modern: a large score line and the reviews as cards side by side (as many as fit), or one card at a time.
import {
  Organization,
  PageLink,
  PolicyLink,
  ReviewList,
  ReviewSlider,
  Score,
  Stars,
  type WidgetData,
} from '../components.js';
import type { Locale } from '../strings.js';
import type { ReviewOptions } from './index.js';

export function ModernLayout({ data, locale, options }: { data: WidgetData; locale: Locale; options: ReviewOptions }) {
  return (
    <div class="w m">
      {/* First in reading order: it is shown in the top right corner. */}
      <PolicyLink data={data} locale={locale} />
      <Organization data={data} class="hd">
        <Score class="big" data={data} locale={locale} />
        <span class="mu" aria-hidden="true">
          / 10
        </span>
        <Stars value={data.score / 2} locale={locale} />
        <PageLink data={data} locale={locale} class="t">
          {locale.reviewCount(data.count)}
        </PageLink>
      </Organization>
      {options.show ? (
        options.view === 'slider' ? (
          <ReviewSlider data={data} locale={locale} interval={options.interval} />
        ) : (
          <ReviewList data={data} locale={locale} />
        )
      ) : null}
    </div>
  );
}
