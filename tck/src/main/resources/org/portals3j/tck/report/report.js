/* The HTML report's filters, inlined by HtmlReport. It only shows and hides the report's own rows and
   sets text with textContent: it never builds markup from the report's data, which may be hostile. */
(function () {
  'use strict';
  var rows = Array.prototype.slice.call(document.querySelectorAll('#assertions tbody.assertion'));
  var texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
  var buttons = Array.prototype.slice.call(document.querySelectorAll('#verdict-filter button'));
  var specSelect = document.getElementById('spec-filter');
  var search = document.getElementById('search');
  var areaChip = document.getElementById('area-chip');
  var areaName = document.getElementById('area-name');
  var shownCount = document.getElementById('shown-count');
  var state = { verdict: 'all', spec: 'all', area: '', spec_of_area: '', query: '' };

  function matches(row, i) {
    if (state.verdict !== 'all' && (' ' + row.getAttribute('data-verdicts') + ' ').indexOf(' ' + state.verdict + ' ') < 0) {
      return false;
    }
    if (state.spec !== 'all' && row.getAttribute('data-spec') !== state.spec) {
      return false;
    }
    if (state.area && (row.getAttribute('data-area') !== state.area || row.getAttribute('data-spec') !== state.spec_of_area)) {
      return false;
    }
    return !state.query || texts[i].indexOf(state.query) >= 0;
  }

  function apply() {
    var shown = 0;
    rows.forEach(function (row, i) {
      var show = matches(row, i);
      row.hidden = !show;
      if (show) {
        shown++;
      }
    });
    buttons.forEach(function (b) {
      b.setAttribute('aria-pressed', String(b.getAttribute('data-filter') === state.verdict));
    });
    specSelect.value = state.spec;
    areaChip.hidden = !state.area;
    areaName.textContent = state.area;
    shownCount.textContent = 'showing ' + shown + ' of ' + rows.length;
  }

  function reset() {
    state.verdict = 'all';
    state.spec = 'all';
    state.area = '';
    state.query = '';
    search.value = '';
  }

  buttons.forEach(function (b) {
    b.addEventListener('click', function () {
      state.verdict = b.getAttribute('data-filter');
      apply();
    });
  });
  specSelect.addEventListener('change', function () {
    state.spec = specSelect.value;
    if (state.area && state.spec !== state.spec_of_area) {
      state.area = '';
    }
    apply();
  });
  search.addEventListener('input', function () {
    state.query = search.value.trim().toLowerCase();
    apply();
  });
  document.getElementById('area-clear').addEventListener('click', function () {
    state.area = '';
    apply();
  });
  // A matrix row's area name lists that area's assertions.
  Array.prototype.slice.call(document.querySelectorAll('#matrix a[data-area]')).forEach(function (a) {
    a.addEventListener('click', function () {
      state.area = a.getAttribute('data-area');
      state.spec = a.getAttribute('data-spec');
      state.spec_of_area = state.spec;
      apply();
    });
  });

  // '#failed' (or any filter's name) opens the list filtered; '#a-P-061' shows that assertion even if filtered out.
  function followHash() {
    var hash = decodeURIComponent(location.hash.slice(1));
    var isFilter = buttons.some(function (b) { return b.getAttribute('data-filter') === hash; });
    if (isFilter) {
      state.verdict = hash;
      apply();
      return;
    }
    var target = hash ? document.getElementById(hash) : null;
    if (target && target.hidden) {
      reset();
      apply();
      target.scrollIntoView();
    }
  }
  window.addEventListener('hashchange', followHash);

  apply();
  followHash();
  document.body.setAttribute('data-script', 'ready');
})();
