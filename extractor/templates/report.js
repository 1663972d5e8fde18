(function () {
  var papers = Array.prototype.slice.call(document.querySelectorAll('article.paper'));
  var boxes = Array.prototype.slice.call(document.querySelectorAll('.filters input[data-filter]'));
  var search = document.getElementById('search');
  var shown = document.getElementById('shown');
  var texts = papers.map(function (p) { return p.textContent.toLowerCase(); });
  function apply() {
    var on = boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.dataset.filter; });
    var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    var n = 0;
    papers.forEach(function (p, i) {
      var keep = on.every(function (f) { return p.dataset[f] === '1'; }) &&
        words.every(function (w) { return texts[i].indexOf(w) >= 0; });
      p.classList.toggle('hidden', !keep);
      if (keep) { n++; }
    });
    shown.textContent = 'showing ' + n + ' of ' + papers.length + ' papers';
  }
  boxes.forEach(function (b) {
    if (location.hash.slice(1).split(',').indexOf(b.dataset.filter) >= 0) { b.checked = true; }
    b.addEventListener('change', apply);
  });
  search.addEventListener('input', apply);
  function light(claim, on) {
    document.querySelectorAll('[data-claims~="' + claim + '"], tr[data-claim="' + claim + '"]')
      .forEach(function (el) { el.classList.toggle('on', on); });
  }
  document.querySelectorAll('tr[data-claim]').forEach(function (row) {
    row.addEventListener('mouseenter', function () { light(row.dataset.claim, true); });
    row.addEventListener('mouseleave', function () { light(row.dataset.claim, false); });
  });
  apply();
})();
