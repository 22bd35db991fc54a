// The dashboard's shell: who is signed in (GET /me), the header (shop, language, account menu), the navigation
// of the pages this user's role may use, and the page itself, each loaded as its own chunk when first opened.
import { render, type ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { effect, signal } from '@preact/signals';
import './styles.css';
import { api, sessionEnded } from './api.js';
import { LANGUAGES, language, setLanguage, t, type Language } from './i18n.js';
import { pagePath, PAGES, type PageName } from './route.js';
import { can, type DashboardAction } from '../server/accounts/roles.js';
import type { Key } from './strings/en.js';
import {
  announcement,
  chooseShop,
  linkShop,
  loadError,
  location$,
  loadMe,
  me,
  navigate,
  route,
  shop,
  signedOut,
  type Shop,
} from './state.js';
import { Confirm, Field, Loading, NoAccess, PageHeading } from './ui.js';

export interface PageProps {
  shop: Shop;
}

type Loader = () => Promise<{ default: ComponentType<PageProps> }>;
const LOADERS: Record<PageName | 'account' | 'sign-in', Loader> = {
  overview: () => import('./pages/overview.js'),
  reviews: () => import('./pages/reviews.js'),
  invitations: () => import('./pages/invitations.js'),
  widget: () => import('./pages/widget.js'),
  integration: () => import('./pages/integration.js'),
  team: () => import('./pages/team.js'),
  account: () => import('./pages/account.js'),
  'sign-in': () => import('./pages/sign-in.js'),
  google: () => import('./pages/google.js'),
  import: () => import('./pages/import.js'),
};

/** What a role must be allowed to open each page (the server checks the same on every call). */
const PAGE_ACTION: Record<PageName, DashboardAction> = {
  overview: 'read',
  reviews: 'read',
  invitations: 'invite',
  widget: 'widget',
  integration: 'integration',
  team: 'team',
  google: 'google',
  import: 'import',
};
const PAGE_TITLE: Record<PageName | 'account', Key> = {
  overview: 'pageOverview',
  reviews: 'pageReviews',
  invitations: 'pageInvitations',
  widget: 'pageWidget',
  integration: 'pageIntegration',
  team: 'pageTeam',
  account: 'pageAccount',
  google: 'pageGoogle',
  import: 'pageImport',
};

const modules = signal<Partial<Record<keyof typeof LOADERS, ComponentType<PageProps>>>>({});
const chunkFailed = signal(false);

function Lazy({ name, shop: current }: { name: keyof typeof LOADERS; shop: Shop | null }) {
  const Page = modules.value[name];
  useEffect(() => {
    if (Page) return;
    LOADERS[name]().then(
      (m) => (modules.value = { ...modules.value, [name]: m.default }),
      () => (chunkFailed.value = true),
    );
  }, [name]);
  if (chunkFailed.value) return <p role="alert">{t('errorChunk')}</p>;
  if (!Page) return <Loading />;
  return <Page key={`${name}:${current?.id}`} shop={current!} />;
}

/** An in-app link: a normal link for new tabs and modified clicks, the app's navigation otherwise. */
function Link({ href, children, current }: { href: string; children: preact.ComponentChildren; current?: boolean }) {
  return (
    <a
      href={href}
      aria-current={current ? 'page' : undefined}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(href);
      }}
    >
      {children}
    </a>
  );
}

