// Size budgets of the widget page, compressed: the commercial widgets weigh 140–390 KB per page.
import { describe, expect, it } from 'vitest';
import { LAYOUTS, LAYOUT_INFO } from '../../widget/layouts.js';
import { BUDGET, pageSizes } from './sizes.js';

describe('widget page budgets', () => {
  it.each(
    LAYOUTS.flatMap((layout) =>
      LAYOUT_INFO[layout].lists
        ? [
            [layout, 'slider'],
            [layout, 'list'],
          ]
        : [[layout, '']],
    ),
  )('%s %s stays within its compressed budget', (layout, view) => {
    const sizes = pageSizes({ layout: layout!, amount: '6', ...(view ? { view } : {}) });
    const budget = LAYOUT_INFO[layout as keyof typeof LAYOUT_INFO].lists ? BUDGET.list : BUDGET.compact;
    expect(sizes.gzip).toBeLessThanOrEqual(budget);
    expect(sizes.brotli).toBeLessThanOrEqual(budget);
  });

  it.each(
    LAYOUTS.filter((layout) => LAYOUT_INFO[layout].lists).flatMap((layout) => [
      [layout, 'slider'],
      [layout, 'list'],
    ]),
  )('%s %s with photos=yes (five described photos a review) stays within the list budget', (layout, view) => {
    const sizes = pageSizes({ layout: layout!, amount: '6', view: view!, photos: 'yes' });
    expect(sizes.gzip).toBeLessThanOrEqual(BUDGET.list);
    expect(sizes.brotli).toBeLessThanOrEqual(BUDGET.list);
  });
});
