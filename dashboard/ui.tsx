// Building blocks every page uses: the page heading that takes the focus after a page change, a modal dialog, a
// pager, a table of records, an error line, a copy button, and a loader of server data.
import { cloneElement, isValidElement, toChildArray, type ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.js';
import { t } from './i18n.js';
import type { Key } from './strings/en.js';
import { announce, focusPending } from './state.js';

export function PageHeading({ title, children }: { title: string; children?: ComponentChildren }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} – ${t('appName')}`;
    if (focusPending.value) {
      focusPending.value = false;
      ref.current?.focus();
    }
  }, [title]);
  return (
    <div class="page-head">
      <h1 ref={ref} tabIndex={-1}>
        {title}
      </h1>
      {children}
    </div>
  );
}

/**
 * A labelled form control: the label names the first child by `for`/`id`. (A label wrapped around a select or a
 * text field would name the control by its value too: "Rating Any rating" instead of "Rating".)
 */
export function Field({ label, class: cls, children }: { label: string; class?: string; children: ComponentChildren }) {
  const id = useId();
  const [control, ...rest] = toChildArray(children);
  return (
    <div class={cls ? `field ${cls}` : 'field'}>
      <label for={id}>{label}</label>
      {isValidElement(control) ? cloneElement(control, { id }) : control}
      {rest}
    </div>
  );
}

/** Errors whose code says more than their status: which limit an owner reached. */
const ERROR_CODES: Record<string, Key> = {
  shop_invitations_limit: 'errorShopInvitationsLimit',
  address_invitations_limit: 'errorAddressInvitationsLimit',
};

/** What went wrong, in the user's language; the server's own message where it has one worth showing. */
function errorText(error: unknown): string {
  if (!(error instanceof ApiError)) return t('errorUnexpected');
  if (error.status === 0) return t('errorNetwork');
  const known = ERROR_CODES[error.code];
  if (known) return t(known);
  if (error.status === 429)
    return error.retryAfter ? t('errorRateLimitedFor', { s: error.retryAfter }) : t('errorRateLimited');
  if (error.code === 'forbidden') return t('errorForbidden');
  if (error.code === 'csrf') return t('errorCsrf');
  if (error.status === 404) return t('errorNotFound');
  if (error.status >= 500) return t('errorServer');
  return error.message || t('errorUnexpected');
}

/** An error shown where it happened, said at once by screen readers. */
export function ErrorLine({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {errorText(error)}
    </p>
  );
}

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Loads `fn()` when `key` changes; an answer to an older key is dropped. */
export function useLoad<T>(fn: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ data: T | undefined; error: unknown; loading: boolean }>({
    data: undefined,
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const id = ++latest.current;
    setState((s) => ({ ...s, loading: true, error: null }));
    fn().then(
      (data) => id === latest.current && setState({ data, error: null, loading: false }),
      (error: unknown) => id === latest.current && setState((s) => ({ data: s.data, error, loading: false })),
    );
  }, [key, tick]);
  return { ...state, reload: () => setTick((n) => n + 1) };
}

export function Loading() {
  return <p class="muted">{t('loading')}</p>;
}

/**
 * A modal dialog (the browser's own: it keeps the focus inside, closes on Escape, and the page behind is inert).
 * The focus returns to what had it when the dialog opened.
 */
export function Dialog({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useRef(`dialog-${Math.random().toString(36).slice(2)}`).current;
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const dialog = ref.current!;
    dialog.showModal();
    return () => {
      if (dialog.open) dialog.close();
      opener?.focus?.();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={id}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={id}>{title}</h2>
      {children}
    </dialog>
  );
}

/** Asks before an action that cannot be undone; `busy` while it runs, `error` if it failed. */
export function Confirm(props: {
  title: string;
  text: string;
  confirm: string;
  danger?: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await props.onConfirm();
      props.onClose();
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <p>{props.text}</p>
      <ErrorLine error={error} />
      <div class="actions">
        <button type="button" class={props.danger ? 'danger' : 'primary'} disabled={busy} onClick={run}>
          {props.confirm}
        </button>
        {/* The dialog opens on the harmless choice: Enter or Space does not sign out or delete by accident. */}
        {/* biome-ignore lint/a11y/noAutofocus: focus moves into the modal dialog on opening, onto the harmless choice */}
        <button type="button" autoFocus onClick={props.onClose}>
          {t('cancel')}
        </button>
      </div>
    </Dialog>
  );
}

export function Pager({
  page,
  pageSize,
  total,
  onPage,
  label,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (p: number) => void;
  label: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('previous')}
      </button>
      <span>{t('pageOf', { page, pages })}</span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('next')}
      </button>
    </nav>
  );
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      announce(t('copied'));
    } catch {
      announce(t('copyFailed'));
    }
  };
  return (
    <button type="button" onClick={copy}>
      {label}
    </button>
  );
}

/** Text of a form field (Preact's events are untyped DOM events). */
export const fieldValue = (event: Event) => (event.currentTarget as HTMLInputElement).value;
export const checkedOf = (event: Event) => (event.currentTarget as HTMLInputElement).checked;

/** Runs an action with a busy flag and an error; returns whether it succeeded. */
export function useAction(): {
  busy: boolean;
  error: unknown;
  run: (fn: () => Promise<unknown>) => Promise<boolean>;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, clear: () => setError(null) };
}

/** Plain access check for a page whose role may not see it. */
export function NoAccess() {
  return <p>{t('noAccess')}</p>;
}

/** A column of a RecordTable: its heading, which is also each cell's label when the table shows as cards. */
export interface Column<R> {
  label: string;
  cell: (row: R) => ComponentChildren;
  class?: string;
  title?: (row: R) => string | undefined;
}

/**
 * Records as a table, named by a caption (read by screen readers only) or by a heading. Below 40rem each row shows
 * as a card with the column's name before each value (styles.css); the markup stays a table for assistive technology.
 */
export function RecordTable<R>({
  caption,
  labelledBy,
  columns,
  rows,
}: {
  caption?: string;
  labelledBy?: string;
  columns: Column<R>[];
  rows: readonly R[];
}) {
  return (
    <div class="table-wrap">
      <table class="rows" aria-labelledby={labelledBy}>
        {caption && <caption class="sr-only">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col">{c.label}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr>
              {columns.map((c) => (
                <td data-label={c.label} class={c.class} title={c.title?.(row)}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
