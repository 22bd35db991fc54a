// The compact layouts: five buttons, a badge and a balloon. Each is one link to the shop's public page.
import { Logo, Organization, PageLink, PolicyLink, Stars, type WidgetData } from '../components.js';
import type { Locale } from '../strings.js';
import type { Layout } from '../layouts.js';

type Props = { data: WidgetData; locale: Locale };

/**
 * Each link is named by what it shows, in the order shown, and then, for screen readers only, whose reviews these are
 * and what the picture does not say in words: a voice-control user says what they see (WCAG 2.5.3), so the name
 * must start with the visible text.
 */
const Whose = ({ data, locale, more }: Props & { more?: string }) => (
  <span class="sr">
    , {locale.t.title(data.shopName)}
    {more ? `: ${more}` : ''}
  </span>
);

/** "8.7 out of 10, 6 reviews", for the layouts that do not show both in words. */
const inWords = ({ data, locale }: Props) =>
  `${locale.t.outOf(locale.number(data.score), '10')}, ${locale.reviewCount(data.count)}`;

function ButtonText({ data, locale }: Props) {
  return (
    <>
      <span class="chip">{locale.number(data.score)}/10</span>
      <span class="t">{locale.reviewCount(data.count)}</span>
      <Whose data={data} locale={locale} />
    </>
  );
}

function ButtonStars({ data, locale }: Props) {
  return (
    <>
      <span class="chip">{locale.number(data.score)}</span>
      <Stars value={data.score / 2} locale={locale} hidden />
      <span class="t mu">({data.count})</span>
      <span class="sr"> {locale.reviewNoun(data.count)}</span>
      <Whose data={data} locale={locale} more={locale.t.outOf(locale.number(data.score), '10')} />
    </>
  );
}

function ButtonLogo({ data, locale }: Props) {
  return (
    <>
      <Logo />
      <b class="t">{data.brandName}</b>
      <Stars value={data.score / 2} locale={locale} hidden />
      <Whose data={data} locale={locale} more={inWords({ data, locale })} />
    </>
  );
}

function ButtonLogoScore({ data, locale }: Props) {
  return (
    <>
      <Logo />
      <span class="two">
        <strong>
          {locale.number(data.score)}
          <span class="mu"> /10</span>
        </strong>
        <span class="t mu">{locale.reviewCount(data.count)}</span>
      </span>
      <Whose data={data} locale={locale} />
    </>
  );
}

function ButtonLogoSmall({ data, locale }: Props) {
  return (
    <>
      <Logo />
      <strong>{locale.number(data.score)}</strong>
      <Whose data={data} locale={locale} more={inWords({ data, locale })} />
    </>
  );
}

function Badge({ data, locale }: Props) {
  return (
    <>
      <span class="seal">
        <span>
          {locale.number(data.score)}
          <small>/ 10</small>
        </span>
      </span>
      <Stars value={data.score / 2} locale={locale} hidden />
      <span class="t mu">{locale.reviewCount(data.count)}</span>
      <Whose data={data} locale={locale} />
    </>
  );
}

function Balloon({ data, locale }: Props) {
  return (
    <span class="bb">
      <Stars value={data.score / 2} locale={locale} hidden />
      <strong>
        {locale.number(data.score)}
        <span class="mu"> / 10</span>
      </strong>
      <span class="t mu">{locale.reviewCount(data.count)}</span>
      <Whose data={data} locale={locale} />
    </span>
  );
}

const CONTENT: Record<Exclude<Layout, 'new_default' | 'modern'>, (props: Props) => preact.JSX.Element> = {
  'new_button-text': ButtonText,
  'new_button-stars': ButtonStars,
  new_button_logo: ButtonLogo,
  'new_button_logo-score': ButtonLogoScore,
  'new_button_logo-sm': ButtonLogoSmall,
  new_badges: Badge,
  new_balloon: Balloon,
};

export function LinkLayout({ layout, data, locale }: Props & { layout: keyof typeof CONTENT }) {
  const Content = CONTENT[layout];
  return (
    <Organization data={data} class="w">
      <PageLink data={data} locale={locale}>
        <Content data={data} locale={locale} />
      </PageLink>
      <PolicyLink data={data} locale={locale} />
    </Organization>
  );
}
