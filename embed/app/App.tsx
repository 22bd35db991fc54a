// The app: desktop sidebar or mobile bar/tab, tooltips on the shop's elements, and the pop-ups. Events on the shop's
// page are delegated from the document, so elements a single-page app adds later work without extra setup.
import { Component } from 'preact';
import { ctx, plural, S, score, t } from './env.js';
import { Badges, BadgeIcon, badgeText, deepActive, Modal, Star, Summary } from './ui.js';
import { ReviewsPopup, ShopPopup } from './popups.js';
import { loadMore, more } from './lazy.js';
import { centreUnder, cssTop, mobileLayout, readBeforePage } from './placement.js';
import { NARROW_QUERY, TOP_BAR_PX } from '../shared/context.js';
import type { ParsedOrder } from '../shared/order.js';

type Kind = 'shop' | 'reviews' | 'add';
type Open =
  | { kind: Kind; opener: HTMLElement | null }
  | { kind: 'consent'; opener: HTMLElement | null; parsed: ParsedOrder };

/**
 * The app's few pieces of shared state, changed by event handlers on the page and by the pop-ups. One component
 * (App) renders them, so a plain object and a re-render after each change are all the state management needed.
 */
const state: { open: Open | null; tip: HTMLElement | null; narrow: boolean; tucked: boolean } = {
  open: null,
  tip: null,
  narrow: false,
  tucked: false,
};
/** The app's root element, inside the shadow root, and the shadow root's host on the shop's page. */
let box: HTMLElement | null = null;
const host = () => (box?.getRootNode() as ShadowRoot | undefined)?.host;
let rerender = () => {};
function update(patch: Partial<typeof state>): void {
  Object.assign(state, patch);
  rerender();
}
/** A consent dialog that arrived while another pop-up was open. */
let waiting: Open | null = null;
let hideTimer: ReturnType<typeof setTimeout> | undefined;
/** Numbers the pop-ups, so each one is a new component that starts fresh and returns focus when it goes. */
let opened = 0;
const keys = new WeakMap<Open, number>();

function show(next: Open): void {
  keys.set(next, ++opened);
  if (state.open) waiting = next;
  else update({ open: next, tip: null });
}

/** Opens the pop-up of one of the shop's elements; the review form comes with the app's second bundle. */
function open({ el, kind }: { el: HTMLElement; kind: Kind }): void {
  if (kind === 'add')
    void loadMore().then(
      () => show({ kind, opener: el }),
      () => {},
    );
  else show({ kind, opener: el });
}

function close(): void {
  update({ open: waiting });
  waiting = null;
}

const hideTipSoon = () => {
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => update({ tip: null }), 200);
};
const keepTip = () => clearTimeout(hideTimer);

/** The shop's element with one of our classes that an event happened in (or that was clicked), and its pop-up. */
function ours(target: EventTarget | null | undefined, withAdd: boolean): { el: HTMLElement; kind: Kind } | undefined {
  const b = ctx.brand;
  const cls = [ctx.brandClass, `${b}Popup`, `${b}Reviews`, ...(withAdd ? [`${b}AddReview`] : [])];
  const el = target instanceof Element ? target.closest<HTMLElement>(cls.map((c) => `.${c}`).join()) : null;
  if (!el) return undefined;
  const has = (c: string) => el.classList.contains(c);
  return { el, kind: has(`${b}AddReview`) ? 'add' : has(`${b}Reviews`) ? 'reviews' : 'shop' };
}

function syncSpacer(): void {
  const { settings } = ctx;
  const wanted = state.narrow && settings.sidebar && settings.mobile === 'top_bar';
  const { body } = document;
  if (wanted && !ctx.spacer?.isConnected && body) {
    ctx.spacer = document.createElement('div');
    ctx.spacer.setAttribute('aria-hidden', 'true');
    body.prepend(ctx.spacer);
  }
  if (ctx.spacer) ctx.spacer.style.cssText = `all:initial;display:${wanted ? 'block' : 'none'};height:${TOP_BAR_PX}px`;
  // Reading order follows what is seen (a phone's screen reader reads in DOM order): a bar or tab at the top of the
  // screen comes before the page, anything else after it. (Not while a pop-up is open: moving would close it.)
  const first = state.narrow && settings.sidebar && readBeforePage(mobileLayout(settings));
  const el = host();
  if (el && body && !state.open) first ? body.prepend(el) : body.append(el);
}

