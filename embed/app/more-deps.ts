// What form.js (more.ts) takes from the running app instead of bundling it again: the same Preact (form.js brings
// Preact's hooks, which attach to the app's renderer through `options`), the same context and text, the same dialog
// title (it closes the open dialog). In the form.js build every import of these modules resolves to this file
// (vite.config.ts, `shareFromApp`). The app puts them on the script element before it is added (lazy.ts), so they
// are there before any module of form.js runs.
import type { Deps } from './lazy.js';

export const { jsx, jsxs, Fragment, options, ctx, S, t, plural, api, Title, Star } = (
  document.currentScript as HTMLScriptElement & { deps: Deps }
).deps;
