// The WCAG 2.2 checks of e2e/accessibility.spec.ts, besides axe-core: label in name (2.5.3) against the names
// Chromium itself computes, target size (2.5.8), reflow (1.4.10), text spacing (1.4.12), focus not obscured (2.4.11),
// a visible focus indicator with 3:1 contrast (2.4.7, 1.4.11), keyboard reach (2.1.1) and reading order (1.3.2,
// 2.4.3). Each looks at "our" part of a page only: the embed's shadow root (its open dialog when there is one), or a
// whole document (server pages, widget, configurator). The measuring runs in the page (`probe`); the rules that
// judge the measurements are plain functions here, so a failure message names the control and what is wrong.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';

/** `embed`: the embed's shadow root; `page`: the whole document. */
export type Scope = 'embed' | 'page';

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Control {
  mark: number;
  what: string;
  /** What a sighted user reads on it: its text, or for a form field the text of its label. */
  visible: string;
  /** The area a pointer can hit: the element, or the label of a visually hidden radio button. */
  target: Box;
  /** A link inside a sentence (2.5.8's inline exception). */
  inline: boolean;
  /** One stop in the Tab order for a whole radio group. */
  group: string;
  tabbable: boolean;
}

/** Text cut off: `key` names the element and how (the same in two measurements), `detail` the numbers. */
interface Cut {
  key: string;
  detail: string;
  /** Shortened on purpose (see `expectTextSpacing`). */
  byDesign: boolean;
}

interface FocusStop {
  mark: number | null;
  what: string;
  inScope: boolean;
  /** Why the focus indicator is not good enough, or '' when it is. */
  ring: string;
  /** The focused element is entirely hidden behind the embed's own fixed elements. */
  hiddenByUs: boolean;
  /** The focused element's centre is where the sidebar, bar or tab is (the case 2.4.11 is about). */
  underOurs: boolean;
}

type Request =
  | { kind: 'controls'; scope: Scope }
  | { kind: 'focus'; scope: Scope }
  | { kind: 'cut'; scope: Scope; design: string }
  | { kind: 'reflow'; scope: Scope }
  | { kind: 'order'; scope: Scope }
  | { kind: 'spacing' };

/**
 * Runs in the page. Self-contained (Playwright sends its source): the helpers are inner functions. Controls get a
 * `data-a11y` number, so that their accessible names can be looked up afterwards through the DevTools protocol.
 */
