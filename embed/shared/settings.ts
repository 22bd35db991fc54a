// The eight `_service_*` page globals and the shop's dashboard configuration, merged into the settings the embed
// runs with. The loader carries this code, and the loader must stay tiny: one table, no framework, no zod.

export type MobileMode =
  | 'none' | 'top_bar' | 'top' | 'top_left' | 'top_right' | 'top_manual'
  | 'bottom' | 'bottom_left' | 'bottom_right' | 'bottom_manual';

export interface Settings {
  sidebar: boolean;
  position: 'left' | 'right';
  /** As the shop wrote it: digits (pixels), `300px` or a percentage such as `40%`. */
  top: string;
  theme: 'dark' | 'light';
  mobile: MobileMode;
  mobile_tab: 'left' | 'center' | 'right';
  tooltip: boolean;
  /** An ISO 639-3 code, `url`, `html` or `browser`; '' means the shop's default language. */
  language: string;
}

export type SettingKey = keyof Settings;

/**
 * Each setting: its key, the global's name after `_<brand>_`, the spec's default, and what it accepts:
 * `bool` (true/false, also as the strings "true"/"false"), `offset` (pixels or a percentage), or a list of words.
 */
export const TABLE: [SettingKey, string, Settings[SettingKey], string][] = [
  ['sidebar', 'sidebar', true, 'bool'],
  ['position', 'sidebar_position', 'left', 'left right'],
  ['top', 'sidebar_top', '300', 'offset'],
  ['theme', 'sidebar_theme', 'dark', 'dark light'],
  ['mobile', 'mobile', 'top_bar', 'none top_bar top top_left top_right top_manual bottom bottom_left bottom_right bottom_manual'],
  ['mobile_tab', 'mobile_tab', 'left', 'left center right'],
  ['tooltip', 'tooltip', true, 'bool'],
  ['language', 'language', '', 'nld eng deu fra spa ita hrv url html browser'],
];

export const DEFAULTS = Object.fromEntries(TABLE.map(([key, , fallback]) => [key, fallback])) as unknown as Settings;

/** The valid form of a value, or undefined when it is not valid. */
export function coerce(accepts: string, value: unknown): Settings[SettingKey] | undefined {
  if (accepts === 'bool') {
    return value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;
  }
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value).trim().toLowerCase();
  if (accepts === 'offset') return /^\d{1,4}(\.\d+)?(px|%)?$/.test(text) ? text : undefined;
  return typeof value === 'string' && text && ` ${accepts} `.includes(` ${text} `) ? text : undefined;
}

/**
 * Reads the page globals. Unset globals are left out; an invalid one is left out too, with one console warning
 * naming the variable, so that the dashboard configuration (or else the default) applies.
 */
export function readGlobals(scope: object, brand: string): Partial<Settings> {
  const found: Record<string, unknown> = {};
  for (const [key, suffix, , accepts] of TABLE) {
    const name = `_${brand}_${suffix}`;
    const raw = (scope as Record<string, unknown>)[name];
    if (raw === undefined || raw === null) continue;
    const value = coerce(accepts, raw);
    if (value === undefined) console.warn(`${name}: invalid value ignored`);
    else found[key] = value;
  }
  return found as Partial<Settings>;
}

/**
 * Defaults, then the dashboard configuration, then the page globals. The dashboard configuration comes from our own
 * server, which validated it when the operator set it (server/webshops/admin.ts).
 */
export function mergeSettings(dashboard: Partial<Settings> | undefined, globals: Partial<Settings>): Settings {
  return { ...DEFAULTS, ...dashboard, ...globals };
}
