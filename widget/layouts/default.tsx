// new_default: the score, then reviews as a slider or a list (or the score alone with show=no).
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

export function DefaultLayout({ data, locale, options }: { data: WidgetData; locale: Locale; options: ReviewOptions }) {
  return (
    <div class="w d">
      {/* First in reading order: it is shown in the top right corner. */}
      <PolicyLink data={data} locale={locale} />
      <Organization data={data} class="hd">
        <Score class="sc" data={data} locale={locale} />
        <div class="hi">
          <Stars value={data.score / 2} locale={locale} />
          <p>
            <PageLink data={data} locale={locale}>
              {data.shopName} · {locale.reviewCount(data.count)}
            </PageLink>
          </p>
        </div>
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
