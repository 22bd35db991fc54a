// `npx tsx bench/embed.ts`: the shopper embed in Debian's Chromium, on the demo shop pages served from another site
// (the same set-up as the end-to-end tests: e2e/server.ts and e2e/hosts/server.ts). Measures the bytes of the
// loader and the app (gzip, brotli), the time from inserting the script to a visible sidebar (cold and warm
// cache), and the host page's cumulative layout shift with and without the embed, also for the mobile top bar.
// Writes the "Shopper embeds" section of BENCHMARKS.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContextOptions } from '@playwright/test';
import startService from '../e2e/server.js';
import startHosts from '../e2e/hosts/server.js';
import { fillLoader } from '../server/embed/assets.js';
import { EMBED_DIST } from '../embed/test/build.js';
import { replaceSection } from './report.js';
import { breakdown } from './embed-bytes.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
/** A service that answers late: the embed then arrives after the page has been painted. */
const SLOW_MS = 600;
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 800 }, hasTouch: true, isMobile: true };

// In the page before anything else: when the snippet inserts sidebar.js, when the sidebar is first visible, and
// every layout shift (the page's own too, so that "with" and "without" the embed compare like for like). Plain
// JavaScript in a string: tsx would add helpers to a compiled function that the page does not have.
const PROBE = `
  window.__cls = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  new MutationObserver((records, observer) => {
    for (const r of records) for (const node of r.addedNodes) {
      if (node instanceof HTMLScriptElement && node.src.includes('/sidebar.js')) {
        window.__inserted = performance.now();
        observer.disconnect();
      }
    }
  }).observe(document, { childList: true, subtree: true });
  const poll = () => {
    const host = document.querySelector('[data-service-embed]');
    const el = host && host.shadowRoot && host.shadowRoot.querySelector('.side, .bar, .tab');
    if (el && el.getBoundingClientRect().width > 0) window.__visible = performance.now();
    else requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
`;

function bytes(): string[] {
  const loader = fillLoader(readFileSync(join(EMBED_DIST, 'sidebar.js'), 'utf8'), 'service', 'Service', '0123456789ab');
  const app = readFileSync(join(EMBED_DIST, 'app.js'));
  const form = readFileSync(join(EMBED_DIST, 'form.js'));
  const product = readFileSync(join(EMBED_DIST, 'product.js'));
  const strings = ['nl', 'en', 'de', 'fr', 'es', 'it', 'hr'].map((l) =>
    readFileSync(join(EMBED_DIST, 'strings', `${l}.json`)),
  );
  const row = (name: string, body: string | Buffer, budget: string) =>
    `| ${name} | ${Buffer.byteLength(body)} | ${gzipSync(body, { level: 9 }).length} | ${brotliCompressSync(body).length} | ${budget} |`;
  const largest = strings.reduce((a, b) => (gzipSync(b).length > gzipSync(a).length ? b : a));
  return [
    '| file | raw bytes | gzip | brotli | budget (gzip) |',
    '|---|---|---|---|---|',
    row('sidebar.js (loader, as served)', loader, '1100'),
    row('app.js (loaded lazily)', app, '12500'),
    row('form.js (consent pop-up and review form, loaded by the app when needed)', form, '5120'),
    row('strings/<lang>.json (largest of seven; one is loaded)', largest, '–'),
    row('product.js (the product block, loaded on product pages)', product, '3584'),
  ];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

async function visibleAfter(browser: Browser, url: string, warm: boolean): Promise<number[]> {
  const times: number[] = [];
  const context = await browser.newContext(DESKTOP);
  await context.addInitScript({ content: PROBE });
  const page = await context.newPage();
  if (warm) await page.goto(url, { waitUntil: 'load' });
  for (let i = 0; i < RUNS; i++) {
    const target = warm ? page : await (await browser.newContext(DESKTOP)).newPage();
    if (!warm) await target.context().addInitScript({ content: PROBE });
    await target.goto(url, { waitUntil: 'load' });
    await target.waitForFunction(() => (window as unknown as { __visible?: number }).__visible !== undefined, null, {
      timeout: 10_000,
    });
    times.push(
      await target.evaluate(() => {
        const w = window as unknown as { __inserted: number; __visible: number };
        return w.__visible - w.__inserted;
      }),
    );
    if (!warm) await target.context().close();
  }
  await context.close();
  return times;
}

/** The page's CLS; with `slowMs`, the service answers shop.json that much later (a far-away or busy service). */
async function cls(browser: Browser, url: string, options: BrowserContextOptions, slowMs = 0): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < 3; i++) {
    const context = await browser.newContext(options);
    await context.addInitScript({ content: PROBE });
    if (slowMs) {
      await context.route('**/shop.json', async (route) => {
        await new Promise((ok) => setTimeout(ok, slowMs));
        await route.continue();
      });
    }
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(2500);
    values.push(await page.evaluate(() => (window as unknown as { __cls: number }).__cls));
    await context.close();
  }
  return median(values);
}