function LanguageSwitch() {
  return (
    <Field label={t('language')} class="inline">
      <select
        value={language.value}
        onChange={(e) => setLanguage((e.currentTarget as HTMLSelectElement).value as Language)}
      >
        {Object.entries(LANGUAGES).map(([code, name]) => (
          <option value={code} lang={code}>
            {name}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A form, not a select that acts on change: arrowing through the shops must not open each of them (WCAG 3.2.2). */
function ShopSwitch() {
  const shops = me.value?.shops ?? [];
  const current = shop.value;
  const [choice, setChoice] = useState('');
  if (shops.length <= 1) return current ? <span class="shop-name">{current.name}</span> : null;
  return (
    <form
      class="shop-switch"
      onSubmit={(e) => {
        e.preventDefault();
        if (choice) chooseShop(Number(choice));
      }}
    >
      <Field label={t('shop')} class="inline">
        <select
          value={choice || String(current?.id ?? '')}
          onChange={(e) => setChoice((e.currentTarget as HTMLSelectElement).value)}
        >
          {shops.map((s) => (
            <option value={String(s.id)}>{s.name}</option>
          ))}
        </select>
      </Field>
      <button type="submit">{t('switchShop')}</button>
    </form>
  );
}

function AccountMenu() {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  // A link in the menu leads to another page: the menu closes behind it.
  const where = location$.value;
  useEffect(() => setOpen(false), [where]);
  useEffect(() => {
    if (!open) return;
    const outside = (event: Event) => {
      if (!confirming && !box.current?.contains(event.target as Node)) setOpen(false);
    };
    const onEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !confirming) {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('click', outside);
    document.addEventListener('keydown', onEscape);
    return () => {
      document.removeEventListener('click', outside);
      document.removeEventListener('keydown', onEscape);
    };
  }, [open, confirming]);
  const user = me.value?.user;
  const signOut = async () => {
    try {
      await api('POST', '/sign-out');
    } finally {
      signedOut();
    }
  };
  return (
    <div class="account" ref={box}>
      <button
        type="button"
        ref={button}
        aria-expanded={open}
        aria-controls="account-menu"
        onClick={() => setOpen(!open)}
      >
        {t('account')}
      </button>
      <div id="account-menu" class="menu" hidden={!open}>
        <p class="muted">
          {t('signedInAs')} <strong>{user?.email}</strong>
          {shop.value ? ` · ${t(`role_${shop.value.role}` as Key)}` : ''}
        </p>
        <Link href={pagePath('account', linkShop.value)}>{t('mySessions')}</Link>
        <button type="button" onClick={signOut}>
          {t('signOut')}
        </button>
        <button type="button" onClick={() => setConfirming(true)}>
          {t('signOutEverywhere')}
        </button>
      </div>
      {confirming && (
        <Confirm
          title={t('signOutEverywhere')}
          text={t('signOutEverywhereText')}
          confirm={t('signOutEverywhere')}
          danger
          onConfirm={async () => {
            await api('POST', '/sign-out-everywhere');
            signedOut();
          }}
          onClose={() => setConfirming(false)}
        />
      )}
    </div>
  );
}

function Nav() {
  const current = shop.value;
  const active = route.value.page;
  const pages = PAGES.filter((p) => current && can(current.role, PAGE_ACTION[p]));
  return (
    <nav aria-label={t('navMain')}>
      <ul>
        {pages.map((p) => (
          <li>
            <Link href={pagePath(p, linkShop.value)} current={active === p}>
              {t(PAGE_TITLE[p])}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Main() {
  const { page } = route.value;
  const current = shop.value;
  if (page === 'not_found') {
    return (
      <>
        <PageHeading title={t('notFoundTitle')} />
        <p>
          <Link href={pagePath('overview', linkShop.value)}>{t('pageOverview')}</Link>
        </p>
      </>
    );
  }
  if (page === 'account') return <Lazy name="account" shop={current} />;
  if (!current) {
    return (
      <>
        <PageHeading title={t(PAGE_TITLE[page])} />
        <p>{t('noShops')}</p>
      </>
    );
  }
  if (!can(current.role, PAGE_ACTION[page])) {
    return (
      <>
        <PageHeading title={t(PAGE_TITLE[page])} />
        <NoAccess />
      </>
    );
  }
  return <Lazy name={page} shop={current} />;
}

function App() {
  const user = me.value;
  if (user === undefined) {
    return loadError.value ? (
      <main id="main" class="center">
        <p role="alert">{t('errorServer')}</p>
        <button type="button" onClick={() => void loadMe()}>
          {t('tryAgain')}
        </button>
      </main>
    ) : null;
  }
  return (
    <>
      <a class="skip" href="#main">
        {t('skipToContent')}
      </a>
      <header class="top">
        <div class="bar">
          <span class="brand">{t('appName')}</span>
          {user && <ShopSwitch />}
          <span class="grow" />
          <LanguageSwitch />
          {user && <AccountMenu />}
        </div>
        {user && <Nav />}
      </header>
      <main id="main" tabIndex={-1}>
        {user ? <Main /> : <Lazy name="sign-in" shop={null} />}
      </main>
      <div class="sr-only" aria-live="polite" aria-atomic="true">
        {announcement.value}
      </div>
    </>
  );
}

effect(() => {
  // A call found the session gone (expired, or "sign out everywhere" from another browser).
  if (sessionEnded.value && me.value) me.value = null;
});
effect(() => {
  document.documentElement.lang = language.value;
});

void loadMe();
render(<App />, document.getElementById('app')!);
