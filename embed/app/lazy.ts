// Loads form.js (more.ts), the app's second bundle, once: the consent pop-up and the review form. It takes from the
// app what they share (more-deps.ts), handed over on its script element, as it offers its parts back.
import { Fragment, jsx, jsxs } from 'preact/jsx-runtime';
import { options } from 'preact';
import { api, ctx, plural, S, t } from './env.js';
import { Star, Title } from './ui.js';
import { adopt } from './styles.js';
import type { More } from './more.js';

const deps = () => ({ jsx, jsxs, Fragment, options, ctx, S, t, plural, api, Title, Star });
export type Deps = ReturnType<typeof deps>;

// The app script's nonce (for a page whose Content Security Policy allows scripts by nonce), read while it runs.
const nonce = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';
let loading: Promise<More> | undefined;
/** The parts once loaded (for rendering: a dialog that needs them is only opened after `loadMore` resolved). */
export let more: More;

export function loadMore(): Promise<More> {
  loading ??= new Promise((resolve, reject) => {
    const script = Object.assign(document.createElement('script'), { deps: deps() }) as HTMLScriptElement & {
      parts?: More;
    };
    script.src = `${ctx.assets}/form.js`;
    script.nonce = nonce;
    script.onerror = () => {
      loading = undefined;
      reject(Error('form.js'));
    };
    script.onload = () => {
      more = script.parts!;
      adopt(more.css);
      resolve(more);
    };
    document.head.append(script);
  });
  return loading;
}