function probe(request: Request): unknown {
  const w = window as unknown as { __a11y?: number };
  const host = document.querySelector('[data-service-embed]');

  function scopeRoot(scope: Scope): ParentNode | null {
    if (scope === 'page') return document;
    const shadow = host?.shadowRoot ?? null;
    return shadow?.querySelector('dialog[open]') ?? shadow;
  }

  function box(r: DOMRect): Box {
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  }

  /** The parent across shadow boundaries. */
  function up(el: Element): Element | null {
    return el.parentElement ?? ((el.parentNode as ShadowRoot | null)?.host as Element | undefined) ?? null;
  }

  /** The "visually hidden" pattern (.sr): one pixel, clipped. */
  function clippedAway(el: Element): boolean {
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return (
      (r.width <= 1 && r.height <= 1 && cs.overflow !== 'visible') ||
      cs.clip === 'rect(0px, 0px, 0px, 0px)' ||
      cs.clipPath === 'inset(50%)'
    );
  }

  /** Seen by a sighted user, looking from `el` up to (and including) `stop`. */
  function shown(el: Element, stop?: Element): boolean {
    // The content of a closed <details> is not rendered, nor in the accessibility tree, until it is opened.
    if (el.closest('details:not([open])') && !el.closest('summary')) return false;
    if (el.getClientRects().length === 0) return false;
    const own = getComputedStyle(el);
    if (own.visibility !== 'visible') return false;
    for (let at: Element | null = el; at; at = up(at)) {
      const cs = getComputedStyle(at);
      if (cs.display === 'none' || Number(cs.opacity) === 0 || clippedAway(at)) return false;
      if (at === stop) break;
    }
    return true;
  }

  function visibleText(el: Element): string {
    const parts: string[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      if (text.trim() && node.parentElement && shown(node.parentElement, el)) parts.push(text);
    }
    return parts.join(' ').replace(/\s+/g, ' ').trim();
  }

  function describeElement(el: Element): string {
    const id = el.id ? `#${el.id}` : '';
    const cls = el.getAttribute('class') ? `.${el.getAttribute('class')!.trim().split(/\s+/).join('.')}` : '';
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return `<${el.tagName.toLowerCase()}${id}${cls}${el.getAttribute('name') ? ` name=${el.getAttribute('name')}` : ''}>${text ? ` "${text}"` : ''}`;
  }

  const SELECTOR =
    'a[href],button,input:not([type=hidden]),select,textarea,summary,[tabindex],[role=button],[role=link],[role=radio],[role=checkbox],[contenteditable=true]';

  function labelsOf(el: Element): Element[] {
    return [...((el as HTMLInputElement).labels ?? [])];
  }

  /** A control someone can use now: not disabled, not hidden from everyone, not in an inert part. */
  function usable(el: Element): boolean {
    if ((el as HTMLButtonElement).disabled) return false;
    if (el.getAttribute('tabindex') === '-1' && !el.matches('a[href],button,input,select,textarea')) return false;
    if (el.closest('[aria-hidden=true],[inert],[hidden]')) return false;
    if (shown(el)) return true;
    // A visually hidden radio button is used through its label.
    return labelsOf(el).some((label) => shown(label));
  }

  function targetOf(el: Element): Box {
    if (clippedAway(el)) {
      const label = labelsOf(el).find((l) => shown(l));
      if (label) return box(label.getBoundingClientRect());
    }
    const wrapping = el.closest('label');
    return box((wrapping && labelsOf(el).includes(wrapping) ? wrapping : el).getBoundingClientRect());
  }

  function inSentence(el: Element): boolean {
    if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
    const block = el.parentElement;
    const own = (el.textContent ?? '').trim().length;
    return !!block && (block.textContent ?? '').trim().length > own + 2;
  }

  function controls(scope: Scope) {
    const root = scopeRoot(scope);
    if (!root) return [];
    const found = [...root.querySelectorAll(SELECTOR)].filter(usable);
    return found.map((el) => {
      if (!el.hasAttribute('data-a11y')) {
        w.__a11y = (w.__a11y ?? 0) + 1;
        el.setAttribute('data-a11y', String(w.__a11y));
      }
      const field = el.matches('input,select,textarea');
      const visible = field
        ? labelsOf(el)
            .filter((l) => shown(l))
            .map(visibleText)
            .join(' ')
        : visibleText(el);
      const type = el.getAttribute('type');
      return {
        mark: Number(el.getAttribute('data-a11y')),
        what: describeElement(el),
        visible,
        target: targetOf(el),
        inline: inSentence(el),
        group: type === 'radio' ? `radio:${el.getAttribute('name')}` : '',
        tabbable: (el as HTMLElement).tabIndex >= 0,
      };
    });
  }

  function deepActive(): Element | null {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el;
  }

  function rgba(color: string): [number, number, number, number] | null {
    const m = color.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a] = m[1]!
      .split(/[ ,/]+/)
      .filter(Boolean)
      .map(Number);
    return [r!, g!, b!, a ?? 1];
  }

  function luminance([r, g, b]: number[]): number {
    const lin = (c255: number) => {
      const c = c255 / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
  }

  /** The first opaque background from `el` up; null when that is the shop's page, whose colours we do not know. */
  function backgroundBehind(el: Element | null): number[] | null {
    for (let at = el; at; at = up(at)) {
      if (at === host) return null;
      const c = rgba(getComputedStyle(at).backgroundColor);
      if (c && c[3] >= 0.99) return c;
    }
    // Our own documents: the canvas is white unless the document is framed (a transparent widget page).
    return window.top === window ? [255, 255, 255, 1] : null;
  }

  function ringProblem(el: Element): string {
    const ringEl = clippedAway(el) ? (labelsOf(el)[0] ?? el) : el;
    const cs = getComputedStyle(ringEl);
    if (cs.outlineStyle === 'auto') return '';
    if (cs.outlineStyle === 'none' || parseFloat(cs.outlineWidth) < 2)
      return `no focus outline (outline: ${cs.outline})`;
    const ring = rgba(cs.outlineColor);
    const behind = backgroundBehind(parseFloat(cs.outlineOffset) < 0 ? ringEl : up(ringEl));
    if (!ring || !behind)
      return `focus outline drawn on the shop's own background (outline-offset ${cs.outlineOffset})`;
    const [a, b] = [luminance(ring), luminance(behind)].sort((x, y) => y - x);
    const ratio = (a! + 0.05) / (b! + 0.05);
    return ratio >= 3
      ? ''
      : `focus outline contrast ${ratio.toFixed(2)}:1 (${cs.outlineColor} on rgb(${behind.slice(0, 3).join(', ')}))`;
  }

  /** Entirely hidden behind the embed's fixed elements: every sampled point of it that is on screen shows us instead. */
  function hiddenByUs(el: Element): boolean {
    if (!host || host.contains(el) || host.shadowRoot?.contains(el)) return false;
    const r = el.getBoundingClientRect();
    let onScreen = 0;
    let covered = 0;
    for (const fx of [0.1, 0.5, 0.9]) {
      for (const fy of [0.1, 0.5, 0.9]) {
        const x = r.left + r.width * fx;
        const y = r.top + r.height * fy;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
        onScreen++;
        if (document.elementFromPoint(x, y) === host) covered++;
      }
    }
    return onScreen > 0 && covered === onScreen;
  }

  /** The centre of the shop's element is where our sidebar, bar or tab is, seen or not. */
  function underOurs(el: Element): boolean {
    const ours = host?.shadowRoot?.querySelector('.side,.bar,.tab')?.getBoundingClientRect();
    if (!ours || !host || host === el || host.contains(el) || host.shadowRoot!.contains(el)) return false;
    const r = el.getBoundingClientRect();
    const x = (r.left + r.right) / 2;
    const y = (r.top + r.bottom) / 2;
    return x > ours.left && x < ours.right && y > ours.top && y < ours.bottom;
  }

  function focus(scope: Scope) {
    const el = deepActive();
    if (!el || el === document.body || el === document.documentElement) return null;
    const root = scopeRoot(scope);
    // (Focus inside a framed document, such as the configurator's preview, is that document's business.)
    const inScope = !!root && (root === document || root.contains(el)) && el.tagName !== 'IFRAME';
    const mark = el.getAttribute('data-a11y');
    return {
      mark: mark === null ? null : Number(mark),
      what: describeElement(el),
      inScope,
      ring: inScope ? ringProblem(el) : '',
      hiddenByUs: hiddenByUs(el),
      underOurs: underOurs(el),
    };
  }

  /** Hidden from everyone: from assistive technology and put off the screen (the form's honeypot). */
  function offForAll(el: Element): boolean {
    const r = el.getBoundingClientRect();
    return !!el.closest('[aria-hidden=true]') && (r.right < 0 || r.left > innerWidth);
  }

  /** Text leaves: elements with text of their own that a sighted user sees. */
  function textLeaves(root: ParentNode): Element[] {
    return [...root.querySelectorAll('*')].filter(
      (el) =>
        [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim()) &&
        !el.closest('script,style,title,option') &&
        shown(el) &&
        !offForAll(el),
    );
  }

  function textBox(el: Element): Box | null {
    const range = document.createRange();
    let b: Box | null = null;
    for (const n of el.childNodes) {
      if (n.nodeType !== Node.TEXT_NODE || !n.textContent!.trim()) continue;
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        if (r.width === 0 && r.height === 0) continue;
        b = b
          ? {
              left: Math.min(b.left, r.left),
              top: Math.min(b.top, r.top),
              right: Math.max(b.right, r.right),
              bottom: Math.max(b.bottom, r.bottom),
            }
          : box(r);
      }
    }
    return b;
  }

  /** Text cut off by an ancestor that hides overflow, or pushed out of the window sideways. */
  function cut(scope: Scope, design: string) {
    const root = scopeRoot(scope);
    if (!root) return [];
    const problems: Cut[] = [];
    for (const el of textLeaves(root)) {
      const t = textBox(el);
      if (!t) continue;
      const what = describeElement(el);
      const byDesign = !!design && !!el.closest(design);
      if (t.left < -1 || t.right > innerWidth + 1) {
        problems.push({
          key: `${what} runs out of the window`,
          detail: `${Math.round(t.left)}…${Math.round(t.right)} of ${innerWidth}`,
          byDesign,
        });
      }
      for (let at: Element | null = el; at && at !== document.documentElement; at = up(at)) {
        const cs = getComputedStyle(at);
        const clips = (o: string) => o === 'hidden' || o === 'clip';
        if (!clips(cs.overflowX) && !clips(cs.overflowY)) continue;
        const r = at.getBoundingClientRect();
        const inside = {
          left: r.left + parseFloat(cs.borderLeftWidth) - 1,
          right: r.right - parseFloat(cs.borderRightWidth) + 1,
          top: r.top + parseFloat(cs.borderTopWidth) - 1,
          bottom: r.bottom - parseFloat(cs.borderBottomWidth) + 1,
        };
        const outX = clips(cs.overflowX) && (t.left < inside.left || t.right > inside.right);
        const outY = clips(cs.overflowY) && (t.top < inside.top || t.bottom > inside.bottom);
        if (outX || outY) {
          problems.push({
            key: `${what} is cut off by ${at === el ? 'its own box' : describeElement(at)}`,
            detail: '',
            byDesign,
          });
          break;
        }
        if (at === root || at === host) break;
      }
    }
    return problems;
  }

  /** What would need horizontal scrolling at this width: the document, or any box that scrolls sideways. */
  function reflow(scope: Scope) {
    const root = scopeRoot(scope);
    if (!root) return ['nothing to check'];
    const problems: string[] = [];
    const doc = document.documentElement;
    if (scope === 'page' && doc.scrollWidth > doc.clientWidth)
      problems.push(`the page is ${doc.scrollWidth} px wide in a ${doc.clientWidth} px window`);
    const boxes = [...(root instanceof Element ? [root] : []), ...root.querySelectorAll('*')];
    for (const el of boxes) {
      if (!shown(el) || el.closest('[aria-hidden=true]')) continue;
      const cs = getComputedStyle(el);
      if ((cs.overflowX === 'auto' || cs.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
        problems.push(`${describeElement(el)} scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`);
      }
      const r = el.getBoundingClientRect();
      if (r.width > 0 && (r.left < -1 || r.right > innerWidth + 1) && !clippedAway(el)) {
        problems.push(`${describeElement(el)} is outside the window (${Math.round(r.left)}…${Math.round(r.right)})`);
      }
    }
    return problems;
  }

  /**
   * Reading order: the visible children of every element, in DOM order, follow each other as one reads (each one
   * not above the one before it, and not to its left on the same line), so a screen reader that reads in DOM order
   * (a phone's swipe order) reads what is seen in the order it is seen.
   */
  function order(scope: Scope) {
    const root = scopeRoot(scope);
    if (!root) return [];
    const problems: string[] = [];
    const parents = [...(root instanceof Element ? [root] : []), ...root.querySelectorAll('*')];
    const tops = scope === 'embed' && root === host?.shadowRoot ? [...root.querySelectorAll('.t > *')] : [];
    for (const parent of parents) {
      if (tops.length && !tops.some((t) => t.contains(parent))) continue;
      if (parent.closest('[aria-hidden=true],head')) continue;
      const kids = [...parent.children].filter((k) => shown(k) && !k.matches('script,style,template'));
      for (let i = 1; i < kids.length; i++) {
        const a = kids[i - 1]!.getBoundingClientRect();
        const b = kids[i]!.getBoundingClientRect();
        if (a.width * a.height === 0 || b.width * b.height === 0) continue;
        const above = b.bottom <= a.top + 1;
        const overlap = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        const sameLine = overlap >= Math.min(a.height, b.height) / 2;
        const leftOf = sameLine && b.right <= a.left + 1;
        if (above || leftOf)
          problems.push(
            `${describeElement(kids[i]!)} comes after ${describeElement(kids[i - 1]!)} but is shown ${above ? 'above' : 'left of'} it`,
          );
      }
    }
    return problems;
  }

  /** WCAG 1.4.12's values, in the document and in the embed's shadow root (which the page's styles do not reach). */
  function spacing() {
    const css =
      '*{line-height:1.5!important;letter-spacing:.12em!important;word-spacing:.16em!important}p{margin-bottom:2em!important}';
    for (const target of [document, host?.shadowRoot].filter(Boolean) as (Document | ShadowRoot)[]) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      target.adoptedStyleSheets = [...target.adoptedStyleSheets, sheet];
    }
    return true;
  }

  switch (request.kind) {
    case 'controls':
      return controls(request.scope);
    case 'focus':
      // Two frames: what the page does about the new focus (scrolling it into view, our sidebar stepping aside) is done.
      return new Promise((done) =>
        requestAnimationFrame(() => requestAnimationFrame(() => done(focus(request.scope)))),
      );
    case 'cut':
      return cut(request.scope, request.design);
    case 'reflow':
      return reflow(request.scope);
    case 'order':
      return order(request.scope);
    case 'spacing':
      return spacing();
  }
}

