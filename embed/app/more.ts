// form.js, the app's second bundle: the Privacy First consent pop-up and the review form, which most pages never
// show. The app loads it when one of them is needed (lazy.ts). Preact, the app's context and its shared components
// are not bundled again (more-deps.ts); what this bundle offers is left on its own script element for the app.
import { ConsentFlow, pendingOrder } from './consent.js';
import { ReviewForm } from './form.js';
import { FORM_CSS } from './styles.js';

const parts = { ConsentFlow, pendingOrder, ReviewForm, css: FORM_CSS };
export type More = typeof parts;

(document.currentScript as HTMLScriptElement & { parts: More }).parts = parts;
