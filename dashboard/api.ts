// The one way the app talks to the server: same-origin JSON under /dashboard/api, the session's CSRF token on every
// call that changes something, errors as ApiError with the server's code and message. A 401 on any call means the
// session ended (expired, or signed out elsewhere): the app falls back to the sign-in screen.
import { signal } from '@preact/signals';
import type { Page } from '../server/dashboard/contract.js';

const API = '/dashboard/api';

/** The session's CSRF token, from GET /me. */
export const csrf = signal('');
/** Set when a call finds the session gone. */
export const sessionEnded = signal(false);

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter: number | null = null,
    /** What else the error said (an import's `columns` when it asks for a column mapping). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

interface CallOptions {
  /** A body sent as is (a CSV file), with this content type. */
  raw?: { body: Blob | string; type: string };
  /** A 401 is the caller's to handle (GET /me, asking for a sign-in link). */
  quiet401?: boolean;
}

export async function api<T>(method: Method, path: string, body?: unknown, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET' && csrf.value) headers['x-csrf-token'] = csrf.value;
  let payload: BodyInit | undefined;
  if (options.raw) {
    headers['content-type'] = options.raw.type;
    payload = options.raw.body;
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(API + path, { method, headers, body: payload, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'network', '');
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  if (res.ok) return json as T;
  const error = (json as { error?: { code?: string; message?: string } } | null)?.error;
  if (res.status === 401 && !options.quiet401) sessionEnded.value = true;
  const retry = Number(res.headers.get('retry-after'));
  throw new ApiError(
    res.status,
    error?.code ?? 'http',
    error?.message ?? '',
    Number.isFinite(retry) && retry > 0 ? retry : null,
  );
}

/** A shop-scoped path: `/shops/{id}{rest}`. */
export const shopApi = (shopId: number, rest: string) => `/shops/${shopId}${rest}`;

/** A query string of the values that are set. */
export function query(values: Record<string, string | number | boolean | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    params.set(key, value === true ? '1' : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Lists answer `{items, total, page, page_size}`; a few older ones a bare array. */
export type { Page };

export function asPage<T>(value: unknown, key = 'items'): Page<T> {
  if (Array.isArray(value)) return { items: value as T[], total: value.length, page: 1, page_size: value.length || 20 };
  const v = (value ?? {}) as Record<string, unknown>;
  const items = (Array.isArray(v[key]) ? v[key] : Array.isArray(v.items) ? v.items : []) as T[];
  return {
    items,
    total: typeof v.total === 'number' ? v.total : items.length,
    page: typeof v.page === 'number' ? v.page : 1,
    page_size: typeof v.page_size === 'number' ? v.page_size : 20,
  };
}

/**
 * A multipart upload (an import file) through XMLHttpRequest, the one browser API that reports how much of a body was
 * sent: `onProgress` gets the share sent, 0–1. Answers and errors as api() gives them.
 */
export function upload<T>(path: string, form: FormData, onProgress: (share: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', API + path);
    xhr.setRequestHeader('accept', 'application/json');
    if (csrf.value) xhr.setRequestHeader('x-csrf-token', csrf.value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'network', ''));
    xhr.onload = () => {
      let json: unknown = null;
      try {
        json = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        // Not JSON (a proxy's error page): the status says enough.
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(json as T);
        return;
      }
      const error = (json as { error?: { code?: string; message?: string } } | null)?.error;
      if (xhr.status === 401) sessionEnded.value = true;
      reject(new ApiError(xhr.status, error?.code ?? 'http', error?.message ?? '', null, error ?? {}));
    };
    xhr.send(form);
  });
}
