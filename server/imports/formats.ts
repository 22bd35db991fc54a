// The review exports of the platforms shops leave, recognised by their header row (case, spacing and column order
// ignored), and each platform's row read into one shape (SourceRow) whose texts are still as the file has them:
// rules.ts turns it into a review. Columns are the ones those platforms' files are known to carry (issue 19); what
// else a file holds is ignored, and a column that is missing reads as empty.
import { INERT_PREFIXED } from '../spreadsheet-csv.js';

export const FORMATS = [
  'yotpo',
  'yotpo_legacy',
  'judgeme',
  'shopify_product_reviews',
  'woocommerce',
  'trustpilot',
  'export',
  'mapped',
  // Our own JSON export (json-export.ts): an array, not a header row.
  'export_json',
] as const;
export type FormatName = (typeof FORMATS)[number];

/** The platform's name as shoppers read it ("Imported from Yotpo"). */
export const PLATFORM: Record<FormatName, string> = {
  yotpo: 'Yotpo',
  yotpo_legacy: 'Yotpo',
  judgeme: 'Judge.me',
  shopify_product_reviews: 'Shopify Product Reviews',
  woocommerce: 'WooCommerce',
  trustpilot: 'Trustpilot',
  // Our own export (server/exports): a review keeps the platform it was imported from; one written with the other
  // installation is labelled with this.
  export: 'Review export',
  mapped: 'another platform',
  // The same name as the CSV export's: a review's identity is the same whichever of the two files brings it.
  export_json: 'Review export',
};

export interface SourceProduct {
  id: string;
  sku: string;
  gtin: string;
  handle: string;
  name: string;
  url: string;
  imageUrl: string;
  brand: string;
  mpn: string;
}

/** One row as the platform wrote it, mapped to our words; dates and rating still text. */
export interface SourceRow {
  line: number;
  /** `store`: a review of the shop; `product`: a review of a product only, which never counts in the shop's score. */
  kind: 'store' | 'product';
  /** The platform's id of the review; '' when the file has none. */
  sourceId: string;
  /** WooCommerce: the comment this row answers; '' for a review. */
  parentId: string;
  date: string;
  rating: string;
  title: string;
  text: string;
  name: string;
  email: string;
  country: string;
  language: string;
  /** Shown at the source; false: unpublished, spam or not approved there (held for the operator). */
  shown: boolean;
  /** The source's own word for its status, kept for the moderation queue. */
  sourceStatus: string;
  reply: { text: string; date: string } | null;
  order: string;
  orderDate: string;
  incentivised: boolean;
  /** What the source said about the writer's purchase; proves nothing here (never `verified`). */
  sourceVerified: boolean;
  photos: string[];
  product: SourceProduct | null;
  /** Our own export: the platform the review was first imported from, kept ('' otherwise). */
  importedFrom?: string;
  /** Our own export: the products the review names, as its JSON (a store review may name several). */
  products?: unknown;
  /** Why the row is not imported at all, although it is readable (a review removed at the source). */
  skip?: string;
}

/** Header names compared without case and with runs of spaces as one. */
const headerKey = (name: string): string =>
  name
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');

type Get = (column: string) => string;

interface Format {
  /** Columns that must all be there for a header to be this format (header keys). */
  signature: string[];
  /** Columns whose absence makes the file useless even when named explicitly (`format=`). */
  read(get: Get, line: number): SourceRow;
}

const INCENTIVE = /incenti[vs]|sampl|reward|gift|free[ _-]?product|sponsor/i;
const truthy = (v: string) => /^(1|true|yes|y|public|published|ok|approved)$/i.test(v.trim());

export const blankRow = (line: number): SourceRow => ({
  line,
  kind: 'store',
  sourceId: '',
  parentId: '',
  date: '',
  rating: '',
  title: '',
  text: '',
  name: '',
  email: '',
  country: '',
  language: '',
  shown: true,
  sourceStatus: '',
  reply: null,
  order: '',
  orderDate: '',
  incentivised: false,
  sourceVerified: false,
  photos: [],
  product: null,
});

const product = (p: Partial<SourceProduct>): SourceProduct => ({
  id: '',
  sku: '',
  gtin: '',
  handle: '',
  name: '',
  url: '',
  imageUrl: '',
  brand: '',
  mpn: '',
  ...p,
});

const urls = (cell: string): string[] =>
  cell
    .split(/[,\s]+/)
    .map((u) => u.trim())
    .filter(Boolean);

const reply = (text: string, date: string) => (text.trim() ? { text, date } : null);

/** The formats read from a CSV header row. */
type CsvFormat = Exclude<FormatName, 'mapped' | 'export_json'>;