const run = <T>(page: Page, request: Request) => page.evaluate(probe, request) as Promise<T>;

const controlsOf = (page: Page, scope: Scope) => run<Control[]>(page, { kind: 'controls', scope });

/** The accessible name Chromium computes for each marked control (what screen readers and voice control get). */
async function accessibleNames(page: Page): Promise<Map<number, string>> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode };
    const marked = new Map<number, number>();
    const walk = (node: DomNode) => {
      const attrs = node.attributes ?? [];
      const at = attrs.indexOf('data-a11y');
      if (at >= 0 && at % 2 === 0) marked.set(Number(attrs[at + 1]), node.backendNodeId);
      for (const child of [
        ...(node.children ?? []),
        ...(node.shadowRoots ?? []),
        ...(node.contentDocument ? [node.contentDocument] : []),
      ])
        walk(child);
    };
    walk(root);
    const names = new Map<number, string>();
    for (const [mark, backendNodeId] of marked) {
      const { nodes } = (await cdp.send('Accessibility.getPartialAXTree', {
        backendNodeId,
        fetchRelatives: false,
      })) as {
        nodes: { name?: { value?: string } }[];
      };
      names.set(mark, String(nodes[0]?.name?.value ?? ''));
    }
    return names;
  } finally {
    await cdp.detach();
  }
}

