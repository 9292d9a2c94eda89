// @ts-check
/* recapito console page behaviours: small, no framework. Pages work as plain HTML; this adds the
 * verify result, the list upload and mapping, live job progress and the usage chart. */
(function () {
  'use strict';
  var csrfMeta = document.querySelector('meta[name="csrf-token"]');
  var csrf = csrfMeta ? csrfMeta.getAttribute('content') || '' : '';
  var textsEl = document.getElementById('console-texts');
  /** @type {Record<string, string>} */
  var T = textsEl ? JSON.parse(textsEl.textContent || '{}') : {};
  function t(key, params) {
    return (T[key] || key).replace(/\{(\w+)\}/g, function (_, k) { return params && params[k] !== undefined ? String(params[k]) : '{' + k + '}'; });
  }

  /** @param {string} tag @param {Record<string, string>} [attrs] @param {(Node|string)[]} [children] */
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, (attrs || {})[k]); });
    (children || []).forEach(function (c) { e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return e;
  }

  function send(method, url, body, contentType) {
    var headers = { 'x-csrf-token': csrf, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = contentType || 'application/json';
    return fetch(url, { method: method, headers: headers, credentials: 'same-origin', body: body === undefined ? undefined : contentType ? body : JSON.stringify(body) }).then(function (res) {
      if (res.status === 401) {
        location.href = '/console/login?expired=1';
        throw new Error('session expired');
      }
      return res.json().then(function (json) { return { status: res.status, body: json }; });
    });
  }

  // ---- verify ------------------------------------------------------------------------------------
  var verifyForm = document.getElementById('verify-form');
  var resultBox = document.getElementById('verify-result');
  function row(dl, label, value) {
    if (value === undefined || value === null || value === '') return;
    dl.appendChild(el('dt', {}, [label]));
    dl.appendChild(value instanceof Node ? el('dd', {}, [value]) : el('dd', {}, [String(value)]));
  }
  /** @param {any} r the /contact record @param {boolean} [selected] it came from the autocomplete's select */
  function showRecord(r, selected) {
    if (!resultBox) return;
    resultBox.textContent = '';
    resultBox.appendChild(el('h2', { id: 'result-title' }, [T.verified_record || t('outcome')]));
    if (r.ok === undefined && r.code) {
      resultBox.appendChild(el('p', { class: 'notice error', role: 'alert' }, [r.message || r.code]));
      return;
    }
    var label = r.outcome_label || 'ok';
    resultBox.appendChild(el('p', { class: 'result-head' }, [el('span', { class: 'label s-' + label }, [label]), el('span', { class: 'reason' }, [r.reason || ''])]));
    var n = r.normalized || {};
    var dl = el('dl', { class: 'record' });
    row(dl, t('normalized'), [n.address, [n.postcode, n.city, n.province].filter(Boolean).join(' '), n.country].filter(Boolean).join(', '));
    var pc = r.postcode_check;
    if (pc) row(dl, t('postcode_check'), (pc.confirmed ? t('confirmed') : t('not_confirmed')) + (pc.precision ? ' (' + t('precision') + ': ' + pc.precision + ')' : ''));
    var g = r.geo;
    if (g && g.lat !== undefined && g.lat !== null) {
      var a = el('a', { href: 'https://www.openstreetmap.org/?mlat=' + g.lat + '&mlon=' + g.lon + '#map=18/' + g.lat + '/' + g.lon, rel: 'noopener', target: '_blank' }, [t('map_link')]);
      var span = el('span', { class: 'coords' }, [Number(g.lat).toFixed(6) + ', ' + Number(g.lon).toFixed(6) + ' (' + t('precision') + ': ' + g.precision + ') ']);
      span.appendChild(a);
      row(dl, t('coordinates'), span);
    }
    var ter = r.territory;
    if (ter) row(dl, t('territory'), [ter.istat_code, ter.cadastral_code, ter.street_id].filter(function (x) { return x !== undefined && x !== null; }).join(' / '));
    if (r.credit) row(dl, t('charged'), r.credit.charged === 0 && selected ? '0 (' + t('street_already_charged') + ')' : r.credit.charged);
    resultBox.appendChild(dl);
    var codes = r.codes || [];
    if (codes.length) {
      var table = el('table', { class: 'codes' }, [el('thead', {}, [el('tr', {}, [el('th', { scope: 'col' }, [t('codes')]), el('th', { scope: 'col' }, [t('code_meaning')])])])]);
      var tb = el('tbody');
      codes.forEach(function (c) { tb.appendChild(el('tr', {}, [el('td', {}, [el('code', {}, [c.code])]), el('td', {}, [c.reason || ''])])); });
      table.appendChild(tb);
      resultBox.appendChild(table);
    }
    if (r.message) resultBox.appendChild(el('p', { class: 'message' }, [el('small', {}, [r.message])]));
  }
  if (verifyForm) {
    verifyForm.addEventListener('recapito:select', function (e) { showRecord(/** @type {CustomEvent} */ (e).detail, true); });
    verifyForm.addEventListener('recapito:error', function (e) { showRecord(/** @type {CustomEvent} */ (e).detail || {}); });
    verifyForm.addEventListener('submit', function (e) {
      e.preventDefault();
      var data = {};
      new FormData(/** @type {HTMLFormElement} */ (verifyForm)).forEach(function (v, k) { data[k] = String(v); });
      send('POST', '/console/api/contact', data).then(function (r) { showRecord(r.body); });
    });
  }

  // ---- lists -------------------------------------------------------------------------------------
  var uploadForm = document.getElementById('upload-form');
  var mappingForm = document.getElementById('mapping-form');
  var fieldsEl = document.getElementById('console-fields');
  var FIELDS = fieldsEl ? JSON.parse(fieldsEl.textContent || '{}') : {};
  var labelsEl = document.getElementById('console-field-labels');
  var LABELS = labelsEl ? JSON.parse(labelsEl.textContent || '{}') : {};
  var upload = null;
  function notice(parent, text, kind) {
    var p = el('p', { class: 'notice ' + (kind || 'error'), role: kind === 'info' ? 'status' : 'alert' }, [text]);
    parent.insertBefore(p, parent.firstChild);
    return p;
  }
  function renderMapping() {
    if (!upload || !mappingForm) return;
    var cap = /** @type {HTMLSelectElement} */ (document.getElementById('capability')).value;
    var suggested = upload.mappings[cap] || {};
    var tbody = mappingForm.querySelector('#mapping-table tbody');
    if (!tbody) return;
    tbody.textContent = '';
    upload.headers.forEach(function (h, i) {
      var id = 'map-' + i;
      var select = el('select', { id: id, 'data-column': String(i) });
      select.appendChild(el('option', { value: '' }, [t('ignore')]));
      (FIELDS[cap] || []).forEach(function (f) {
        var o = el('option', { value: f }, [LABELS[f] || f]);
        if (suggested[i] === f) o.setAttribute('selected', '');
        select.appendChild(o);
      });
      var sample = upload.preview.map(function (r) { return r[i]; }).filter(Boolean).slice(0, 2).join(' · ');
      tbody.appendChild(el('tr', {}, [el('th', { scope: 'row' }, [el('label', { for: id }, [h])]), el('td', {}, [select]), el('td', {}, [el('small', {}, [sample])])]));
    });
    var taxField = document.getElementById('tax-action-field');
    if (taxField) taxField.hidden = cap !== 'tax-code';
  }
  function renderPreview() {
    var table = document.getElementById('preview-table');
    if (!table || !upload) return;
    table.textContent = '';
    table.appendChild(el('thead', {}, [el('tr', {}, upload.headers.map(function (h) { return el('th', { scope: 'col' }, [h]); }))]));
    var tb = el('tbody');
    upload.preview.forEach(function (r) { tb.appendChild(el('tr', {}, r.map(function (c) { return el('td', {}, [c]); }))); });
    table.appendChild(tb);
  }
  if (uploadForm && mappingForm) {
    uploadForm.addEventListener('submit', function (e) {
      e.preventDefault();
      var input = /** @type {HTMLInputElement} */ (document.getElementById('upload-file'));
      var file = input.files && input.files[0];
      if (!file) return;
      var button = uploadForm.querySelector('button');
      if (button) button.disabled = true;
      uploadForm.querySelectorAll('.notice').forEach(function (n) { n.remove(); });
      file.arrayBuffer().then(function (buf) {
        return send('POST', '/console/api/upload?name=' + encodeURIComponent(file.name), buf, 'application/octet-stream');
      }).then(function (r) {
        if (button) button.disabled = false;
        if (r.status !== 200) return notice(uploadForm, r.body.message || 'upload refused');
        upload = r.body;
        /** @type {HTMLSelectElement} */ (document.getElementById('capability')).value = upload.capability;
        var summary = document.getElementById('upload-summary');
        if (summary) summary.textContent = t('rows_read', { rows: upload.rows, file: upload.file });
        mappingForm.hidden = false;
        renderMapping();
        renderPreview();
        var cap = document.getElementById('capability');
        if (cap) cap.focus();
      }, function () { if (button) button.disabled = false; });
    });
    var capSelect = document.getElementById('capability');
    if (capSelect) capSelect.addEventListener('change', renderMapping);
    mappingForm.addEventListener('submit', function (e) {
      e.preventDefault();
      if (!upload) return;
      var mapping = {};
      mappingForm.querySelectorAll('select[data-column]').forEach(function (s) {
        var sel = /** @type {HTMLSelectElement} */ (s);
        if (sel.value) mapping[sel.getAttribute('data-column') || ''] = sel.value;
      });
      var start = /** @type {HTMLButtonElement} */ (document.getElementById('start-job'));
      start.disabled = true;
      mappingForm.querySelectorAll('.notice').forEach(function (n) { n.remove(); });
      var body = {
        upload: upload.upload,
        capability: /** @type {HTMLSelectElement} */ (document.getElementById('capability')).value,
        mapping: mapping,
        action: /** @type {HTMLSelectElement} */ (document.getElementById('tax-action')).value,
      };
      send('POST', '/console/api/jobs', body).then(function (r) {
        start.disabled = false;
        if (r.status !== 200) return notice(mappingForm, r.body.message || r.body.code || 'refused');
        location.href = '/console/lists#job-' + r.body.job;
        location.reload();
      });
    });
  }

  function updateRow(tr, j) {
    tr.setAttribute('data-state', j.state);
    var state = tr.querySelector('.state');
    if (state) {
      state.textContent = t('job_' + j.state);
      state.className = 'state s-' + j.state;
    }
    var bar = /** @type {HTMLProgressElement|null} */ (tr.querySelector('progress'));
    var pct = j.rows ? Math.floor((100 * j.done) / j.rows) : 0;
    if (bar) {
      bar.max = j.rows;
      bar.value = j.done;
      bar.textContent = pct + '%';
      bar.setAttribute('aria-label', (tr.querySelector('.file') || {}).textContent + ': ' + pct + '%');
    }
    var p = tr.querySelector('.pct');
    if (p) p.textContent = pct + '%';
    var active = j.state === 'queued' || j.state === 'running';
    tr.querySelectorAll('[data-when]').forEach(function (x) {
      /** @type {HTMLElement} */ (x).hidden = x.getAttribute('data-when') === 'active' ? !active : j.state !== 'completed';
    });
    var oc = tr.querySelector('.outcomes-cell');
    if (oc && j.outcomes) {
      oc.textContent = '';
      Object.keys(j.outcomes).forEach(function (k) { oc.appendChild(el('span', { class: 'tag' }, [k + ' ' + j.outcomes[k]])); oc.appendChild(document.createTextNode(' ')); });
    }
    var refund = tr.querySelector('.refund');
    if (refund && j.refunded) refund.textContent = t('refunded', { n: j.refunded });
  }
  function poll(tr) {
    var job = tr.getAttribute('data-job');
    send('GET', '/console/api/jobs/' + encodeURIComponent(job || '')).then(function (r) {
      if (r.status !== 200) return;
      updateRow(tr, r.body);
      if (r.body.state === 'queued' || r.body.state === 'running') setTimeout(function () { poll(tr); }, 700);
    });
  }
  document.querySelectorAll('#jobs-table tr[data-job]').forEach(function (tr) {
    var s = tr.getAttribute('data-state');
    if (s === 'queued' || s === 'running') poll(tr);
    var cancel = tr.querySelector('button.cancel');
    if (cancel) {
      cancel.addEventListener('click', function () {
        /** @type {HTMLButtonElement} */ (cancel).disabled = true;
        send('POST', '/console/api/jobs/' + encodeURIComponent(tr.getAttribute('data-job') || '') + '/cancel', {}).then(function (r) {
          /** @type {HTMLButtonElement} */ (cancel).disabled = false;
          if (r.status !== 200) return;
          var refund = tr.querySelector('.refund');
          if (refund) refund.textContent = t('refunded', { n: r.body.refunded || 0 });
          updateRow(tr, { state: r.body.state, rows: r.body.rows, done: r.body.done, refunded: r.body.refunded });
        });
      });
    }
  });

  // ---- credit chart ------------------------------------------------------------------------------
  var usageEl = document.getElementById('usage-data');
  var canvas = document.getElementById('usage-chart');
  // @ts-ignore Chart comes from chart.umd.min.js, served from the project's own node_modules
  var ChartJs = window.Chart;
  if (usageEl && canvas && ChartJs) {
    var usage = JSON.parse(usageEl.textContent || '{}');
    var colours = ['#0b57d0', '#8a4600', '#116329'];
    new ChartJs(canvas, {
      type: 'bar',
      data: {
        labels: usage.days,
        datasets: usage.series.map(function (s, i) { return { label: s.label, data: s.data, backgroundColor: colours[i % colours.length] }; }),
      },
      options: { responsive: true, maintainAspectRatio: false, animation: false, scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } },
    });
  }
})();