const FORMAT: Record<CsvFormat, Format> = {
  yotpo: {
    signature: ['review id', 'review creation date', 'review score', 'review content'],
    read: (get, line) => {
      const isProduct = get('review type').trim().toLowerCase() === 'product';
      const status = get('review status').trim();
      const type = get('reviewer type');
      return {
        ...blankRow(line),
        kind: isProduct ? 'product' : 'store',
        sourceId: get('review id'),
        date: get('review creation date'),
        rating: get('review score'),
        title: get('review title'),
        text: get('review content'),
        name: get('reviewer display name'),
        email: get('reviewer email'),
        country: get('reviewer country'),
        shown: status === '' || /^published$/i.test(status),
        sourceStatus: status,
        // A comment the shop did not make public stays out: the import cannot show what the source hid.
        reply: truthy(get('comment public')) ? reply(get('comment content'), get('comment date')) : null,
        order: get('order id'),
        orderDate: get('order date'),
        incentivised: INCENTIVE.test(type),
        sourceVerified: /verified_buyer/i.test(type),
        photos: urls(get('published image url')),
        product: isProduct
          ? product({
              id: get('product id'),
              sku: get('product sku'),
              gtin: get('product upc'),
              name: get('product title'),
              url: get('product url'),
              imageUrl: get('product image url'),
              brand: get('product brand'),
              mpn: get('product mpn'),
            })
          : null,
      };
    },
  },
  yotpo_legacy: {
    signature: ['review_score', 'review_content'],
    read: (get, line) => {
      const productId = get('product_id') || get('sku');
      const isStore = productId.trim() === '' || productId.trim() === 'yotpo_site_reviews';
      const published = get('published').trim();
      const type = get('user_type');
      return {
        ...blankRow(line),
        kind: isStore ? 'store' : 'product',
        date: get('date'),
        rating: get('review_score'),
        title: get('review_title'),
        text: get('review_content'),
        name: get('display_name'),
        email: get('email'),
        shown: published === '' || truthy(published),
        sourceStatus: published ? `published: ${published}` : '',
        reply: truthy(get('comment_public')) ? reply(get('comment_content'), get('comment_created_at')) : null,
        incentivised: INCENTIVE.test(type),
        sourceVerified: /verified_buyer/i.test(type),
        product: isStore
          ? null
          : product({ id: get('product_id'), sku: get('sku'), name: get('product_title'), url: get('product_url') }),
      };
    },
  },
  judgeme: {
    signature: ['body', 'rating', 'review_date'],
    read: (get, line) => {
      const curated = get('curated').trim();
      return {
        ...blankRow(line),
        kind: 'product',
        date: get('review_date'),
        rating: get('rating'),
        title: get('title'),
        text: get('body'),
        name: get('reviewer_name'),
        email: get('reviewer_email'),
        shown: curated === '' || /^ok$/i.test(curated),
        sourceStatus: curated ? `curated: ${curated}` : '',
        reply: reply(get('reply'), get('reply_date')),
        incentivised: INCENTIVE.test(get('source')),
        photos: urls(get('picture_urls')),
        product: product({ id: get('product_id'), handle: get('product_handle') }),
      };
    },
  },
  shopify_product_reviews: {
    signature: ['product_handle', 'state', 'rating', 'author', 'body', 'created_at'],
    read: (get, line) => {
      const state = get('state').trim();
      return {
        ...blankRow(line),
        kind: 'product',
        date: get('created_at'),
        rating: get('rating'),
        title: get('title'),
        text: get('body'),
        name: get('author'),
        email: get('email'),
        shown: state === '' || /^published$/i.test(state),
        sourceStatus: state ? `state: ${state}` : '',
        reply: reply(get('reply'), get('replied_at')),
        product: product({ handle: get('product_handle') }),
      };
    },
  },
  woocommerce: {
    signature: ['comment_id', 'comment_post_id', 'comment_content'],
    read: (get, line) => {
      const approved = get('comment_approved').trim();
      const gmt = get('comment_date_gmt').trim();
      const parent = get('comment_parent').trim();
      return {
        ...blankRow(line),
        kind: 'product',
        sourceId: get('comment_id'),
        parentId: parent === '0' ? '' : parent,
        // WordPress writes 0000-00-00 00:00:00 as the GMT date of comments it never published.
        date: gmt && !gmt.startsWith('0000') ? gmt : get('comment_date'),
        rating: get('rating'),
        text: get('comment_content'),
        name: get('comment_author'),
        email: get('comment_author_email'),
        shown: approved === '' || approved === '1' || /^approved$/i.test(approved),
        sourceStatus: approved ? `comment_approved: ${approved}` : '',
        product: product({ id: get('comment_post_id'), sku: get('product_sku') }),
      };
    },
  },
  trustpilot: {
    signature: ['review id', 'review created (utc)', 'review stars'],
    read: (get, line) => ({
      ...blankRow(line),
      kind: 'store',
      sourceId: get('review id'),
      date: get('review created (utc)'),
      rating: get('review stars'),
      title: get('review title'),
      text: get('review content'),
      name: get('review username'),
      email: get('review user email'),
      language: get('review language'),
      reply: reply(get('company response'), get('company reply date (utc)')),
      order: get('reference id'),
      incentivised: INCENTIVE.test(get('source of review')),
    }),
  },
  export: {
    signature: ['id', 'status', 'origin', 'original_date', 'created', 'rating', 'comment', 'reply_date', 'products'],
    read: (getRaw, line) => {
      // The export made formula-like cells inert with a leading ' (server/spreadsheet-csv.ts): taken off again.
      const get: Get = (column) => {
        const cell = getRaw(column);
        return INERT_PREFIXED.test(cell) ? cell.slice(1) : cell;
      };
      const status = get('status').trim();
      let products: unknown = [];
      try {
        products = get('products').trim() ? JSON.parse(get('products')) : [];
      } catch {
        products = null;
      }
      return {
        ...blankRow(line),
        kind: 'store',
        sourceId: get('id'),
        // The date the review showed: its platform's for an imported one, else when it was written.
        date: get('original_date') || get('created'),
        rating: get('rating'),
        title: get('title'),
        text: get('comment'),
        name: get('name'),
        email: get('email'),
        country: get('country'),
        language: get('language'),
        shown: status === '' || status === 'published',
        sourceStatus: status ? `status: ${status}` : '',
        reply: reply(get('reply'), get('reply_date')),
        order: get('order'),
        orderDate: get('experience_date'),
        incentivised: truthy(get('incentivised')),
        sourceVerified: truthy(get('verified')),
        photos: get('photo_urls').split(/\s+/).filter(Boolean),
        importedFrom: get('imported_from').trim(),
        products,
        ...(status === 'deleted' ? { skip: 'removed at the source (status deleted): not imported' } : {}),
      };
    },
  },
};