interface DomNode {
  backendNodeId: number;
  attributes?: string[];
  children?: DomNode[];
  shadowRoots?: DomNode[];
  contentDocument?: DomNode;
}

/** Words as speech recognition compares them: letters and digits, accents and case ignored, punctuation dropped. */
function words(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** 2.5.3, with its "best practice" made the rule: the accessible name starts with the visible text, word for word. */
export function labelInNameProblem(visible: string, name: string): string {
  const seen = words(visible);
  const heard = words(name);
  return seen.every((word, i) => heard[i] === word) ? '' : `shows "${visible}" but is named "${name}"`;
}

export async function expectLabelInName(page: Page, scope: Scope, what: string): Promise<Control[]> {
  const list = await controlsOf(page, scope);
  expect(list.length, `${what}: controls found`).toBeGreaterThan(0);
  const names = await accessibleNames(page);
  const problems = list
    .map((c) => ({ c, problem: labelInNameProblem(c.visible, names.get(c.mark) ?? '') }))
    .filter((x) => x.problem)
    .map((x) => `${x.c.what} ${x.problem}`);
  expect(problems, `${what}: label in name (2.5.3)`).toEqual([]);
  return list;
}

const circleHits = (cx: number, cy: number, r: number, b: Box) => {
  const dx = Math.max(b.left - cx, 0, cx - b.right);
  const dy = Math.max(b.top - cy, 0, cy - b.bottom);
  return dx * dx + dy * dy < r * r;
};

/**
 * 2.5.8: each target is at least 24 × 24 px, or a 24 px circle centred on it touches no other target and no other
 * small target's circle; links inside a sentence are exempt.
 */
export function targetSizeProblems(list: Control[]): string[] {
  const same = (a: Box, b: Box) => a.left === b.left && a.top === b.top && a.right === b.right && a.bottom === b.bottom;
  const targets = list.filter((c, i) => !list.slice(0, i).some((d) => same(d.target, c.target)));
  const small = (c: Control) =>
    c.target.right - c.target.left < 24 - 0.01 || c.target.bottom - c.target.top < 24 - 0.01;
  const centre = (b: Box) => [(b.left + b.right) / 2, (b.top + b.bottom) / 2] as const;
  const problems: string[] = [];
  for (const c of targets) {
    if (c.inline || !small(c)) continue;
    const [cx, cy] = centre(c.target);
    const crowded = targets.find((o) => {
      if (o === c) return false;
      if (circleHits(cx, cy, 12, o.target)) return true;
      if (!small(o) || o.inline) return false;
      const [ox, oy] = centre(o.target);
      return Math.hypot(ox - cx, oy - cy) < 24;
    });
    if (crowded) {
      const size = `${Math.round(c.target.right - c.target.left)}×${Math.round(c.target.bottom - c.target.top)}`;
      problems.push(`${c.what} is ${size} px and too close to ${crowded.what}`);
    }
  }
  return problems;
}

export async function expectTargetSize(page: Page, scope: Scope, what: string): Promise<void> {
  expect(targetSizeProblems(await controlsOf(page, scope)), `${what}: target size (2.5.8)`).toEqual([]);
}

const AXE = readFileSync(join('node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** axe-core on our part of the page: no serious or critical violation (WCAG 2.0–2.2 A and AA rules, best practices). */
export async function expectAxeClean(page: Page, scope: Scope, what: string): Promise<void> {
  // Measuring contrast mid-fade judges a frame that no one reads; reduced motion removes the fade.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const violations = await page.evaluate(async (scope) => {
    type Result = { violations: { id: string; impact: string; help: string; nodes: { target: unknown }[] }[] };
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<Result> } }).axe;
    const context = scope === 'embed' ? { include: [['[data-service-embed]']] } : document;
    const result = await axe.run(context, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  }, scope);
  expect(violations, `${what}: axe-core`).toEqual([]);
}

