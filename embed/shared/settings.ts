// The sidebar settings: the eight `_service_*` page globals and the shop's dashboard configuration, merged into the
// settings the embed runs with. One table for both sides: the loader reads the page globals with it, and the
// operator API (server/webshops/admin.ts) validates the dashboard configuration with it, so the two cannot drift.
// The loader carries this code, and the loader must stay tiny: one table of patterns, no framework, no zod.

type MobileMode =
  | 'none'
  | 'top_bar'
  | 'top'
  | 'top_left'
  | 'top_right'
  | 'top_manual'
  | 'bottom'
  | 'bottom_left'
  | 'bottom_right'
  | 'bottom_manual';

export interface Settings {
  sidebar: boolean;
  position: 'left' | 'right';
  /** Pixels (digits, `300px`, also with decimals) or a percentage such as `40%`, as the specification allows. */
  top: string;
  theme: 'dark' | 'light';
  mobile: MobileMode;
  mobile_tab: 'left' | 'center' | 'right';
  tooltip: boolean;
  /** An ISO 639-3 code, `url`, `html` or `browser`; '' means the shop's default language. */
  language: string;
}

type SettingKey = keyof Settings;

/** The pattern of a yes/no setting; its value is a boolean (the strings "true"/"false" are read as one). */
export const BOOL = 'true|false';
/** Pixels (digits, optionally with decimals and `px`) or a percentage. */
export const OFFSET = '\\d{1,4}(\\.\\d+)?(px|%)?';

/**
 * Each setting: the global's name after `_<brand>_` (the setting's key is that name without `sidebar_`), the
 * specification's default, and the pattern of the values it accepts (any case, surrounding spaces ignored).
 */
type Row = [string, Settings[SettingKey], string];
// The two the loader reads itself, to decide whether the app is needed and whether to make room for the top bar.
export const SIDEBAR: Row = ['sidebar', true, BOOL];
export const MOBILE: Row = ['mobile', 'top_bar', 'none|top_bar|(top|bottom)(_left|_right|_manual)?'];
export const TABLE: Row[] = [
  SIDEBAR,
  ['sidebar_position', 'left', 'left|right'],
  ['sidebar_top', '300', OFFSET],
  ['sidebar_theme', 'dark', 'dark|light'],
  MOBILE,
  ['mobile_tab', 'left', 'left|center|right'],
  ['tooltip', true, BOOL],
  ['language', '', 'nld|eng|deu|fra|spa|ita|hrv|url|html|browser'],
];

/** `sidebar_position` → `position`. */
export const settingKey = (name: string) => name.replace('sidebar_', '') as SettingKey;

const defaults = () =>
  Object.fromEntries(TABLE.map(([name, fallback]) => [settingKey(name), fallback])) as unknown as Settings;
// (Marked pure so that the loader, which reads two settings only, does not carry the table.)
export const DEFAULTS = /* @__PURE__ */ defaults();

/** The valid form of a value (trimmed, lower case; a boolean for BOOL), or undefined when it is not valid. */
export function coerce(pattern: string, value: unknown): Settings[SettingKey] | undefined {
  const text = String(value).trim().toLowerCase();
  if (typeof value === 'object' || !RegExp(`^(${pattern})$`).test(text)) return undefined;
  return pattern === BOOL ? text === 'true' : text;
}

/**
 * Reads the page globals. Unset globals are left out; an invalid one is left out too, with one console warning
 * naming the variable, so that the dashboard configuration (or else the default) applies.
 */
export function readGlobals(scope: object, brand: string): Partial<Settings> {
  const found: Record<string, unknown> = {};
  for (const [suffix, , pattern] of TABLE) {
    const name = `_${brand}_${suffix}`;
    const raw = (scope as Record<string, unknown>)[name];
    if (raw == null) continue;
    const value = coerce(pattern, raw);
    if (value === undefined) console.warn(`${name}: invalid value ignored`);
    else found[settingKey(suffix)] = value;
  }
  return found as Partial<Settings>;
}

/** One setting as the loader sees it: the page global when it is valid, else the dashboard's, else the default. */
export function setting([name, fallback, pattern]: Row, scope: object, brand: string, dashboard: Partial<Settings>) {
  return (
    coerce(pattern, (scope as Record<string, unknown>)[`_${brand}_${name}`]) ?? dashboard[settingKey(name)] ?? fallback
  );
}

/**
 * Defaults, then the dashboard configuration, then the page globals. The dashboard configuration comes from our own
 * server, which validated it with this table when the operator set it (server/webshops/admin.ts).
 */
export function mergeSettings(dashboard: Partial<Settings> | undefined, globals: Partial<Settings>): Settings {
  return { ...DEFAULTS, ...dashboard, ...globals };
}
