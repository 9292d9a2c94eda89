/*
 * recapito address autocomplete: a drop-in script for your own web forms.
 *
 *   <input data-recapito="street"> <input data-recapito="house_number">
 *   <input data-recapito="postcode"> <input data-recapito="city"> <input data-recapito="province">
 *   <script src="/widget/v1/autocomplete.js" data-endpoint="/address-suggest" defer></script>
 *
 * It talks only to `data-endpoint` on YOUR server, which forwards the JSON body to
 * POST /api/v1/suggest adding the API token (spec, Authentication rule 6: the token never reaches a
 * browser). See docs/widget.md. No dependencies; ARIA combobox; keyboard: arrows, Enter, Escape.
 * After a house number is chosen the form receives a `recapito:select` event whose `detail` is the
 * verified record (the same record as /api/v1/contact).
 */
(function () {
  'use strict';
  var script = document.currentScript;
  var config = {
    endpoint: (script && script.getAttribute('data-endpoint')) || '/recapito/suggest',
    country: (script && script.getAttribute('data-country')) || '',
    minChars: Number((script && script.getAttribute('data-min-chars')) || 3),
    headerName: (script && script.getAttribute('data-header-name')) || '',
    headerValue: (script && script.getAttribute('data-header-value')) || '',
  };
  var SESSION_MS = 9 * 60 * 1000; // the service keeps a session 10 minutes
  var uid = 0;

  // Answers come with English keys, or Italian ones for an Italian account: read either.
  function pick(obj, en, it) {
    if (!obj) return undefined;
    return obj[en] !== undefined ? obj[en] : obj[it];
  }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 15) | 64;
    b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join('');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  }

  function debounce(fn, ms) {
    var t;
    return function () {
      var args = arguments;
      clearTimeout(t);
      t = setTimeout(function () { fn.apply(null, args); }, ms);
    };
  }

  function Form(root) {
    this.root = root;
    this.field = function (name) { return root.querySelector('[data-recapito="' + name + '"]'); };
    this.street = this.field('street');
    this.number = this.field('house_number');
    this.session = null;
    this.sessionStart = 0;
    this.streetId = null;
    this.seq = 0;
    if (this.street) this.attach(this.street, 'street');
    if (this.number) this.attach(this.number, 'number');
  }

  Form.prototype.sessionId = function (fresh) {
    if (fresh || !this.session || Date.now() - this.sessionStart > SESSION_MS) {
      this.session = uuid();
      this.sessionStart = Date.now();
      this.streetId = this.streetId && !fresh ? this.streetId : null;
    }
    return this.session;
  };

  Form.prototype.post = function (body) {
    var headers = { 'content-type': 'application/json', accept: 'application/json' };
    if (config.headerName) headers[config.headerName] = config.headerValue;
    if (config.country && !body.country_code) body.country_code = config.country;
    return fetch(config.endpoint, { method: 'POST', headers: headers, body: JSON.stringify(body), credentials: 'same-origin' }).then(function (res) {
      return res.json().then(function (json) { return { status: res.status, body: json }; });
    });
  };

  Form.prototype.attach = function (input, kind) {
    var self = this;
    var id = 'recapito-list-' + ++uid;
    var wrap = document.createElement('div');
    wrap.className = 'recapito-ac';
    wrap.style.position = 'relative';
    input.parentNode.insertBefore(wrap, input);
    wrap.appendChild(input);
    // the suggestions and their attribution (which the spec wants shown beside them) open and close together
    var popup = document.createElement('div');
    popup.className = 'recapito-ac-popup';
    popup.hidden = true;
    var list = document.createElement('ul');
    list.id = id;
    list.className = 'recapito-ac-list';
    list.setAttribute('role', 'listbox');
    var note = document.createElement('div');
    note.className = 'recapito-ac-attribution';
    popup.appendChild(list);
    popup.appendChild(note);
    wrap.appendChild(popup);
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-expanded', 'false');
    input.setAttribute('aria-controls', id);
    input.setAttribute('autocomplete', 'off');
    var state = { hints: [], active: -1 };

    function close() {
      popup.hidden = true;
      input.setAttribute('aria-expanded', 'false');
      input.removeAttribute('aria-activedescendant');
      state.active = -1;
    }
    function highlight(i) {
      state.active = i;
      Array.prototype.forEach.call(list.children, function (li, j) { li.setAttribute('aria-selected', j === i ? 'true' : 'false'); });
      if (i >= 0 && list.children[i]) {
        input.setAttribute('aria-activedescendant', list.children[i].id);
        list.children[i].scrollIntoView({ block: 'nearest' });
      }
    }
    function show(hints, attribution) {
      state.hints = hints;
      list.textContent = '';
      hints.forEach(function (h, i) {
        var li = document.createElement('li');
        li.id = id + '-' + i;
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', 'false');
        var name = pick(h, 'name', 'nome');
        var place = [pick(h, 'municipality', 'comune'), pick(h, 'area', 'area')].filter(Boolean).join(' ');
        li.textContent = name + (place && kind === 'street' ? ' — ' + place : '');
        li.addEventListener('mousedown', function (e) { e.preventDefault(); choose(i); });
        list.appendChild(li);
      });
      note.textContent = attribution || '';
      popup.hidden = hints.length === 0;
      input.setAttribute('aria-expanded', hints.length ? 'true' : 'false');
    }
    function choose(i) {
      var h = state.hints[i];
      close();
      if (h) (kind === 'street' ? self.chooseStreet(h) : self.chooseNumber(pick(h, 'name', 'nome')));
    }
    var query = debounce(function () {
      var seq = ++self.seq;
      var req = kind === 'street' ? self.streetQuery() : self.numberQuery();
      if (!req) return close();
      self.post(req).then(function (r) {
        if (seq !== self.seq) return; // a newer keystroke won
        if (r.status === 409 || r.status === 429) {
          // session over its quota, expired or for another country: the next keystroke opens a new one
          self.sessionId(true);
          return close();
        }
        if (r.status !== 200) return close();
        show(pick(r.body, 'hints', 'suggerimenti') || [], pick(r.body, 'attribution', 'attribuzione'));
      }, close);
    }, 150);

    input.addEventListener('input', function () {
      if (kind === 'street') self.streetId = null;
      query();
    });
    input.addEventListener('keydown', function (e) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        if (popup.hidden) return query();
        e.preventDefault();
        var n = state.hints.length;
        highlight(e.key === 'ArrowDown' ? (state.active + 1) % n : (state.active - 1 + n) % n);
      } else if (e.key === 'Enter' && !popup.hidden && state.active >= 0) {
        e.preventDefault();
        choose(state.active);
      } else if (e.key === 'Escape') {
        close();
      }
    });
    input.addEventListener('blur', function () { setTimeout(close, 100); });
    if (kind === 'number') this.showNumbers = query;
  };

  Form.prototype.context = function (body) {
    var names = ['city', 'postcode', 'province'];
    for (var i = 0; i < names.length; i++) {
      var f = this.field(names[i]);
      if (f && f.value.trim()) body[names[i]] = f.value.trim();
    }
    return body;
  };

  Form.prototype.streetQuery = function () {
    var q = this.street.value.trim();
    if (q.length < config.minChars) return null;
    return this.context({ session: this.sessionId(false), q: q });
  };

  Form.prototype.numberQuery = function () {
    if (!this.streetId) return null;
    return { session: this.session, street_id: this.streetId, house_number: this.number.value.trim() };
  };

  Form.prototype.set = function (name, value) {
    var f = this.field(name);
    if (f && value !== undefined && value !== null) f.value = value;
  };

  Form.prototype.chooseStreet = function (h) {
    var type = pick(h, 'type', 'tipo');
    if (type === 'municipality' || type === 'comune') {
      this.set('city', pick(h, 'name', 'nome'));
      this.set('province', pick(h, 'area', 'area'));
      this.street.value = '';
      this.street.focus();
      return;
    }
    this.street.value = pick(h, 'name', 'nome');
    this.set('city', pick(h, 'municipality', 'comune'));
    this.set('province', pick(h, 'area', 'area'));
    this.streetId = pick(h, 'id', 'id');
    this.select(null); // the street is selected (charged once per session and street); numbers come next
  };

  Form.prototype.chooseNumber = function (number) {
    this.number.value = number;
    this.select(number);
  };

  /** `select` runs the verification; with no number yet it opens the house-number phase. */
  Form.prototype.select = function (number) {
    var self = this;
    var body = { session: this.session, action: 'select', street_id: this.streetId };
    if (number) body.house_number = number;
    var pc = this.field('postcode');
    if (number && pc && pc.value.trim()) body.postcode = pc.value.trim();
    if (!number && this.number) {
      // no number yet: choosing the street selects it, then the numbers are listed
      this.number.value = '';
      this.number.focus();
    }
    return this.post(body).then(function (r) {
      if (r.status !== 200) {
        self.root.dispatchEvent(new CustomEvent('recapito:error', { detail: r.body, bubbles: true }));
        return;
      }
      var record = r.body;
      if (number || !self.number) {
        var normalized = pick(record, 'normalized', 'normalizzato') || {};
        self.set('postcode', pick(normalized, 'postcode', 'cap'));
        self.set('city', pick(normalized, 'city', 'localita'));
        self.set('province', pick(normalized, 'province', 'provincia'));
        self.root.dispatchEvent(new CustomEvent('recapito:select', { detail: record, bubbles: true }));
      } else if (self.showNumbers) {
        self.showNumbers();
      }
    });
  };

  function init() {
    var seen = [];
    document.querySelectorAll('[data-recapito="street"]').forEach(function (street) {
      var root = street.closest('[data-recapito-form]') || street.form || document.body;
      if (seen.indexOf(root) === -1) {
        seen.push(root);
        new Form(root);
      }
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
