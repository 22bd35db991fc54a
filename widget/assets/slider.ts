// The review slider of the widget: plain DOM, no framework. The server renders every review, the first one
// visible; this script reveals the controls and moves to the next review every data-interval milliseconds.
// It stops while the pointer is over the slider, while something in it has focus, while the page is hidden,
// when the visitor pressed pause, and from the start when the visitor prefers reduced motion.
// Built by Vite (`vite build --mode slider`) and inlined into the page, allowed by its hash.

function start(root: HTMLElement): void {
  const track = root.querySelector<HTMLElement>('.tr')!;
  const slides = track.children;
  const total = slides.length;
  const position = root.querySelector<HTMLElement>('[data-pos]')!;
  const pauseButton = root.querySelector<HTMLButtonElement>('[data-pause]')!;
  const interval = Math.max(1000, Number(root.getAttribute('data-interval')) || 5000);
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
  let index = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let hovered = false;
  let focused = false;
  let paused = reducedMotion.matches;

  const show = (next: number) => {
    index = (next + total) % total;
    track.style.transform = `translateX(${-100 * index}%)`;
    for (let i = 0; i < total; i++) (slides[i] as HTMLElement).inert = i !== index;
    position.textContent = `${index + 1} / ${total}`;
    root.setAttribute('data-index', String(index));
  };

  const running = () => !paused && !hovered && !focused && !document.hidden;

  const schedule = () => {
    clearTimeout(timer);
    // Announce slide changes only when the visitor makes them, not on every automatic turn.
    track.setAttribute('aria-live', running() ? 'off' : 'polite');
    if (running()) {
      timer = setTimeout(() => {
        show(index + 1);
        schedule();
      }, interval);
    }
  };

  const setPaused = (value: boolean) => {
    paused = value;
    pauseButton.setAttribute(
      'aria-label',
      pauseButton.getAttribute(value ? 'data-play-label' : 'data-pause-label') ?? '',
    );
    pauseButton.firstChild!.textContent = value ? '\u25B6' : '\u275A\u275A';
    schedule();
  };

  root.addEventListener('mouseenter', () => {
    hovered = true;
    schedule();
  });
  root.addEventListener('mouseleave', () => {
    hovered = false;
    schedule();
  });
  root.addEventListener('focusin', () => {
    focused = true;
    schedule();
  });
  root.addEventListener('focusout', (event) => {
    focused = root.contains(event.relatedTarget as Node | null);
    schedule();
  });
  document.addEventListener('visibilitychange', schedule);
  reducedMotion.addEventListener('change', () => setPaused(reducedMotion.matches));
  root.addEventListener('click', (event) => {
    const button = (event.target as Element).closest('button');
    if (!button) return;
    if (button.hasAttribute('data-pause')) setPaused(!paused);
    else show(index + Number(button.getAttribute('data-go')));
  });

  root.querySelector<HTMLElement>('.ct')!.hidden = false;
  show(0);
  setPaused(paused);
}

const root = document.querySelector<HTMLElement>('[data-slider]');
if (root) start(root);
