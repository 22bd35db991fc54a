// What JavaScript adds to the review form that works without it: a count of the characters left under each text
// field (announced only when few are left, so a screen reader is not interrupted at every key), and a guard
// against a second submission while the first is on its way (a double click would otherwise post the review twice).
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