const cutText = (page: Page, scope: Scope, design = '') => run<Cut[]>(page, { kind: 'cut', scope, design });
const show = (cuts: Cut[]) => cuts.map((c) => `${c.key}${c.detail ? ` (${c.detail})` : ''}`);

export async function expectNoCutText(page: Page, scope: Scope, what: string): Promise<void> {
  expect(show(await cutText(page, scope)), `${what}: nothing cut off`).toEqual([]);
}

/**
 * 1.4.12: with WCAG's text spacing (line height 1.5, letter spacing 0.12 em, word spacing 0.16 em, 2 em after
 * paragraphs) nothing is cut off that was shown whole before. `design` names the elements that are excerpts on
 * purpose, shortened to the room there is (the widget's review texts and names); everything else must be whole
 * before and after.
 */
export async function expectTextSpacing(page: Page, scope: Scope, what: string, design = ''): Promise<void> {
  const before = await cutText(page, scope, design);
  expect(show(before.filter((c) => !c.byDesign)), `${what}: nothing cut off at normal spacing`).toEqual([]);
  await applyTextSpacing(page);
  const known = new Set(before.map((c) => c.key));
  const after = await cutText(page, scope, design);
  expect(
    show(after.filter((c) => !known.has(c.key) && !c.byDesign)),
    `${what}: nothing cut off by text spacing (1.4.12)`,
  ).toEqual([]);
}

