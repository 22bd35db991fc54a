// Success bodies serialised once and served many times. The hot read endpoints (webshop.json, the summary,
// ratings.json) answer from cached objects that change only when the shop or its reviews do; serialising them
// again for every request was a large share of each request's time. The text is remembered per source object
// (a WeakMap), so a reloaded object gets new text and an evicted one takes its text with it.

/** A JSON body that is already text: classic() sends it as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

const texts = new WeakMap<object, string>();

/** JSON.stringify(build()), computed once per `source` object. */
export function memoJson(source: object, build: () => unknown): string {
  let text = texts.get(source);
  if (text === undefined) {
    text = JSON.stringify(build());
    texts.set(source, text);
  }
  return text;
}

/** The source object changed in place (a count kept up to date): its text is made again on next use. */
export function forgetJson(source: object): void {
  texts.delete(source);
}
