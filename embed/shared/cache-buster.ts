// The spec's cache-buster for the sidebar snippet: c = floor((now_ms + sin(id) * a) / a), a = 10 minutes.
// The sine spreads shops over the 10-minute window, so their caches do not all expire at the same moment.
const CACHE_WINDOW_MS = 600_000;

export function cacheBuster(webshopId: number, nowMs: number): number {
  return Math.floor((nowMs + Math.sin(webshopId) * CACHE_WINDOW_MS) / CACHE_WINDOW_MS);
}