export async function expectReflow(page: Page, scope: Scope, what: string): Promise<void> {
  expect(
    await run<string[]>(page, { kind: 'reflow', scope }),
    `${what}: reflow at ${page.viewportSize()?.width} px (1.4.10)`,
  ).toEqual([]);
}

export async function expectReadingOrder(page: Page, scope: Scope, what: string): Promise<void> {
  expect(await run<string[]>(page, { kind: 'order', scope }), `${what}: DOM order is the visual order (1.3.2)`).toEqual(
    [],
  );
}

/** Applies WCAG 1.4.12's text spacing until the next navigation. */
async function applyTextSpacing(page: Page): Promise<void> {
  await run(page, { kind: 'spacing' });
}

const focusStop = (page: Page, scope: Scope) => run<FocusStop | null>(page, { kind: 'focus', scope });

/**
 * Presses Tab (or Shift+Tab) until focus comes back to where it started or leaves the page, and returns every stop.
 * Each stop is judged as it is reached: a visible focus indicator and not hidden behind our fixed elements.
 */
export async function tabThrough(page: Page, scope: Scope, { back = false, max = 80 } = {}): Promise<FocusStop[]> {
  const stops: FocusStop[] = [];
  const key = back ? 'Shift+Tab' : 'Tab';
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const stop = await focusStop(page, scope);
    if (!stop) {
      if (stops.length) break;
      continue;
    }
    if (stops.length && stop.what === stops[0]!.what && stop.mark === stops[0]!.mark) break;
    stops.push(stop);
  }
  return stops;
}

