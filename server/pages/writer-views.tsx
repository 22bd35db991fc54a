// The writer's own-review pages: the confirmation before deleting, and the expired edit link's page that offers a
// new one. Both act by a POST (mail scanners open every GET link), to the same token-carrying address family.
import { renderDocument } from './components.js';
import type { PageFrame } from './views.js';
import type { WriterStrings } from './writer-strings.js';

const titled = (frame: PageFrame, title: string) => `${title} | ${frame.brandName}`;

export function deleteConfirmPage(frame: PageFrame, w: WriterStrings, shopName: string, token: string): string {
  return renderDocument({
    lang: frame.lang,
    title: titled(frame, w.deleteTitle),
    footer: frame.t.footer(frame.brandName),
    children: (
      <>
        <h1>{w.deleteTitle}</h1>
        <p>{w.deleteBody(shopName)}</p>
        <form method="post" action={`/edit/${token}/delete`}>
          <button type="submit">{w.deleteButton}</button>
        </form>
        <p>
          <a href={`/edit/${token}`}>{w.keepLink}</a>
        </p>
      </>
    ),
  });
}

export function expiredEditPage(
  frame: PageFrame,
  w: WriterStrings,
  title: string,
  body: string,
  token: string,
): string {
  return renderDocument({
    lang: frame.lang,
    title: titled(frame, title),
    footer: frame.t.footer(frame.brandName),
    children: (
      <>
        <h1>{title}</h1>
        <p>{body}</p>
        <p>{w.renewIntro}</p>
        <form method="post" action={`/edit/${token}/renew`}>
          <button type="submit">{w.renewButton}</button>
        </form>
      </>
    ),
  });
}