/**
 * Focus is never hidden behind our fixed elements (WCAG 2.4.11): while the shop's focused element has its centre
 * under the sidebar, bar or tab, that one steps aside (transparent and let through to the page, but still in the Tab
 * order), until the focus moves on or the page scrolls.
 */
function tuck(): void {
  const ours = box?.querySelector('.side,.bar,.tab')?.getBoundingClientRect();
  const focused = document.activeElement;
  const under =
    !!ours &&
    !!focused &&
    focused !== document.body &&
    focused !== host() &&
    centreUnder(focused.getBoundingClientRect(), ours);
  if (under !== state.tucked) update({ tucked: under });
}
const tuckSoon = () => requestAnimationFrame(tuck);

function listen(): () => void {
  const offs: (() => void)[] = [];
  const on = <E extends Event>(type: string, handler: (e: E) => void, options?: AddEventListenerOptions) => {
    document.addEventListener(type, handler as EventListener, options);
    offs.push(() => document.removeEventListener(type, handler as EventListener, options));
  };
  on<MouseEvent>('click', (e) => {
    const hit = ours(e.target, true);
    // Modified clicks keep their usual meaning (open the link in a new tab or window).
    if (!hit || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    open(hit);
  });
  // The click the loader kept while the app was on its way; from now on the app answers clicks itself.
  const kept = ours(ctx.queued, true);
  ctx.queued = null;
  if (kept) open(kept);
  const enter = (e: Event) => {
    const hit = ours(e.target, false);
    if (hit && ctx.settings.tooltip && !state.open) {
      keepTip();
      update({ tip: hit.el });
    }
  };
  on('mouseover', enter);
  on('focusin', enter);
  // (After the browser has scrolled the newly focused element into view.)
  on('focusin', tuckSoon);
  on('focusout', tuckSoon);
  on<MouseEvent>('mouseout', (e) => {
    const hit = ours(e.target, false);
    if (hit && !hit.el.contains(e.relatedTarget as Node | null)) hideTipSoon();
  });
  on('focusout', (e) => ours(e.target, false) && hideTipSoon());
  on<KeyboardEvent>('keydown', (e) => e.key === 'Escape' && update({ tip: null }));
  // biome-ignore lint/complexity/noCommaOperator: the app's byte budget (embed/budget.test.ts)
  on('scroll', () => (tuck(), state.tip && update({ tip: null })), { capture: true, passive: true });

  const query = matchMedia(NARROW_QUERY);
  const onQuery = () => {
    update({ narrow: query.matches });
    syncSpacer();
  };
  onQuery();
  query.addEventListener('change', onQuery);
  offs.push(() => query.removeEventListener('change', onQuery));

  // The order-data element, now or when a single-page app renders its thank-you page later.
  const seen = new WeakSet<Element>();
  const findOrder = () => {
    const el = document.getElementById(`${ctx.brand}_order_completed`);
    if (!el || seen.has(el)) return;
    seen.add(el);
    void loadMore()
      .then(({ pendingOrder }) => pendingOrder(el))
      .then(
        (parsed) => parsed && show({ kind: 'consent', parsed, opener: deepActive() }),
        () => {},
      );
  };
  findOrder();
  const watcher = new MutationObserver(findOrder);
  watcher.observe(document.documentElement, { childList: true, subtree: true });
  offs.push(() => watcher.disconnect());
  // biome-ignore lint/suspicious/useIterableCallbackReturn: the app's byte budget; what off() returns is dropped
  return () => offs.forEach((off) => off());
}

function countText(): string {
  return ctx.shop.count ? plural('reviews', ctx.shop.count) : S.noReviews;
}

function openShop(e: MouseEvent) {
  show({ kind: 'shop', opener: e.currentTarget as HTMLElement });
}

function Sidebar() {
  const { settings, shop } = ctx;
  return (
    <button type="button" class={`side ${settings.position}`} style={{ top: cssTop(settings.top) }} onClick={openShop}>
      <span class="mu small">{ctx.brandName}</span>
      <Summary />
      {shop.badges.length > 0 && (
        <span class="icons">
          {shop.badges.map((b) => (
            <span key={b.key} title={badgeText(b)}>
              <BadgeIcon kind={b.key} />
              <span class="sr">{badgeText(b)}</span>
            </span>
          ))}
        </span>
      )}
    </button>
  );
}

function Mobile() {
  const layout = mobileLayout(ctx.settings);
  if (layout.kind === 'none') return null;
  const value = ctx.shop.count ? score(ctx.shop.score) : '–';
  // Named by what it shows, then what it opens: a voice-control user says what they see (WCAG 2.5.3).
  if (layout.kind === 'bar') {
    return (
      <button type="button" class="bar" onClick={openShop}>
        <Star />
        <strong>{value}</strong>
        <span>/10 · {countText()}</span>
        <span class="mu">{ctx.brandName}</span>
        <span class="sr">, {t('openShop')}</span>
      </button>
    );
  }
  return (
    <button type="button" class={`tab ${layout.edge}`} style={layout.style} onClick={openShop}>
      <Star />
      <strong>{value}</strong>
      <span class="mu">/10</span>
      <span class="sr">
        , {countText()}, {t('openShop')}
      </span>
    </button>
  );
}

function Tooltip({ el }: { el: HTMLElement }) {
  const r = el.getBoundingClientRect();
  const below = r.bottom + 200 < innerHeight;
  const style = {
    left: `${Math.max(8, Math.min(r.left, innerWidth - 296))}px`,
    ...(below ? { top: `${r.bottom + 8}px` } : { bottom: `${innerHeight - r.top + 8}px` }),
  };
  return (
    <div class="tip" role="tooltip" style={style} onMouseEnter={keepTip} onMouseLeave={hideTipSoon}>
      <strong>{ctx.shop.name}</strong>
      <Summary />
      <Badges />
    </div>
  );
}

function Dialog({ current }: { current: Open }) {
  const layout = mobileLayout(ctx.settings);
  const sheet = state.narrow
    ? `sheet ${layout.kind === 'tab' ? layout.edge : layout.kind === 'bar' ? 'top' : 'bottom'}`
    : '';
  return (
    <Modal onClose={close} opener={current.opener} sheet={sheet}>
      {current.kind === 'consent' ? (
        <more.ConsentFlow parsed={current.parsed} onClose={close} />
      ) : current.kind === 'add' ? (
        <more.ReviewForm mode="add" />
      ) : current.kind === 'reviews' ? (
        <ReviewsPopup />
      ) : (
        <ShopPopup />
      )}
    </Modal>
  );
}

export class App extends Component {
  stop = () => {};

  override componentDidMount() {
    rerender = () => this.forceUpdate();
    this.stop = listen();
  }

  override componentWillUnmount() {
    this.stop();
  }

  render() {
    const current = state.open;
    return (
      <div
        class={`t ${ctx.settings.theme}${state.tucked ? ' tuck' : ''}`}
        lang={ctx.lang}
        // biome-ignore lint/suspicious/noAssignInExpressions: the app's byte budget; the ref callback only keeps the element
        ref={(el) => void (box = el)}
      >
        {ctx.settings.sidebar && (state.narrow ? <Mobile /> : <Sidebar />)}
        {state.tip && <Tooltip el={state.tip} />}
        {current && <Dialog key={keys.get(current)} current={current} />}
      </div>
    );
  }
}
