// The app bundle, loaded lazily by sidebar.js. It announces itself on its own script element; the loader answers by
// calling the mount function with what it already knows (base URL, shop summary, a click kept for the app). The app
// reads the page globals and the language itself (the loader reads only what decides whether the app is needed).
import { render } from 'preact';
import { setEnv } from './env.js';
import { App } from './App.js';
import { adopt, CSS, HOST_CSS } from './styles.js';
import type { EmbedContext } from '../shared/context.js';
import { settle } from './start.js';

const self = document.currentScript;

async function mount(context: EmbedContext): Promise<void> {
  settle(context, window, { url: location, htmlLang: document.documentElement.lang, languages: navigator.languages });
  const strings =
    (context.lang === context.shop.language && context.strings) ||
    fetch(`${context.assets}/strings/${context.lang}.json`);
  setEnv(context, await (await strings).json());
  const host = document.createElement('div');
  host.setAttribute(`data-${context.brand}-embed`, '');
  host.style.cssText = HOST_CSS;
  const root = host.attachShadow({ mode: 'open' });
  adopt(CSS, root);
  (document.body ?? document.documentElement).append(host);
  render(<App />, root);
}

self?.dispatchEvent(
  new CustomEvent('mount', {
    detail: (context: EmbedContext) =>
      mount(context).catch((err: unknown) => {
        // The app will not come: the shop's links must work as links again.
        context.queued = null;
        console.warn(`${context.brandName}: ${String(err)}`);
      }),
  }),
);
