// Widget and sidebar: the sidebar's dashboard settings (the table of embed/shared/settings.ts is the schema, as for
// the operator API) with a live preview on a sample page, the snippets to paste with copy buttons, and a link to the
// widget configurator. The preview is the real sidebar.js on a sample page of our own origin
// (/webshops/{id}/sidebar-preview, server/embed/preview.ts) in a frame; the form's settings, saved or not, reach it
// as page globals in its address, as a shop would write them before the snippet.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, shopApi } from '../api.js';
import { t } from '../i18n.js';
import type { Key } from '../strings/en.js';
import type { PageProps } from '../main.js';
import { DEFAULTS, OFFSET, type Settings } from '../../embed/shared/settings.js';
import { previewAddress } from '../widget-preview.js';
import { announce } from '../state.js';
import {
  checkedOf,
  CopyButton,
  ErrorLine,
  Loading,
  PageHeading,
  useAction,
  useLoad,
  fieldValue,
  Field,
} from '../ui.js';
import type { Widget } from '../../server/dashboard/contract.js';

type WidgetData = Widget;

const KEYS = Object.keys(DEFAULTS) as (keyof Settings)[];
const MOBILE = [
  'none',
  'top_bar',
  'top',
  'top_left',
  'top_right',
  'top_manual',
  'bottom',
  'bottom_left',
  'bottom_right',
  'bottom_manual',
] as const;
const LANGS = ['', 'nld', 'eng', 'deu', 'fra', 'spa', 'ita', 'hrv', 'browser', 'url', 'html'] as const;

/** The settings in an answer: under `settings`, or at the top level beside the snippets. */
function settingsOf(data: WidgetData): Settings {
  // The settings' own type has no index: read as a record, key by key.
  const source = (data.settings ?? data) as unknown as Record<string, unknown>;
  const found: Record<string, unknown> = {};
  for (const key of KEYS) if (source[key] !== undefined) found[key] = source[key];
  return { ...DEFAULTS, ...(found as Partial<Settings>) };
}

export default function WidgetPage({ shop }: PageProps) {
  const loaded = useLoad(() => api<WidgetData>('GET', shopApi(shop.id, '/widget')), String(shop.id));
  const [settings, setSettings] = useState<Settings | null>(null);
  /** The settings as the server has them: a save sends only what differs. */
  const [saved, setSaved] = useState<Settings | null>(null);
  useEffect(() => {
    if (!loaded.data) return;
    setSettings(settingsOf(loaded.data));
    setSaved(settingsOf(loaded.data));
  }, [loaded.data]);
  const save = useAction();
  const [topInvalid, setTopInvalid] = useState(false);

  if (!loaded.data || !settings || !saved) {
    return (
      <>
        <PageHeading title={t('pageWidget')} />
        <ErrorLine error={loaded.error} />
        {loaded.loading && <Loading />}
      </>
    );
  }
  const data = loaded.data;
  const set = (patch: Partial<Settings>) => setSettings({ ...settings, ...patch });
  const submit = async (event: Event) => {
    event.preventDefault();
    const valid = RegExp(`^(${OFFSET})$`).test(settings.top.trim());
    setTopInvalid(!valid);
    if (!valid) return;
    const changes = Object.fromEntries(
      KEYS.filter((key) => settings[key] !== saved[key]).map((key) => [
        key,
        typeof settings[key] === 'string' ? String(settings[key]).trim() : settings[key],
      ]),
    );
    if (Object.keys(changes).length === 0) {
      announce(t('settingsSaved'));
      return;
    }
    const ok = await save.run(async () => {
      const answer = await api<WidgetData>('PATCH', shopApi(shop.id, '/widget'), changes);
      setSettings(settingsOf(answer));
      setSaved(settingsOf(answer));
    });
    if (ok) announce(t('settingsSaved'));
  };
  const select = <K extends keyof Settings>(
    key: K,
    label: Key,
    options: readonly string[],
    optionLabel: (o: string) => string,
  ) => (
    <Field label={t(label)}>
      <select value={String(settings[key])} onChange={(e) => set({ [key]: fieldValue(e) } as Partial<Settings>)}>
        {options.map((o) => (
          <option value={o}>{optionLabel(o)}</option>
        ))}
      </select>
    </Field>
  );
  const snippets = data.snippets ?? {};

  return (
    <>
      <PageHeading title={t('pageWidget')} />
      <div class="two">
        <section aria-labelledby="widget-settings">
          <h2 id="widget-settings">{t('sidebarSettings')}</h2>
          <p class="muted">{t('sidebarSettingsHelp')}</p>
          <form class="settings" onSubmit={submit}>
            <label class="check">
              <input type="checkbox" checked={settings.sidebar} onChange={(e) => set({ sidebar: checkedOf(e) })} />
              <span>{t('set_sidebar')}</span>
            </label>
            {select('position', 'set_position', ['left', 'right'], (o) => t(`pos_${o}` as Key))}
            <Field label={t('set_top')}>
              <input
                type="text"
                inputMode="decimal"
                value={settings.top}
                aria-invalid={topInvalid}
                aria-describedby="top-help"
                onInput={(e) => set({ top: fieldValue(e) })}
              />
              <span id="top-help" class={topInvalid ? 'error' : 'muted'}>
                {t('set_topHelp')}
              </span>
            </Field>
            {select('theme', 'set_theme', ['dark', 'light'], (o) => t(`theme_${o}` as Key))}
            {select('mobile', 'set_mobile', MOBILE, (o) => t(`mobile_${o}` as Key))}
            {select('mobile_tab', 'set_mobileTab', ['left', 'center', 'right'], (o) => t(`pos_${o}` as Key))}
            <label class="check">
              <input type="checkbox" checked={settings.tooltip} onChange={(e) => set({ tooltip: checkedOf(e) })} />
              <span>{t('set_tooltip')}</span>
            </label>
            {select('language', 'set_language', saved.language ? LANGS.filter(Boolean) : LANGS, (o) =>
              t(`wlang_${o || 'default'}` as Key),
            )}
            <ErrorLine error={save.error} />
            <div class="actions">
              <button type="submit" class="primary" disabled={save.busy}>
                {t('saveSettings')}
              </button>
            </div>
          </form>
        </section>
        {data.preview_url && data.global_prefix && (
          <Preview url={data.preview_url} prefix={data.global_prefix} settings={settings} />
        )}
      </div>
      <section aria-labelledby="snippets">
        <h2 id="snippets">{t('snippets')}</h2>
        <p>
          {t('shopId')}: <strong>{shop.id}</strong>
        </p>
        <Snippet
          title={t('snippetSidebar')}
          help={t('snippetSidebarHelp')}
          code={snippets.sidebar_script}
          copy={t('copySidebar')}
        />
        <Snippet
          title={t('snippetOrder')}
          help={t('snippetOrderHelp')}
          code={snippets.order_data_element}
          copy={t('copyOrder')}
        />
        <Snippet title={t('snippetPhp')} help={t('snippetPhpHelp')} code={snippets.php_signature} copy={t('copyPhp')} />
        {data.configurator_url && (
          <p>
            <a href={data.configurator_url} target="_blank" rel="noopener">
              {t('openConfigurator')}
            </a>{' '}
            <span class="muted">{t('opensNewTab')}</span>
          </p>
        )}
      </section>
    </>
  );
}

