// Bytes per widget layout: the heaviest page each layout can produce (six long reviews with replies, HTML with
// its CSS and script inlined), raw and compressed, against the budgets that server/widget/budget.test.ts enforces.
// Run: npx tsx bench/widget-bytes.ts   (prints a Markdown table; bench/widget.ts puts it into BENCHMARKS.md)
import { fileURLToPath } from 'node:url';
import { LAYOUTS, LAYOUT_INFO } from '../widget/layouts.js';
import { BUDGET, pageSizes } from '../server/widget/sizes.js';

export function bytesTable(): string[] {
  const rows = ['| layout | view | raw bytes | gzip | brotli | budget |', '|---|---|---|---|---|---|'];
  for (const layout of LAYOUTS) {
    const views = LAYOUT_INFO[layout].lists ? ['slider', 'list'] : [''];
    for (const view of views) {
      const s = pageSizes({ layout, amount: '6', ...(view ? { view } : {}) });
      const budget = LAYOUT_INFO[layout].lists ? BUDGET.list : BUDGET.compact;
      rows.push(`| ${layout} | ${view || '-'} | ${s.raw} | ${s.gzip} | ${s.brotli} | ${budget} |`);
    }
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(bytesTable().join('\n'));
