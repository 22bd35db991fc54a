// The widget configurator in the browser: plain DOM, no framework. The page works without it (the form reloads
// the page); with it, fields that do not apply to the chosen layout are hidden, the preview and the snippet
// follow every change, and the snippet can be copied with one button.
// The widget URL and snippet are built as in widget/snippet.ts; keep the two in step.
// Built by Vite (`vite build --mode configurator`) and inlined into the page, allowed by its hash.

/** What the server puts in the form's data-config attribute (see widget/configurator.tsx). */
interface ConfiguratorData {
  base: string;
  layouts: Record<
    string,
    {
      params: string[];
      width: number;
      none: number;
      slider: number;
      list: number[];
      photoSlider: number;
      photoList: number[];
    }
  >;
  titles: Record<string, string>;
}

function start(form: HTMLFormElement): void {
  const config = JSON.parse(form.getAttribute('data-config') ?? '{}') as ConfiguratorData;
  const preview = document.getElementById('preview') as HTMLIFrameElement | null;
  const snippet = document.getElementById('snippet') as HTMLTextAreaElement;
  const copyButton = document.getElementById('copy') as HTMLButtonElement;
  const copied = document.getElementById('copied')!;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement | null;
  const value = (name: string) => {
    const input = field(name);
    return input ? String(input.value).trim() : '';
  };
  const layout = () => config.layouts[value('layout')] ?? config.layouts.new_default!;
  const takes = (param: string) => layout().params.includes(param);
  /** `photos=yes` asked (a checkbox: its value is 'yes' whether checked or not). */
  const photos = () => takes('photos') && (field('photos')?.checked ?? false);

  const holds = (condition: string | null) => {
    if (condition === 'show') return value('show') === 'yes';
    if (condition === 'slider') return value('show') === 'yes' && value('view') === 'slider';
    if (condition === 'manual') return value('width') === 'manual';
    return true;
  };

  const showApplicableFields = () => {
    for (const row of form.querySelectorAll<HTMLElement>('[data-param]')) {
      row.hidden = !(takes(row.getAttribute('data-param') ?? '') && holds(row.getAttribute('data-when')));
    }
  };

  const proposeHeight = () => {
    const info = layout();
    const amount = Math.min(6, Math.max(1, Number(value('amount')) || 1));
    const height =
      !takes('show') || value('show') !== 'yes'
        ? info.none
        : value('view') === 'slider'
          ? photos()
            ? info.photoSlider
            : info.slider
          : (photos() ? info.photoList : info.list)[amount - 1];
    field('height')!.value = String(height);
  };

  const normalWidth = () => {
    const m = /^(\d{1,4})(px|%)?$/.exec(value('width_amount'));
    return m ? m[1] + (m[2] || 'px') : '';
  };

  const iframeWidth = () => {
    const width = value('width') === 'manual' ? normalWidth() : '';
    if (!width) return '100%';
    return width.endsWith('%') ? width : width.slice(0, -2);
  };

  const query = () => {
    const q = new URLSearchParams();
    q.set('id', value('id'));
    q.set('layout', value('layout'));
    if (takes('theme')) q.set('theme', value('theme'));
    if (takes('color')) q.set('color', value('color'));
    if (takes('show')) {
      q.set('show', value('show'));
      if (value('show') === 'yes') {
        q.set('view', value('view'));
        q.set('amount', value('amount'));
        if (value('view') === 'slider') q.set('interval', value('interval'));
        if (photos()) q.set('photos', 'yes');
      }
    }
    q.set('width', value('width'));
    if (value('width') === 'manual') q.set('width_amount', normalWidth() || value('width_amount'));
    q.set('height', value('height'));
    q.set('language', value('language'));
    if (value('css')) q.set('css', value('css'));
    return q;
  };

  const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

  const update = () => {
    showApplicableFields();
    const q = query().toString();
    const title = config.titles[value('language')] ?? '';
    snippet.value =
      `<iframe src="${attribute(`${config.base}/webshops/widget_html?${q}`)}" width="${iframeWidth()}" ` +
      `height="${value('height')}" title="${attribute(title)}" loading="lazy" style="border:0"></iframe>`;
    if (!preview) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      preview.width = iframeWidth();
      preview.height = value('height');
      preview.title = title;
      preview.src = `/webshops/widget_html?${q}`;
    }, 250);
  };

  form.addEventListener('input', (event) => {
    const name = (event.target as HTMLInputElement).name;
    if (name === 'layout' || name === 'show' || name === 'view' || name === 'amount' || name === 'photos')
      proposeHeight();
    if (name === 'width' && value('width') === 'manual' && !value('width_amount')) {
      field('width_amount')!.value = `${layout().width}px`;
    }
    update();
  });

  const report = (ok: boolean) => {
    copied.textContent = ok ? 'Copied.' : 'Copying was not allowed: the code is selected, press Ctrl+C (or Cmd+C).';
  };

  const copyBySelection = () => {
    snippet.focus();
    snippet.select();
    let ok = false;
    try {
      // The fallback where the Clipboard API is missing or refused (plain http, older browsers).
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    report(ok);
  };

  copyButton.hidden = false;
  copyButton.addEventListener('click', () => {
    copied.textContent = '';
    if (navigator.clipboard?.writeText)
      navigator.clipboard.writeText(snippet.value).then(() => report(true), copyBySelection);
    else copyBySelection();
  });

  showApplicableFields();
}

const form = document.getElementById('cfg');
if (form instanceof HTMLFormElement) start(form);
