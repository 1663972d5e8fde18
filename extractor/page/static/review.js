// The review page's keys. Plain JavaScript, no build step. Every text from the server is set
// with textContent (never as HTML); every request carries the URL's token, the page's CSRF
// token and, being same-origin, its Origin.
(function () {
  'use strict';
  var token = document.body.dataset.token;
  var csrf = document.querySelector('meta[name=csrf]').content;
  var main = document.getElementById('main');
  var tab = sessionStorage.getItem('review-tab');
  if (!tab) {
    tab = Math.random().toString(36).slice(2) + Date.now().toString(36);
    sessionStorage.setItem('review-tab', tab);
  }

  function api(path, data) {
    return fetch(path + '?token=' + encodeURIComponent(token), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
      body: JSON.stringify(Object.assign({ tab: tab }, data || {}))
    }).then(function (r) { return r.json(); });
  }
  function go(url) { if (url) { location.href = url; } }
  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = text; }
    if (cls) { node.className = cls; }
    return node;
  }
  function toggleKeys() { var k = document.getElementById('keys'); k.hidden = !k.hidden; }

  var done = document.getElementById('done');
  if (done) {
    api('/api/finish').then(function (res) {
      var p = document.getElementById('rebuilt');
      p.textContent = res.messages.length ? 'Rebuilt: ' + res.messages.join('; ') : 'Nothing to rebuild.';
    });
  }

  var view = main ? JSON.parse(document.getElementById('view').textContent) : null;
  var item = main ? { kind: main.dataset.kind, item_id: main.dataset.item, paper_id: main.dataset.paper } : null;
  var messages = document.getElementById('messages');
  var editing = null;   // the field being edited: {name, input, confirm}
  var pending = null;   // the panel waiting for a digit: 'conflict' | 'offers' | null
  var lastRequest = null;
  var lastConflicts = [];
  var lastOffers = [];

  function say(lines, cls) {
    if (!messages) { return; }
    messages.textContent = '';
    (lines || []).forEach(function (line) { messages.appendChild(el('p', line, cls)); });
  }
  function clearProblems() {
    document.querySelectorAll('tr.problem').forEach(function (row) { row.hidden = true; });
    document.querySelectorAll('p.problem').forEach(function (p) { p.hidden = true; });
  }
  function showProblems(problems, form) {
    problems.forEach(function (p) {
      var row = form ? document.querySelector('p[data-for-new="' + CSS.escape(p.field) + '"]')
                     : document.querySelector('tr.problem[data-for="' + CSS.escape(p.field) + '"]');
      var text = p.message + (p.confirm ? ' (Enter again records it as typed)' : '');
      if (row) {
        (form ? row : row.firstElementChild).textContent = text;
        row.hidden = false;
      } else {
        say([p.field + ': ' + text], 'bad');
      }
    });
  }
  function showConflicts(res) {
    var panel = document.getElementById('conflict');
    panel.textContent = '';
    panel.appendChild(el('b', 'Changed since you opened this'));
    res.conflicts.forEach(function (c) {
      panel.appendChild(el('p', c.field + ': ' + c.by + ' set “' + c.theirs + '”' + (c.at ? ' at ' + c.at : '') +
        ' (you saw “' + c.seen + '”); you set “' + c.yours + '”.'));
    });
    panel.appendChild(el('p', '1 keep theirs · 2 keep yours', 'hint'));
    panel.hidden = false;
    if (document.activeElement) { document.activeElement.blur(); }  // the digits choose now
    lastConflicts = res.conflicts;
    view = res.view || view;
    pending = 'conflict';
  }
  function showOffers(res, next) {
    var panel = document.getElementById('offers');
    panel.textContent = '';
    var names = res.offers.map(function (o) { return o.claim_id + ' (' + o.field + ' “' + o.name + '”)'; });
    panel.appendChild(el('b', res.offers.length + ' claim(s) still name it'));
    panel.appendChild(el('p', names.join(', ')));
    panel.appendChild(el('p', 'y clear it from them · n leave them', 'hint'));
    panel.hidden = false;
    lastOffers = res.offers;
    pending = 'offers';
    panel.dataset.next = next;
  }
  // Handle an answer: moved on (next), stayed (reload), refused or in conflict (shown here).
  function answered(res, after, form) {
    clearProblems();
    if (res.status === 'conflict') { showConflicts(res); say(res.messages, 'bad'); return false; }
    if (res.status === 'refused') {
      if (res.problems && res.problems.length) { showProblems(res.problems, form); } else { say(res.messages, 'bad'); }
      return false;
    }
    if (res.offers && res.offers.length) { showOffers(res, after); say(res.messages); return false; }
    if (after === 'reload') { location.reload(); } else if (after) { go(after); }
    return true;
  }
  function send(extra) {
    lastRequest = Object.assign({}, item, { view: view }, extra);
    return api('/api/decide', lastRequest);
  }

  function decideAndMove(decision) {
    send({ decision: decision }).then(function (res) {
      if (decision === 'reject' && res.status !== 'refused' && res.status !== 'conflict') {
        sessionStorage.setItem('review-rejected', JSON.stringify({ item: item, view: res.view }));
      }
      answered(res, main.dataset.next);
    });
  }

  function fieldRow(name) { return document.querySelector('tr[data-field="' + CSS.escape(name) + '"]'); }
  function selectedWords() {
    var sel = window.getSelection();
    var abstract = document.getElementById('abstract');
    if (!sel || sel.isCollapsed || !abstract || !abstract.contains(sel.anchorNode) || !abstract.contains(sel.focusNode)) { return null; }
    var text = sel.toString().replace(/^\s+|\s+$/g, '');
    return text || null;
  }
  function record(name, value, confirm) {
    var payload = name === 'note' ? { note: value } : { fields: {} };
    if (name !== 'note') { payload.fields[name] = value; }
    if (confirm) { payload.confirm = true; }
    return send(payload);
  }
  function edit(name, selected) {
    if (selected !== null) {
      record(name, selected).then(function (res) { answered(res, 'reload'); });
      return;
    }
    var row = fieldRow(name);
    var cell = row.querySelector('td.value');
    var input = el('input');
    input.value = cell.textContent;
    input.setAttribute('aria-label', name);
    cell.textContent = '';
    cell.appendChild(input);
    editing = { name: name, input: input, confirm: false, typed: null };
    input.focus();
    input.select();
    input.addEventListener('keydown', function (e) {
      if (e.key === 'Enter') {
        e.preventDefault();
        var confirm = editing.confirm && editing.typed === input.value;
        record(name, input.value, confirm).then(function (res) {
          if (res.status === 'refused' && (res.problems || []).some(function (p) { return p.confirm; })) {
            editing.confirm = true;
            editing.typed = input.value;
          }
          if (res.status === 'unchanged' && res.messages.length) { say(res.messages); return; }
          answered(res, 'reload');
        });
      } else if (e.key === 'Escape') {
        e.preventDefault();
        location.reload();
      }
      e.stopPropagation();
    });
  }

  // A number no claim holds: '+' walks them, Enter (or a click) starts a claim from it.
  var free = Array.prototype.slice.call(document.querySelectorAll('#abstract .free'));
  var freeAt = -1;
  function nextFree() {
    if (!free.length) { say(['every number of this abstract is a claim already']); return; }
    freeAt = (freeAt + 1) % free.length;
    free[freeAt].focus();
  }
  function newClaim(span) {
    var form = document.getElementById('newclaim');
    form.hidden = false;
    form.elements.value.value = span.dataset.value;
    form.elements.evidence.value = span.dataset.evidence;
    form.elements.unit.focus();
  }
  free.forEach(function (span) {
    span.addEventListener('click', function () { newClaim(span); });
    span.addEventListener('keydown', function (e) {
      if (e.key === 'Enter') { e.preventDefault(); e.stopPropagation(); newClaim(span); }
    });
  });
  var form = document.getElementById('newclaim');
  if (form) {
    form.addEventListener('keydown', function (e) {
      e.stopPropagation();
      if (e.key === 'Escape') { form.hidden = true; return; }
      if (e.key !== 'Enter') { return; }
      e.preventDefault();
      var fields = {};
      Array.prototype.forEach.call(form.elements, function (input) {
        if (input.name && input.value !== '') { fields[input.name] = input.value; }
      });
      lastRequest = { kind: 'claim', item_id: null, paper_id: item.paper_id, view: null, fields: fields };
      api('/api/decide', lastRequest).then(function (res) {
        if (res.status === 'applied' && res.view) {
          go(main.dataset.here + encodeURIComponent(res.view.id));
        } else {
          answered(res, null, true);
          say(res.messages, 'bad');
        }
      });
    });
  }

  // The reason for the reject just made: a digit as the first key on the next page.
  var rejected = JSON.parse(sessionStorage.getItem('review-rejected') || 'null');
  sessionStorage.removeItem('review-rejected');
  var reasons = Array.prototype.map.call(document.querySelectorAll('#keys ol li'), function (li) { return li.textContent; });

  function choose(n) {
    if (pending === 'conflict') {
      if (n === 1) { location.reload(); return; }
      if (n !== 2) { return; }
      var again = Object.assign({}, lastRequest, { view: view, fields: Object.assign({}, lastRequest.fields || {}) });
      lastConflicts.forEach(function (c) {
        if (c.field === 'decision') { again.decision = c.yours_raw; } else { again.fields[c.field] = c.yours_raw; }
      });
      api('/api/decide', again).then(function (res) { answered(res, 'reload'); });
      return;
    }
    var choice = document.querySelector('#disagree .choice[data-n="' + n + '"]');
    if (!choice) { return; }
    var field = choice.dataset.field;
    var value = JSON.parse(choice.dataset.value);
    var payload = { settle: true };
    if (field === 'decision') { payload.decision = value === 'reject' ? 'reject' : 'accept'; }
    else { payload.fields = {}; payload.fields[field] = value; }
    send(payload).then(function (res) { answered(res, 'reload'); });
  }

  document.addEventListener('keydown', function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) { return; }
    var target = e.target;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA')) { return; }
    var key = e.key;
    var first = rejected;
    rejected = null;
    if (key === '?') { toggleKeys(); e.preventDefault(); return; }
    if (key === 'Escape') {
      document.getElementById('keys').hidden = true;
      ['conflict', 'offers'].forEach(function (id) { var p = document.getElementById(id); if (p) { p.hidden = true; } });
      pending = null;
      return;
    }
    if (!main) { return; }
    if (first && /^[1-9]$/.test(key) && reasons[Number(key) - 1]) {
      e.preventDefault();
      api('/api/decide', Object.assign({}, first.item, { view: first.view, note: reasons[Number(key) - 1] })).then(function (res) {
        say(res.status === 'applied' ? ['reason recorded for ' + first.item.item_id + ': ' + reasons[Number(key) - 1]] : res.messages);
      });
      return;
    }
    if (pending === 'offers' && (key === 'y' || key === 'n')) {
      e.preventDefault();
      var next = document.getElementById('offers').dataset.next;
      if (key === 'n') { go(next); return; }
      api('/api/clear', { offers: lastOffers }).then(function (res) { say(res.messages); go(next); });
      return;
    }
    if (/^[1-9]$/.test(key)) { e.preventDefault(); choose(Number(key)); return; }
    if (key === 'a') { e.preventDefault(); decideAndMove('accept'); return; }
    if (key === 'x') { e.preventDefault(); decideAndMove('reject'); return; }
    if (key === ' ') { e.preventDefault(); go(main.dataset.next); return; }
    if (key === 'Backspace') {
      e.preventDefault();
      api('/api/undo').then(function (res) {
        if (res.status === 'conflict') { say(res.messages, 'bad'); return; }
        if (res.view && res.view.id) { go(main.dataset.here + encodeURIComponent(res.view.id)); } else { say(res.messages); }
      });
      return;
    }
    if (key === 'ArrowRight') { e.preventDefault(); go(main.dataset.next); return; }
    if (key === 'ArrowLeft') { e.preventDefault(); go(main.dataset.prev); return; }
    if (key === 'ArrowDown' || key === ']') { e.preventDefault(); go(main.dataset.nextPaper); return; }
    if (key === 'ArrowUp' || key === '[') { e.preventDefault(); go(main.dataset.prevPaper); return; }
    if (key === '+') { e.preventDefault(); nextFree(); return; }
    var modes = { A: 'claim', I: 'item', P: 'paper' };
    if (modes[key]) { e.preventDefault(); go('/?token=' + encodeURIComponent(token) + '&mode=' + modes[key]); return; }
    if (key === 'U') { var u = document.querySelector('nav.filters a[data-filter="unreviewed"]'); if (u) { go(u.href); } return; }
    var row = document.querySelector('tr[data-key="' + CSS.escape(key) + '"]');
    if (row) { e.preventDefault(); edit(row.dataset.field, selectedWords()); }
  });
})();
