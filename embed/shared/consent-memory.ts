// Remembers on the shop's page which orders already had their consent choice, so the dialog is shown once per
// order. One key (`_service_consent`) in sessionStorage and localStorage holds a JSON list of hashed order keys:
// order numbers are not kept in the clear. Storage that is blocked or full is simply not used.

const MAX_REMEMBERED = 50;

/** FNV-1a, 32 bits, in base 36: not a secret, only keeps order numbers out of plain sight in the page's storage. */
function hashKey(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

export const orderKey = (webshopId: number, orderNumber: string): string => hashKey(`${webshopId}:${orderNumber}`);

type StorageLike = Pick<Storage, 'getItem' | 'setItem'>;

function read(storage: StorageLike | undefined, name: string): string[] {
  try {
    const list: unknown = JSON.parse(storage?.getItem(name) ?? '[]');
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export function isRemembered(stores: (StorageLike | undefined)[], name: string, key: string): boolean {
  return stores.some((s) => read(s, name).includes(key));
}

export function remember(stores: (StorageLike | undefined)[], name: string, key: string): void {
  for (const storage of stores) {
    const list = read(storage, name).filter((k) => k !== key);
    list.push(key);
    try {
      storage?.setItem(name, JSON.stringify(list.slice(-MAX_REMEMBERED)));
    } catch {
      // Blocked or full: the server still answers 409 for an order that already has a choice.
    }
  }
}

/** The page's storages, each only if it can be reached (access throws in some sandboxed frames). */
export function pageStores(win: Window): (StorageLike | undefined)[] {
  const get = (pick: () => Storage) => {
    try {
      return pick();
    } catch {
      return undefined;
    }
  };
  return [get(() => win.sessionStorage), get(() => win.localStorage)];
}
