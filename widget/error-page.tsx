// The small page a widget iframe shows for a request it cannot serve (bad parameter, unknown shop).
import { contentSecurityPolicy, renderDocument } from './page.js';

const CSS = 'body{font:14px/1.4 system-ui,sans-serif;margin:8px;color:#1f2328;background:#fff}h1{font-size:15px}';

export function renderErrorPage(title: string, message: string): { html: string; csp: string } {
  const body = (
    <main>
      <h1>{title}</h1>
      <p>{message}</p>
    </main>
  );
  const html = renderDocument({ language: 'en', title, css: CSS, stylesheets: [], body });
  return { html, csp: contentSecurityPolicy({ css: CSS, stylesheets: [] }) };
}