async function main() {
  const stopService = await startService();
  const stopHosts = await startHosts();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const host = process.env.HOST_BASE!;
  const page = (q: string) => `${host}/shop.html?${q}`;
  try {
    const cold = await visibleAfter(browser, page('_service_language=eng'), false);
    const warm = await visibleAfter(browser, page('_service_language=eng'), true);
    const shifts = {
      desktopWithout: await cls(browser, page('embed=0'), DESKTOP),
      desktopWith: await cls(browser, page(''), DESKTOP),
      phoneWithout: await cls(browser, page('embed=0'), PHONE),
      phoneTopBar: await cls(browser, page('_service_mobile=top_bar'), PHONE),
      phoneBottom: await cls(browser, page('_service_mobile=bottom_right'), PHONE),
      desktopSlow: await cls(browser, page(''), DESKTOP, SLOW_MS),
      phoneTopBarSlow: await cls(browser, page('_service_mobile=top_bar'), PHONE, SLOW_MS),
      phoneBottomSlow: await cls(browser, page('_service_mobile=bottom_right'), PHONE, SLOW_MS),
    };
    const f = (n: number) => n.toFixed(1);
    const c = (n: number) => n.toFixed(4);
    const section = [
      '<!-- embed:start -->',
      '## Shopper embeds',
      '',
      `Command: \`npx tsx bench/embed.ts\` (bench/embed.ts), Chromium ${browser.version()} headless on this machine, the`,
      'service and the demo shop pages on two loopback addresses (127.0.0.1 and 127.0.0.2, as in the end-to-end tests).',
      'Budgets checked on every test run by `embed/budget.test.ts`.',
      '',
      ...bytes(),
      '',
      'Before this issue (issue 9, point 10): sidebar.js 1466 B gzip as served (budget 1536), app.js 14796 B (budget 15360),',
      'without the click queue and the origin labels. Where the bytes go, before and now: every byte of each minified',
      'bundle attributed to its source file through a source map (`npx tsx bench/embed-bytes.ts`, as source-map-explorer',
      'does; gzip shared out in proportion, on a build with a source-map comment, so totals differ a little from the above):',
      '',
      ...(await breakdown()),
      '',
      'What moved the figures: the loader reads only the two settings that decide whether the app is needed and whether',
      'to make room for the top bar (the app reads all eight page globals and the language); the consent pop-up, the',
      "review form and Preact's hooks are in form.js, loaded when the order-data element or an AddReview click needs",
      'them; the app uses classes instead of hooks; ES2022 output (class fields as written); shorter CSS.',
      '',
      `Time from the snippet inserting \`sidebar.js\` to a visible sidebar, median of ${RUNS} page loads (min–max):`,
      '',
      '| cache | median ms | min ms | max ms |',
      '|---|---|---|---|',
      `| cold (new browser context each time) | ${f(median(cold))} | ${f(Math.min(...cold))} | ${f(Math.max(...cold))} |`,
      `| warm (reload) | ${f(median(warm))} | ${f(Math.min(...warm))} | ${f(Math.max(...warm))} |`,
      '',
      'Cumulative layout shift of the host page (median of 3 loads, 2.5 s each; the demo page itself shifts nothing),',
      `also with shop.json answered ${SLOW_MS} ms late, so that the embed surely arrives after the page was painted.`,
      'The mobile top bar moves the page down 48 px once, by design (48 / 800 of the viewport: 0.06); the rest add none:',
      '',
      `| viewport | without the embed | with the embed | with the embed, service ${SLOW_MS} ms late |`,
      '|---|---|---|---|',
      `| desktop 1280×800, sidebar | ${c(shifts.desktopWithout)} | ${c(shifts.desktopWith)} | ${c(shifts.desktopSlow)} |`,
      `| phone 390×800, \`bottom_right\` tab | ${c(shifts.phoneWithout)} | ${c(shifts.phoneBottom)} | ${c(shifts.phoneBottomSlow)} |`,
      `| phone 390×800, \`top_bar\` | ${c(shifts.phoneWithout)} | ${c(shifts.phoneTopBar)} | ${c(shifts.phoneTopBarSlow)} |`,
      '<!-- embed:end -->',
    ].join('\n');
    replaceSection('embed', section);
    console.log(section);
  } finally {
    await browser.close();
    await stopHosts();
    await stopService();
  }
}

await main();
process.exit(0);