/** What a column mapping may name (the dashboard's step for files of no known format): rating and date at least. */
export const MAPPED_FIELDS = ['rating', 'date', 'text', 'title', 'name', 'email', 'product', 'reply'] as const;
type MappedField = (typeof MAPPED_FIELDS)[number];
/** Each field's column, by its name in the header row. */
export type ColumnMapping = Partial<Record<MappedField, string>>;

/**
 * The identity of a header row, to remember a shop's mapping for the next file with the same columns: the header
 * keys in order, joined (what the mapping names must be in it).
 */
export const headerSignature = (header: readonly string[]): string => header.map(headerKey).join('\u001f');

/** The mapped columns a header lacks. */
export function unmappedColumns(mapping: ColumnMapping, header: readonly string[]): string[] {
  const keys = new Set(header.map(headerKey));
  return Object.values(mapping).filter((column) => column && !keys.has(headerKey(column))) as string[];
}

/**
 * A reader of a file in no known format, by the shop's mapping: a row naming a product is a review of that product
 * only; the rest are reviews of the shop.
 */
function mappedRead(mapping: ColumnMapping): Format['read'] {
  const column = (field: MappedField) => (mapping[field] ? headerKey(mapping[field]) : '');
  return (get, line) => {
    const cell = (field: MappedField) => (column(field) ? get(column(field)) : '');
    const productId = cell('product').trim();
    return {
      ...blankRow(line),
      kind: productId ? 'product' : 'store',
      date: cell('date'),
      rating: cell('rating'),
      title: cell('title'),
      text: cell('text'),
      name: cell('name'),
      email: cell('email'),
      reply: reply(cell('reply'), cell('date')),
      product: productId ? product({ id: productId }) : null,
    };
  };
}

/** Formats in the order they are tried: the most specific signatures first (Trustpilot and Yotpo share `review id`). */
const DETECTION_ORDER: CsvFormat[] = [
  'export',
  'yotpo',
  'trustpilot',
  'woocommerce',
  'shopify_product_reviews',
  'judgeme',
  'yotpo_legacy',
];

/** The format a header row names, or undefined when it is none we know. */
export function detectFormat(header: readonly string[]): FormatName | undefined {
  const keys = new Set(header.map(headerKey));
  return DETECTION_ORDER.find((name) => FORMAT[name].signature.every((column) => keys.has(column)));
}

/** The columns a format needs that a header lacks (for `format=` given by the shop). */
export function missingColumns(format: Exclude<FormatName, 'mapped'>, header: readonly string[]): string[] {
  const keys = new Set(header.map(headerKey));
  if (format === 'export_json') throw new Error('a JSON export has no header row (json-export.ts reads it)');
  return FORMAT[format].signature.filter((column) => !keys.has(column));
}

/** A reader of a file's rows in a format: cells by column name, whatever their order in the file. */
export function rowReader(
  format: FormatName,
  header: readonly string[],
  mapping?: ColumnMapping,
): (cells: string[], line: number) => SourceRow {
  if (format === 'export_json') throw new Error('a JSON export has no header row (json-export.ts reads it)');
  const read = format === 'mapped' ? mappedRead(mapping ?? {}) : FORMAT[format].read;
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    const key = headerKey(name);
    if (!index.has(key)) index.set(key, i);
  });
  return (cells, line) => {
    const get: Get = (column) => {
      const i = index.get(column);
      const cell = i === undefined ? '' : (cells[i] ?? '');
      return cell.includes('\r') ? cell.replace(/\r\n?/g, '\n') : cell;
    };
    return read(get, line);
  };
}
