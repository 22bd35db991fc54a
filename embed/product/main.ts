// product.js: the product block, loaded by sidebar.js only on a page with a `<brand>ProductReviews` element and a
// product (block.ts). Like the app, it announces itself on its own script element and the loader answers with what
// it knows (base URL, shop id and summary, brand).
import type { EmbedContext } from '../shared/context.js';
import { startProductBlocks } from './block.js';

document.currentScript?.dispatchEvent(
  new CustomEvent('mount', {
    detail: (context: EmbedContext) =>
      startProductBlocks(context).catch((err: unknown) => console.warn(`${context.brandName}: ${String(err)}`)),
  }),
);
