// The app bundle, loaded lazily by sidebar.js. It announces itself on its own script element; the loader answers by
// calling the mount function with what it already knows (shop summary, settings, language, strings on the way).
import { render } from 'preact';
import { setEnv } from './env.js';
import { App } from './App.js';
import { CSS, HOST_CSS } from './styles.js';
import type { EmbedContext } from '../shared/context.js';

const self = document.currentScript;

async function mount(context: EmbedContext): Promise<void> {
  setEnv(context, await context.strings);
  const host = document.createElement('div');
  host.setAttribute(`data-${context.brand}-embed`, '');
  host.style.cssText = HOST_CSS;
  const root = host.attachShadow({ mode: 'open' });
  try {
    // A constructed sheet is not inline style as far as a Content Security Policy is concerned.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];
  } catch {
    const style = document.createElement('style');
    style.textContent = CSS;
    root.append(style);
  }
  (document.body ?? document.documentElement).append(host);
  render(<App />, root);
}

self?.dispatchEvent(
  new CustomEvent('mount', {
    detail: (context: EmbedContext) =>
      mount(context).catch((err: unknown) => console.warn(`${context.brandName}: ${String(err)}`)),
  }),
);
