// Picks the component for a layout.
import type { WidgetData } from '../components.js';
import type { Layout } from '../layouts.js';
import type { Locale } from '../strings.js';
import { DefaultLayout } from './default.js';
import { LinkLayout } from './links.js';
import { ModernLayout } from './modern.js';

export interface ReviewOptions {
  show: boolean;
  view: 'slider' | 'list';
  interval: number;
}

export function LayoutView({
  layout,
  data,
  locale,
  options,
}: {
  layout: Layout;
  data: WidgetData;
  locale: Locale;
  options: ReviewOptions;
}) {
  if (layout === 'new_default') return <DefaultLayout data={data} locale={locale} options={options} />;
  if (layout === 'modern') return <ModernLayout data={data} locale={locale} options={options} />;
  return <LinkLayout layout={layout} data={data} locale={locale} />;
}
