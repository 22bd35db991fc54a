// The app's shared state, as signals: who is signed in, where the app is, which shop, and the polite announcement.
import { computed, signal } from '@preact/signals';
import { api, ApiError, csrf, sessionEnded } from './api.js';
import { parseRoute, pagePath } from './route.js';
import type { Me } from '../server/accounts/openapi.js';

export type Shop = Me['shops'][number];

/** undefined while loading, null when signed out. */
export const me = signal<Me | null | undefined>(undefined);
export const loadError = signal(false);

export const location$ = signal({ pathname: location.pathname, search: location.search });
export const route = computed(() => parseRoute(location$.value.pathname, location$.value.search));

const SHOP_KEY = 'dashboard.shop';
function rememberedShop(): number | null {
  try {
    return Number(localStorage.getItem(SHOP_KEY)) || null;
  } catch {
    return null;
  }
}

/** The shop the page is about: the one in the address, else the one used last, else the first. */
export const shop = computed<Shop | null>(() => {
  const shops = me.value?.shops ?? [];
  const wanted = route.value.shopId ?? rememberedShop();
  return shops.find((s) => s.id === wanted) ?? shops[0] ?? null;
});

/** For links: the shop id when the user has several, so an address names its shop. */
export const linkShop = computed(() => ((me.value?.shops.length ?? 0) > 1 ? (shop.value?.id ?? null) : null));

/** Set by navigate(): the next page to render moves the focus to its heading (a page change is announced so). */
export const focusPending = signal(false);

export function navigate(to: string, { replace = false } = {}): void {
  const url = new URL(to, location.href);
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  location$.value = { pathname: url.pathname, search: url.search };
  focusPending.value = true;
}

export function chooseShop(id: number): void {
  try {
    localStorage.setItem(SHOP_KEY, String(id));
  } catch {
    // As with the language: remembered for this visit only.
  }
  const page = route.value.page;
  navigate(pagePath(page === 'not_found' ? 'overview' : page, id));
}

if (typeof window !== 'undefined') {
  window.addEventListener('popstate', () => {
    location$.value = { pathname: location.pathname, search: location.search };
    focusPending.value = true;
  });
}

export const announcement = signal('');
/** Says `text` politely through the shell's live region (cleared first, so the same text is said again). */
export function announce(text: string): void {
  announcement.value = '';
  setTimeout(() => (announcement.value = text), 60);
}

export async function loadMe(): Promise<void> {
  try {
    const value = await api<Me>('GET', '/me', undefined, { quiet401: true });
    csrf.value = value.csrf_token;
    sessionEnded.value = false;
    me.value = value;
    loadError.value = false;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      me.value = null;
      csrf.value = '';
    } else {
      loadError.value = true;
    }
  }
}

export function signedOut(): void {
  me.value = null;
  csrf.value = '';
  navigate('/dashboard/', { replace: true });
}
