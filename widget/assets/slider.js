/* The review slider of the widget: plain DOM, no framework. The server renders every review, the first one
   visible; this script reveals the controls and moves to the next review every data-interval milliseconds.
   It stops while the pointer is over the slider, while something in it has focus, while the page is hidden,
   when the visitor pressed pause, and from the start when the visitor prefers reduced motion. */
(function () {
  var root = document.querySelector('[data-slider]');
  if (!root) return;
  var track = root.querySelector('.tr');
  var slides = track.children;
  var total = slides.length;
  var position = root.querySelector('[data-pos]');
  var pauseButton = root.querySelector('[data-pause]');
  var interval = Math.max(1000, Number(root.getAttribute('data-interval')) || 5000);
  var reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
  var index = 0;
  var timer = 0;
  var hovered = false;
  var focused = false;
  var paused = reducedMotion.matches;

  function show(next) {
    index = (next + total) % total;
    track.style.transform = 'translateX(' + -100 * index + '%)';
    for (var i = 0; i < total; i++) slides[i].inert = i !== index;
    position.textContent = index + 1 + ' / ' + total;
    root.setAttribute('data-index', String(index));
  }

  function running() {
    return !paused && !hovered && !focused && !document.hidden;
  }

  function schedule() {
    clearTimeout(timer);
    // Announce slide changes only when the visitor makes them, not on every automatic turn.
    track.setAttribute('aria-live', running() ? 'off' : 'polite');
    if (running()) {
      timer = setTimeout(function () {
        show(index + 1);
        schedule();
      }, interval);
    }
  }

  function setPaused(value) {
    paused = value;
    pauseButton.setAttribute('aria-label', pauseButton.getAttribute(value ? 'data-play-label' : 'data-pause-label'));
    pauseButton.firstChild.textContent = value ? '\u25B6' : '\u275A\u275A';
    schedule();
  }

  root.addEventListener('mouseenter', function () {
    hovered = true;
    schedule();
  });
  root.addEventListener('mouseleave', function () {
    hovered = false;
    schedule();
  });
  root.addEventListener('focusin', function () {
    focused = true;
    schedule();
  });
  root.addEventListener('focusout', function (event) {
    focused = root.contains(event.relatedTarget);
    schedule();
  });
  document.addEventListener('visibilitychange', schedule);
  reducedMotion.addEventListener('change', function () {
    setPaused(reducedMotion.matches);
  });
  root.addEventListener('click', function (event) {
    var button = event.target.closest('button');
    if (!button) return;
    if (button.hasAttribute('data-pause')) setPaused(!paused);
    else show(index + Number(button.getAttribute('data-go')));
  });

  root.querySelector('.ct').hidden = false;
  show(0);
  setPaused(paused);
})();
