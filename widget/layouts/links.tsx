// The compact layouts: five buttons, a badge and a balloon. Each is one link to the shop's public page.
import { Logo, Organization, PageLink, Score, Stars, type WidgetData } from '../components.js';
import type { Locale } from '../strings.js';
import type { Layout } from '../layouts.js';

type Props = { data: WidgetData; locale: Locale };

/** Read before the visible text of a compact layout, which does not show the shop's name. */
const Whose = ({ data, locale }: Props) => <span class="sr">{locale.t.title(data.shopName)}: </span>;

function ButtonText({ data, locale }: Props) {
  return (
    <>
      <Whose data={data} locale={locale} />
      <span class="chip">
        <Score data={data} locale={locale} />
        <span aria-hidden="true">/10</span>
      </span>
      <span class="t">{locale.reviewCount(data.count)}</span>
    </>
  );
}

function ButtonStars({ data, locale }: Props) {
  return (
    <>
      <Whose data={data} locale={locale} />
      <span class="chip">
        <Score data={data} locale={locale} />
      </span>
      <Stars value={data.score / 2} locale={locale} />
      <span class="t mu">({data.count})</span>
      <span class="sr">{locale.reviewNoun(data.count)}</span>
    </>
  );
}

function ButtonLogo({ data, locale }: Props) {
  return (
    <>
      <Whose data={data} locale={locale} />
      <Logo brandName={data.brandName} />
      <b class="t" aria-hidden="true">{data.brandName}</b>
      <Stars value={data.score / 2} locale={locale} />
      <span class="sr">{locale.reviewCount(data.count)}</span>
    </>
  );
}

function ButtonLogoScore({ data, locale }: Props) {
  return (
    <>
      <Whose data={data} locale={locale} />
      <Logo brandName={data.brandName} />
      <span class="two">
        <strong>
          <Score data={data} locale={locale} />
          <span class="mu" aria-hidden="true"> /10</span>
        </strong>
        <span class="t mu">{locale.reviewCount(data.count)}</span>
      </span>
    </>
  );
}

function ButtonLogoSmall({ data, locale }: Props) {
  return (
    <>
      <Whose data={data} locale={locale} />
      <Logo brandName={data.brandName} />
      <strong>
        <Score data={data} locale={locale} />
      </strong>
      <span class="sr">{locale.reviewCount(data.count)}</span>
    </>
  );
}

function Badge({ data, locale }: Props) {
  return (
    <>
      <Whose data={data} locale={locale} />
      <span class="seal">
        <span>
          <Score data={data} locale={locale} />
          <small aria-hidden="true">/ 10</small>
        </span>
      </span>
      <Stars value={data.score / 2} locale={locale} />
      <span class="t mu">{locale.reviewCount(data.count)}</span>
    </>
  );
}

function Balloon({ data, locale }: Props) {
  return (
    <span class="bb">
      <Whose data={data} locale={locale} />
      <Stars value={data.score / 2} locale={locale} />
      <strong>
        <Score data={data} locale={locale} />
        <span class="mu" aria-hidden="true"> / 10</span>
      </strong>
      <span class="t mu">{locale.reviewCount(data.count)}</span>
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
    </Organization>
  );
}