/**
 * Keyboard alone (2.1.1), focus visible (2.4.7, 1.4.11) and not obscured (2.4.11): Tab reaches every control of the
 * scope (one stop per radio group), each with a good indicator, none hidden behind the embed's fixed elements.
 */
export async function expectKeyboardReach(
  page: Page,
  scope: Scope,
  what: string,
  options: { back?: boolean } = {},
): Promise<FocusStop[]> {
  const list = await controlsOf(page, scope);
  const stops = await tabThrough(page, scope, options);
  const reached = new Set(stops.filter((s) => s.inScope).map((s) => s.mark));
  const groups = new Set(list.filter((c) => c.group && reached.has(c.mark)).map((c) => c.group));
  const missed = list
    .filter((c) => c.tabbable && !reached.has(c.mark) && !(c.group && groups.has(c.group)))
    .map((c) => c.what);
  expect(missed, `${what}: reached with Tab (2.1.1)`).toEqual([]);
  expect(
    stops.filter((s) => s.ring).map((s) => `${s.what}: ${s.ring}`),
    `${what}: focus visible (2.4.7)`,
  ).toEqual([]);
  expect(
    stops.filter((s) => s.hiddenByUs).map((s) => s.what),
    `${what}: focus not hidden by the embed (2.4.11)`,
  ).toEqual([]);
  return stops;
}
