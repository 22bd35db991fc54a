// The Widget page's preview address (pages/widget.tsx): the sample page running the shop's real sidebar
// (server/embed/preview.ts) with the form's settings as page globals.
import { settingKey, TABLE, type Settings } from '../embed/shared/settings.js';

/** The preview's address: the sample page with each setting as the page global a shop would write. */
export function previewAddress(url: string, prefix: string, settings: Settings): string {
  const query = new URLSearchParams();
  for (const [name] of TABLE) {
    const value = settings[settingKey(name)];
    // '' (the shop's language) is no value: the page then uses the shop's own.
    if (value !== '') query.set(`${prefix}${name}`, String(value).trim());
  }
  return `${url}?${query}`;
}
