// What JavaScript adds to the review form that works without it: a count of the characters left under each text
// field (announced only when few are left, so a screen reader is not interrupted at every key), and a guard
// against a second submission while the first is on its way (a double click would otherwise post the review twice).
// On the shop page, "Helpful" is sent in the background and remembered in the browser's storage (one vote per
// browser and review; no cookie), and it opens a review's photo in the page's dialog instead of following the link to the file
// (issue 20): the native modal dialog keeps the keyboard inside it and closes with Escape; focus then returns to the
// thumbnail that opened it.
// Built by Vite (`vite build --mode review-form`) and inlined into the page, allowed by its hash.

function enhance(form: HTMLFormElement): void {
  let sent = false;
  form.addEventListener('submit', (event) => {
    if (sent) {
      event.preventDefault();
      return;
    }
    sent = true;
    form.querySelector('button[type=submit]')?.setAttribute('aria-disabled', 'true');
  });

  const template = form.getAttribute('data-left') ?? '';
  for (const area of form.querySelectorAll<HTMLTextAreaElement>('textarea[maxlength]')) {
    const hint = document.createElement('p');
    hint.className = 'hint';
    hint.id = `${area.id}-left`;
    area.insertAdjacentElement('afterend', hint);
    const described = area.getAttribute('aria-describedby');
    area.setAttribute('aria-describedby', (described ? `${described} ` : '') + hint.id);
    const update = () => {
      const left = area.maxLength - area.value.length;
      hint.textContent = template.replace('{n}', String(left));
      if (left <= 50) hint.setAttribute('aria-live', 'polite');
      else hint.removeAttribute('aria-live');
    };
    update();
    area.addEventListener('input', update);
  }
}

const form = document.querySelector('form[data-left]');
if (form instanceof HTMLFormElement) enhance(form);

const dialog = document.getElementById('photo-dialog');
if (dialog instanceof HTMLDialogElement) {
  const image = dialog.querySelector('img');
  let opener: HTMLElement | null = null;
  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.('a[data-photo]');
    if (!(link instanceof HTMLAnchorElement) || !image) return;
    event.preventDefault();
    opener = link;
    const thumb = link.querySelector('img');
    image.src = link.href;
    image.alt = thumb?.alt ?? '';
    image.width = Number(link.dataset.width);
    image.height = Number(link.dataset.height);
    dialog.setAttribute('aria-label', image.alt);
    dialog.showModal();
  });
  dialog.addEventListener('close', () => {
    opener?.focus();
    opener = null;
  });
  // A click on the backdrop (outside the photo) closes it too.
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
}

for (const vote of document.querySelectorAll<HTMLFormElement>('form.helpful')) {
  const key = `helpful:${vote.dataset.review}`;
  const button = vote.querySelector('button');
  const voted = () => {
    try {
      return localStorage.getItem(key) === '1';
    } catch {
      return false;
    }
  };
  button?.setAttribute('aria-pressed', String(voted()));
  let busy = false;
  vote.addEventListener('submit', (event) => {
    event.preventDefault();
    if (voted() || busy) return;
    busy = true;
    const body = new URLSearchParams();
    for (const [name, value] of new FormData(vote)) body.append(name, String(value));
    fetch(vote.action, { method: 'POST', headers: { accept: 'application/json' }, body })
      .then((res) => (res.ok ? res.json() : null))
      .then((answer: { text?: string } | null) => {
        if (!answer) return;
        const count = vote.querySelector('[data-count]');
        if (count && answer.text) count.textContent = answer.text;
        try {
          localStorage.setItem(key, '1');
        } catch {
          // Storage refused (private mode): the address still counts once.
        }
        button?.setAttribute('aria-pressed', 'true');
      })
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  });
}
