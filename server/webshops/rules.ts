// The shop settings' pure rules: what a stored shop's fields mean, including the defaults of fields that older
// shops lack. Features read these rules, never the webshop store's module (which owns the collection).
import { isLanguage, type Language } from '../languages.js';
import type { Webshop } from './model.js';

export function mainLanguage(shop: Pick<Webshop, 'languages'>): Language {
  const main = shop.languages.find((l) => l.main) ?? shop.languages[0];
  return main && isLanguage(main.iso) ? main.iso : 'en';
}

export function enabledLanguages(shop: Pick<Webshop, 'languages'>): Language[] {
  return shop.languages.map((l) => l.iso).filter(isLanguage);
}

/** Shops stored before the setting existed have no value: false, as for new shops (compatibility). */
export function requiresSignedOrderData(shop: Pick<Webshop, 'require_signed_order_data'>): boolean {
  return shop.require_signed_order_data === true;
}

const DEFAULT_REMINDER_DAYS = 7;

/** Shops stored before the setting existed remind after the default (only invitations queued from now on). */
export function reminderDays(shop: Pick<Webshop, 'reminder_days'>): number {
  return shop.reminder_days ?? DEFAULT_REMINDER_DAYS;
}

/** The host that identifies a shop: no scheme, `www.`, port, path or case. */
export function hostOf(url: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`;
  try {
    return new URL(withScheme).hostname
      .toLowerCase()
      .replace(/^www\./, '')
      .replace(/\.$/, '');
  } catch {
    return '';
  }
}