function Snippet({ title, help, code, copy }: { title: string; help: string; code: string | undefined; copy: string }) {
  if (!code) return null;
  return (
    <div class="snippet">
      <h3>{title}</h3>
      <p class="muted">{help}</p>
      <pre>
        <code>{code}</code>
      </pre>
      <CopyButton text={code} label={copy} />
    </div>
  );
}

/** Sample pages as wide and high as these windows, scaled down to the width the page has for them. */
const WINDOWS = { desktop: { width: 1280, height: 800 }, phone: { width: 360, height: 640 } } as const;
/** The frame follows the form after this pause: one reload per change, not per key. */
const FOLLOW_MS = 400;

function Preview({ url, prefix, settings }: { url: string; prefix: string; settings: Settings }) {
  const [device, setDevice] = useState<'desktop' | 'phone'>('desktop');
  const wanted = previewAddress(url, prefix, settings);
  const [src, setSrc] = useState(wanted);
  useEffect(() => {
    const timer = setTimeout(() => setSrc(wanted), FOLLOW_MS);
    return () => clearTimeout(timer);
  }, [wanted]);
  const box = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const size = WINDOWS[device];
  // Scaled through the CSS object model (the dashboard's CSP allows no style attributes).
  useEffect(() => {
    const scaleToFit = () => {
      if (!box.current || !frame.current) return;
      const scale = Math.min(1, box.current.clientWidth / size.width);
      frame.current.style.transform = `scale(${scale})`;
      box.current.style.height = `${Math.ceil(size.height * scale)}px`;
    };
    scaleToFit();
    const observer = new ResizeObserver(scaleToFit);
    if (box.current) observer.observe(box.current);
    return () => observer.disconnect();
  }, [device]);
  return (
    <section aria-labelledby="preview-title">
      <h2 id="preview-title">{t('preview')}</h2>
      <fieldset class="segmented">
        <legend>{t('previewDevice')}</legend>
        {(['desktop', 'phone'] as const).map((d) => (
          <label class="check">
            <input type="radio" name="device" value={d} checked={device === d} onChange={() => setDevice(d)} />
            <span>{t(`device_${d}` as Key)}</span>
          </label>
        ))}
      </fieldset>
      <div class="pv" ref={box}>
        <iframe
          ref={frame}
          class={`pv-${device}`}
          title={t('previewDescription')}
          src={src}
          width={size.width}
          height={size.height}
        />
      </div>
    </section>
  );
}
