/* The widget configurator in the browser: plain DOM, no framework. The page works without it (the form reloads
   the page); with it, fields that do not apply to the chosen layout are hidden, the preview and the snippet
   follow every change, and the snippet can be copied with one button.
   The widget URL and snippet are built as in widget/snippet.ts; keep the two in step. */
(function () {
  var form = document.getElementById('cfg');
  var config = JSON.parse(form.getAttribute('data-config'));
  var preview = document.getElementById('preview');
  var snippet = document.getElementById('snippet');
  var copyButton = document.getElementById('copy');
  var copied = document.getElementById('copied');
  var timer = 0;

  function value(name) {
    var field = form.elements[name];
    return field ? String(field.value).trim() : '';
  }

  function layout() {
    return config.layouts[value('layout')] || config.layouts.new_default;
  }

  function takes(param) {
    return layout().params.indexOf(param) >= 0;
  }

  function holds(condition) {
    if (condition === 'show') return value('show') === 'yes';
    if (condition === 'slider') return value('show') === 'yes' && value('view') === 'slider';
    if (condition === 'manual') return value('width') === 'manual';
    return true;
  }

  function showApplicableFields() {
    var rows = form.querySelectorAll('[data-param]');
    for (var i = 0; i < rows.length; i++) {
      rows[i].hidden = !(takes(rows[i].getAttribute('data-param')) && holds(rows[i].getAttribute('data-when')));
    }
  }

  function proposeHeight() {
    var info = layout();
    var amount = Math.min(6, Math.max(1, Number(value('amount')) || 1));
    var height = !takes('show') || value('show') !== 'yes' ? info.none : value('view') === 'slider' ? info.slider : info.list[amount - 1];
    form.elements.height.value = String(height);
  }

  function query() {
    var q = new URLSearchParams();
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
      }
    }
    q.set('width', value('width'));
    if (value('width') === 'manual') q.set('width_amount', normalWidth() || value('width_amount'));
    q.set('height', value('height'));
    q.set('language', value('language'));
    if (value('css')) q.set('css', value('css'));
    return q;
  }

  function normalWidth() {
    var m = /^(\d{1,4})(px|%)?$/.exec(value('width_amount'));
    return m ? m[1] + (m[2] || 'px') : '';
  }

  function iframeWidth() {
    var width = value('width') === 'manual' ? normalWidth() : '';
    if (!width) return '100%';
    return width.slice(-1) === '%' ? width : width.slice(0, -2);
  }

  function attribute(text) {
    return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  }

  function update() {
    showApplicableFields();
    var q = query().toString();
    var title = config.titles[value('language')] || '';
    snippet.value =
      '<iframe src="' + attribute(config.base + '/webshops/widget_html?' + q) + '" width="' + iframeWidth() + '" height="' +
      value('height') + '" title="' + attribute(title) + '" loading="lazy" style="border:0"></iframe>';
    if (!preview) return;
    clearTimeout(timer);
    timer = setTimeout(function () {
      preview.width = iframeWidth();
      preview.height = value('height');
      preview.title = title;
      preview.src = '/webshops/widget_html?' + q;
    }, 250);
  }

  form.addEventListener('input', function (event) {
    var name = event.target.name;
    if (name === 'layout' || name === 'show' || name === 'view' || name === 'amount') proposeHeight();
    if (name === 'width' && value('width') === 'manual' && !value('width_amount')) {
      form.elements.width_amount.value = layout().width + 'px';
    }
    update();
  });

  function report(ok) {
    copied.textContent = ok ? 'Copied.' : 'Copying was not allowed: the code is selected, press Ctrl+C (or Cmd+C).';
  }

  function copyBySelection() {
    snippet.focus();
    snippet.select();
    var ok = false;
    try {
      ok = document.execCommand('copy');
    } catch (error) {
      ok = false;
    }
    report(ok);
  }

  copyButton.hidden = false;
  copyButton.addEventListener('click', function () {
    copied.textContent = '';
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(snippet.value).then(function () {
        report(true);
      }, copyBySelection);
    } else {
      copyBySelection();
    }
  });

  showApplicableFields();
})();
