(function () {
  'use strict';
  var T_PARSE = performance.now();
  var D = JSON.parse(document.getElementById('drbench-data').textContent);
  T_PARSE = [T_PARSE, performance.now()];
  var PAL = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2',
    '#7f7f7f', '#bcbd22', '#17becf', '#393b79', '#637939', '#8c6d31', '#843c39', '#7b4173',
    '#3182bd', '#e6550d', '#31a354', '#756bb1', '#636363'];
  var S = {dataset: '', dim: 'all', split: '', k: '', measure: 'knn_error', protocol: 'all'};
  var sortState = {};
  var decoded = {};
  function $(id) { return document.getElementById(id); }
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var a in attrs || {}) e.setAttribute(a, attrs[a]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function uniq(a) { var s = {}, o = []; a.forEach(function (x) { var k = String(x); if (!s[k]) { s[k] = 1; o.push(x); } }); return o; }
  function methodColor(m) { var i = D.methods.indexOf(m); return PAL[(i < 0 ? 0 : i) % PAL.length]; }
  function fileOk(fi) { return S.protocol === 'all' || D.files[fi].protocols.indexOf(S.protocol) >= 0; }
  function protoOk(p) { return S.protocol === 'all' || !p || p === S.protocol; }
  function bytes(id) {
    if (decoded[id]) return decoded[id];
    var a = D.arrays[id], s = atob(a.b64), u = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
    var T = {u8: Uint8Array, u16: Uint16Array, i16: Int16Array, i32: Int32Array}[a.dtype];
    decoded[id] = new T(u.buffer);
    return decoded[id];
  }
  function coords(e, axis) {
    var q = bytes(e.axes[axis].id), lo = e.axes[axis].lo, step = (e.axes[axis].hi - lo) / 65535;
    var out = new Float32Array(q.length);
    for (var i = 0; i < q.length; i++) out[i] = lo + q[i] * step;
    return out;
  }
  function label(fi, m) { return D.files.length > 1 ? m + ' [' + D.files[fi].tag + ']' : m; }

  // ---- selectors ----
  function options(sel, values, names, keep) {
    var s = $(sel), cur = keep;
    s.innerHTML = '';
    values.forEach(function (v, i) { var o = el('option', {value: String(v)}, names ? names[i] : String(v)); s.appendChild(o); });
    if (values.map(String).indexOf(String(cur)) < 0) cur = values.length ? String(values[0]) : '';
    s.value = String(cur);
    return s.value;
  }
  function refreshSelectors() {
    S.dataset = options('sel-dataset', D.datasets, null, S.dataset);
    var tabs = D.tables.filter(function (t) { return t.dataset === S.dataset; });
    var dims = uniq(tabs.map(function (t) { return t.dim; })).sort(function (a, b) { return a - b; });
    S.dim = options('sel-dim', ['all'].concat(dims), ['all'].concat(dims.map(function (d) { return d === 0 ? 'input space' : d; })), S.dim);
    var splits = D.splits[S.dataset] || [];
    S.split = options('sel-split', splits.map(function (s) { return s.value; }), splits.map(function (s) { return s.name; }), S.split);
    S.measure = options('sel-measure', D.measures.map(function (m) { return m.key; }), D.measures.map(function (m) { return m.name; }), S.measure);
    var ks = uniq(D.tables.filter(function (t) { return t.measure === 'knn_error'; }).map(function (t) { return t.k; })).sort(function (a, b) { return a - b; });
    S.k = options('sel-k', ks, null, S.k);
    $('sel-k').disabled = S.measure !== 'knn_error';
    S.protocol = options('sel-protocol', ['all'].concat(D.protocols), null, S.protocol);
  }
  function bindSelectors() {
    ['dataset', 'dim', 'split', 'k', 'measure', 'protocol'].forEach(function (n) {
      $('sel-' + n).addEventListener('change', function () {
        S[n] = this.value;
        drawAll();
      });
    });
  }

  // ---- tables ----
  function drawTables() {
    var box = $('tables');
    box.innerHTML = '';
    var shown = D.tables.filter(function (t) {
      return t.dataset === S.dataset && t.measure === S.measure && fileOk(t.file) &&
        (S.measure !== 'knn_error' || String(t.k) === S.k) && (S.dim === 'all' || String(t.dim) === S.dim);
    });
    if (!shown.length) box.appendChild(el('p', {'class': 'note'}, 'No table for this selection.'));
    shown.forEach(function (t, ti) { box.appendChild(tableEl(t)); });
  }
  function tableEl(t) {
    var id = t.id, tab = el('table', {'class': 'res', 'data-table': id});
    var cap = el('caption');
    cap.appendChild(el('span', {'class': 'tag'}, D.files[t.file].tag + ' · ' + (t.protocol || 'protocol per row')));
    cap.appendChild(document.createTextNode(' ' + t.caption));
    tab.appendChild(cap);
    var head = el('tr');
    t.columns.forEach(function (c, j) {
      var th = el('th', {'data-col': j, title: 'click to sort'}, c);
      var st = sortState[id];
      if (st && st.col === j) th.textContent += st.dir > 0 ? ' ▲' : ' ▼';
      th.addEventListener('click', function () {
        var s = sortState[id];
        sortState[id] = {col: j, dir: s && s.col === j ? -s.dir : 1};
        drawTables();
      });
      head.appendChild(th);
    });
    var thead = el('thead'); thead.appendChild(head); tab.appendChild(thead);
    var rows = t.rows.filter(function (r) { return protoOk(r.protocol); });
    var st = sortState[id];
    if (st) {
      rows = rows.slice().sort(function (a, b) {
        var x = a.sort[st.col], y = b.sort[st.col];
        if (x === null && y === null) return 0;
        if (x === null) return 1;
        if (y === null) return -1;
        return (x < y ? -1 : x > y ? 1 : 0) * st.dir;
      });
    }
    var body = el('tbody');
    rows.forEach(function (r) {
      var tr = el('tr');
      r.cells.forEach(function (c, j) {
        var td = el('td', {'class': t.numeric[j] ? 'num' : ''});
        if (c.title) td.title = c.title;
        if (c.bold) { td.appendChild(el('b', {}, c.text)); if (c.mark) td.appendChild(document.createTextNode(c.mark)); }
        else td.textContent = c.text + (c.mark || '');
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    tab.appendChild(body);
    return tab;
  }

  // ---- figures ----
  function note(id, text) { $(id + '-note').textContent = text || ''; }
  function embFor() {
    var out = [];
    D.methods.forEach(function (m) {
      D.files.forEach(function (f, fi) {
        if (!fileOk(fi)) return;
        var c = D.embeddings.filter(function (e) {
          return e.file === fi && e.method === m && e.dataset === S.dataset && String(e.split) === S.split && protoOk(e.protocol);
        });
        if (S.dim !== 'all') c = c.filter(function (e) { return String(e.dim) === S.dim; });
        c.sort(function (a, b) { return (a.dim === 2 ? 0 : 1) - (b.dim === 2 ? 0 : 1) || a.dim - b.dim; });
        if (c.length) out.push(c[0]);
      });
    });
    return out;
  }
  // Latent spaces: canvas 2D, one canvas per panel, points batched by class. Plotly's WebGL
  // scatter took seconds to set up 70,000 points in a software-rendered browser; this draws them
  // in tens of milliseconds and needs no GPU.
  var observer = null;
  function drawScatter() {
    var embs = embFor(), box = $('scatter');
    box.innerHTML = '';
    window.drbench.scatter = [];
    if (!embs.length) { note('scatter', 'No stored embedding for this selection (keep_embeddings: true stores them).'); return; }
    var names = D.classes[S.dataset] || [], ncls = 0;
    embs.forEach(function (e) { if (e.labels) { var l = bytes(e.labels); for (var i = 0; i < l.length; i++) ncls = Math.max(ncls, l[i] + 1); } });
    var hidden = {};
    var legend = el('div', {'class': 'legend'});
    var panels = [];
    for (var c = 0; c < ncls; c++) (function (c) {
      var item = el('span', {'class': 'key', title: 'click to hide or show this class'});
      var sw = el('i'); sw.style.background = PAL[c % PAL.length]; item.appendChild(sw);
      item.appendChild(document.createTextNode(names[c] !== undefined ? names[c] : 'class ' + c));
      item.addEventListener('click', function () { hidden[c] = !hidden[c]; item.classList.toggle('off'); panels.forEach(function (p) { if (p.ready()) p.draw(); }); });
      legend.appendChild(item);
    })(c);
    box.appendChild(legend);
    var grid = el('div', {'class': 'grid'});
    box.appendChild(grid);
    var warned = [];
    embs.forEach(function (e) {
      var p = panel(e, names, hidden);
      grid.appendChild(p.root);
      panels.push(p);
      if (e.shown < e.total) warned.push(label(e.file, e.method));
    });
    // Panels in view now are drawn before the page says it is ready; the others when they scroll
    // into view (a sweep's page holds dozens of 70,000-point panels: drawing them all up front
    // took seconds on a busy machine).
    if (observer) observer.disconnect();
    observer = window.IntersectionObserver ? new IntersectionObserver(function (entries) {
      entries.forEach(function (en) { if (en.isIntersecting) { observer.unobserve(en.target); en.target.drbenchPanel.draw(); } });
    }, {rootMargin: '200px'}) : null;
    panels.forEach(function (p) {
      var r = p.root.getBoundingClientRect();
      if (!observer || (r.bottom > -200 && r.top < window.innerHeight + 200)) p.draw();
      else { p.root.drbenchPanel = p; observer.observe(p.root); }
    });
    note('scatter', (warned.length ? 'Subsampled (above the ' + D.max_points.toLocaleString('en') + '-point limit, uniformly at random, seed 0): ' + warned.join(', ') + '. ' : 'Every stored point is drawn. ') +
      'Drag to pan, scroll to zoom, double-click to reset; hover a point for its class, index and part' +
      (embs.some(function (e) { return e.thumbs; }) ? ', and its image (thumbnails for at most ' + embs.filter(function (e) { return e.thumbs; })[0].thumbs.cap.toLocaleString('en') + ' points a panel, a seeded subsample; hovering another point says it has none)' : '') +
      '; train points are dots, test points outlined squares; click a class to hide it.');
  }
  // Indices 0..n-1 ordered by key(i) in [0, m); with starts, also where each key's run begins.
  function countingSort(n, m, key, starts) {
    var k = new Uint32Array(n), count = new Uint32Array(m + 1), order = new Uint32Array(n), i;
    for (i = 0; i < n; i++) { k[i] = key(i); count[k[i] + 1]++; }
    for (i = 0; i < m; i++) count[i + 1] += count[i];
    var start = count.slice();
    for (i = 0; i < n; i++) order[count[k[i]]++] = i;
    return starts ? {order: order, start: start} : order;
  }
  function panel(e, names, hidden) {
    var T0, T1, x = null, y, n = e.shown, lab, idx, home, v, order, img, pix;
    var root = el('div', {'class': 'panel'});
    var title = label(e.file, e.method) + (e.dim === 0 ? ' (input space, axes 1-2)' : e.dim !== 2 ? ' (dim ' + e.dim + ', axes 1-2)' : '') + ' · ' +
      (e.shown < e.total ? e.shown.toLocaleString('en') + ' of ' + e.total.toLocaleString('en') + ' points' : e.total.toLocaleString('en') + ' points');
    root.appendChild(el('div', {'class': 'ptitle'}, title));
    var cv = el('canvas'), tip = el('div', {'class': 'tip'});
    root.appendChild(cv); root.appendChild(tip);
    var W = 400, H = 340, dpr = window.devicePixelRatio || 1;
    cv.width = W * dpr; cv.height = H * dpr; cv.style.width = W + 'px'; cv.style.height = H + 'px';
    var ctx = cv.getContext('2d');
    // The coordinates decoded, the points ordered, the pixel buffer made: on the first draw.
    function init() {
      if (x) return;
      T0 = performance.now();
      x = coords(e, 0); y = e.axes.length > 1 ? coords(e, 1) : new Float32Array(x.length);
      lab = e.labels ? bytes(e.labels) : null; idx = e.index ? bytes(e.index) : null;
      var x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
      for (var i = 0; i < n; i++) { if (x[i] < x0) x0 = x[i]; if (x[i] > x1) x1 = x[i]; if (y[i] < y0) y0 = y[i]; if (y[i] > y1) y1 = y[i]; }
      if (!(x1 > x0)) { x0 -= 1; x1 += 1; }
      if (!(y1 > y0)) { y0 -= 1; y1 += 1; }
      var padx = (x1 - x0) * 0.03, pady = (y1 - y0) * 0.03;
      home = [x0 - padx, x1 + padx, y0 - pady, y1 + pady];
      v = home.slice();
      // Points in class order, train before test (a counting sort), so that each colour is set
      // once a draw.
      var nc = 1;
      if (lab) for (i = 0; i < n; i++) if (lab[i] + 1 > nc) nc = lab[i] + 1;
      var key = function (i) { return 2 * (lab ? lab[i] : 0) + (i >= e.n_train ? 1 : 0); };
      order = countingSort(n, 2 * nc, key);
      img = ctx.createImageData(cv.width, cv.height); pix = new Uint32Array(img.data.buffer);
      T1 = performance.now();
    }
    // A grid over the whole extent for hover, built on the first hover: the points of each cell.
    var G = 128, grid = null;
    function cellOf(i) {
      var gx = Math.min(G - 1, Math.floor((x[i] - home[0]) / (home[1] - home[0]) * G));
      var gy = Math.min(G - 1, Math.floor((y[i] - home[2]) / (home[3] - home[2]) * G));
      return gx * G + gy;
    }
    var size = n > 20000 ? 2 : n > 2000 ? 3 : 4;
    var info = {method: e.method, file: e.file, task: e.task, shown: e.shown, total: e.total, drawn: 0};
    window.drbench.scatter.push(info);
    function px(i) { return (x[i] - v[0]) / (v[1] - v[0]) * W; }
    function py(i) { return H - (y[i] - v[2]) / (v[3] - v[2]) * H; }
    var pending = false;
    // Points written straight into the pixels (no path per point): a filled square for a
    // training point, an outlined one for a test point, in device pixels.
    var rgba = PAL.map(function (h) {
      var r = parseInt(h.substr(1, 2), 16), g = parseInt(h.substr(3, 2), 16), b = parseInt(h.substr(5, 2), 16);
      return (255 << 24 | b << 16 | g << 8 | r) >>> 0;  // little-endian RGBA
    });
    function draw() {
      init();
      var T2 = performance.now();
      pix.fill(0);
      var CW = cv.width, CH = cv.height, sz = Math.max(1, Math.round(size * dpr)), h = sz >> 1;
      var drawn = 0, ax = CW / (v[1] - v[0]), ay = CH / (v[3] - v[2]);
      for (var k = 0; k < n; k++) {
        var i = order[k], c = lab ? lab[i] : 0;
        if (hidden[c]) continue;
        var X = Math.round((x[i] - v[0]) * ax) - h, Y = Math.round(CH - (y[i] - v[2]) * ay) - h;
        if (X < -sz || X >= CW || Y < -sz || Y >= CH) continue;
        var col = rgba[c % rgba.length], test = i >= e.n_train;
        var s0 = test ? sz + 2 : sz, X0 = test ? X - 1 : X, Y0 = test ? Y - 1 : Y;
        for (var yy = Math.max(0, Y0); yy < Math.min(CH, Y0 + s0); yy++) {
          var row = yy * CW, edge = yy === Y0 || yy === Y0 + s0 - 1;
          for (var xx = Math.max(0, X0); xx < Math.min(CW, X0 + s0); xx++)
            if (!test || edge || xx === X0 || xx === X0 + s0 - 1) pix[row + xx] = col;
        }
        drawn++;
      }
      ctx.putImageData(img, 0, 0);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.strokeStyle = '#ccc'; ctx.strokeRect(0.5, 0.5, W - 1, H - 1);
      info.drawn = drawn;
      info.ms = [Math.round(T1 - T0), Math.round(performance.now() - T2)];
      pending = false;
    }
    function later() { if (!pending) { pending = true; requestAnimationFrame(draw); } }
    function nearest(mx, my) {
      var dx = (mx / W) * (v[1] - v[0]) + v[0], dy = ((H - my) / H) * (v[3] - v[2]) + v[2];
      var gx = Math.floor((dx - home[0]) / (home[1] - home[0]) * G), gy = Math.floor((dy - home[2]) / (home[3] - home[2]) * G);
      var rx = Math.ceil(8 / W * (v[1] - v[0]) / (home[1] - home[0]) * G), ry = Math.ceil(8 / H * (v[3] - v[2]) / (home[3] - home[2]) * G);
      var best = -1, bd = 64;
      if (!grid) grid = countingSort(n, G * G, cellOf, true);
      for (var a = Math.max(0, gx - rx); a <= Math.min(G - 1, gx + rx); a++) for (var b = Math.max(0, gy - ry); b <= Math.min(G - 1, gy + ry); b++) {
        var cell = a * G + b;
        for (var j = grid.start[cell]; j < grid.start[cell + 1]; j++) {
          var i = grid.order[j];
          if (lab && hidden[lab[i]]) continue;
          var d = (px(i) - mx) * (px(i) - mx) + (py(i) - my) * (py(i) - my);
          if (d < bd) { bd = d; best = i; }
        }
      }
      return best;
    }
    // The hover image of point i (4-bit grey, two pixels a byte), or null where the point has
    // none: the page keeps thumbnails for a capped, seeded subsample (see the note).
    var tpos = e.thumbs ? bytes(e.thumbs.pos) : null;
    info.thumbs = tpos ? Array.prototype.slice.call(tpos, 0, 5) : [];
    info.indexOf = function (i) { return idx ? idx[i] : -1; };
    function thumb(i) {
      var lo = 0, hi = tpos.length - 1;
      while (lo <= hi) {
        var mid = (lo + hi) >> 1;
        if (tpos[mid] === i) break;
        if (tpos[mid] < i) lo = mid + 1; else hi = mid - 1;
      }
      if (lo > hi) return null;
      var th = e.thumbs, px = bytes(th.px), per = (th.h * th.w + 1) >> 1, at = mid * per;
      var tc = el('canvas', {'class': 'thumb'});
      tc.width = th.w; tc.height = th.h;
      tc.style.width = 4 * th.w + 'px'; tc.style.height = 4 * th.h + 'px';
      var tx = tc.getContext('2d'), im = tx.createImageData(th.w, th.h);
      for (var p = 0; p < th.h * th.w; p++) {
        var b = px[at + (p >> 1)], g = Math.round(((p & 1) ? b & 15 : b >> 4) * 17);
        im.data[4 * p] = im.data[4 * p + 1] = im.data[4 * p + 2] = g; im.data[4 * p + 3] = 255;
      }
      tx.putImageData(im, 0, 0);
      return tc;
    }
    var drag = null;
    cv.addEventListener('mousedown', function (ev) { init(); drag = [ev.clientX, ev.clientY, v.slice()]; });
    window.addEventListener('mouseup', function () { drag = null; });
    cv.addEventListener('mousemove', function (ev) {
      init();
      var r = cv.getBoundingClientRect(), mx = ev.clientX - r.left, my = ev.clientY - r.top;
      if (drag) {
        var sx = (ev.clientX - drag[0]) / W * (drag[2][1] - drag[2][0]), sy = (ev.clientY - drag[1]) / H * (drag[2][3] - drag[2][2]);
        v = [drag[2][0] - sx, drag[2][1] - sx, drag[2][2] + sy, drag[2][3] + sy];
        tip.style.display = 'none';
        later();
        return;
      }
      var i = nearest(mx, my);
      if (i < 0) { tip.style.display = 'none'; return; }
      var c = lab ? lab[i] : -1;
      tip.textContent = (c >= 0 ? (names[c] !== undefined ? names[c] : 'class ' + c) : 'no label') +
        ' · index ' + (idx ? idx[i] : '?') + ' · ' + (i < e.n_train ? 'train' : 'test');
      if (e.thumbs) {
        var t = thumb(i);
        if (t) { tip.appendChild(document.createElement('br')); tip.appendChild(t); }
        else tip.appendChild(document.createTextNode(' · no thumbnail (' + e.thumbs.n.toLocaleString('en') + ' of ' + n.toLocaleString('en') + ' points carry one)'));
      }
      tip.style.display = 'block';
      // Beside the point, inside the panel where it fits (a tip wider than the panel starts at its left edge).
      var left = px(i) > W * 0.6 ? px(i) - 8 - tip.offsetWidth : px(i) + 8;
      tip.style.left = Math.max(0, Math.min(left, W - tip.offsetWidth)) + 'px'; tip.style.top = (py(i) + 22) + 'px';
      tip.style.display = 'block';
    });
    cv.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
    cv.addEventListener('wheel', function (ev) {
      ev.preventDefault();
      init();
      var r = cv.getBoundingClientRect(), fx = (ev.clientX - r.left) / W, fy = 1 - (ev.clientY - r.top) / H;
      var z = Math.exp(ev.deltaY * 0.0015), cx = v[0] + fx * (v[1] - v[0]), cy = v[2] + fy * (v[3] - v[2]);
      v = [cx - (cx - v[0]) * z, cx + (v[1] - cx) * z, cy - (cy - v[2]) * z, cy + (v[3] - cy) * z];
      later();
    }, {passive: false});
    cv.addEventListener('dblclick', function () { init(); v = home.slice(); later(); });
    // For tests and for linking: where point i is on the screen now.
    info.pointAt = function (i) { draw(); var r = cv.getBoundingClientRect(); return [r.left + px(i), r.top + py(i)]; };
    return {root: root, draw: draw, ready: function () { return x !== null; }};
  }
  // ---- curves and the CD diagram: SVG drawn here, no chart library (an inlined plotly took
  // longer to compile on a busy machine than the rest of the page took to load) ----
  var SVGNS = 'http://www.w3.org/2000/svg';
  function sv(tag, attrs, text) {
    var e = document.createElementNS(SVGNS, tag);
    for (var a in attrs || {}) e.setAttribute(a, attrs[a]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function log10(v) { return Math.log(v) / Math.LN10; }
  function num(v) {
    if (v === null || v === undefined || !isFinite(v)) return '-';
    var a = Math.abs(v);
    return a !== 0 && (a >= 1e5 || a < 1e-3) ? v.toExponential(3).replace(/\.?0+e/, 'e') : String(+v.toPrecision(4));
  }
  // About six round ticks (1, 2 or 5 times a power of ten apart) in [lo, hi].
  function linTicks(lo, hi) {
    var raw = (hi - lo) / 6, p = Math.pow(10, Math.floor(log10(raw))), f = raw / p;
    var s = (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * p, out = [];
    for (var i = Math.ceil(lo / s - 1e-9); i * s <= hi + s * 1e-9; i++) out.push(+(i * s).toPrecision(12));
    return out;
  }
  // Decades, with 2 and 5 between them where the axis spans two decades or less.
  function logTicks(lo, hi) {
    var a = Math.floor(log10(lo)), b = Math.ceil(log10(hi)), out = [], mult = b - a <= 2 ? [1, 2, 5] : [1];
    for (var e = a; e <= b; e++) mult.forEach(function (m) {
      var v = +(m * Math.pow(10, e)).toPrecision(6);
      if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push(v);
    });
    return out;
  }
  // The padded range of the finite values (positive ones on a log axis).
  function extent(vals, log) {
    var lo = Infinity, hi = -Infinity;
    vals.forEach(function (v) { if (v !== null && isFinite(v) && (!log || v > 0)) { if (v < lo) lo = v; if (v > hi) hi = v; } });
    if (!(hi >= lo)) { lo = log ? 1 : 0; hi = log ? 10 : 1; }
    if (log) {
      var a = log10(lo), b = log10(hi);
      if (b - a < 1e-9) { a -= 0.5; b += 0.5; }
      return [Math.pow(10, a - (b - a) * 0.03), Math.pow(10, b + (b - a) * 0.03)];
    }
    if (hi - lo <= 1e-12 * Math.max(1, Math.abs(hi))) { var d = Math.abs(hi) * 0.1 || 1; lo -= d; hi += d; }
    var pad = (hi - lo) * 0.05;
    return [lo - pad, hi + pad];
  }
  // The curves' boxes share one width, read once a redraw: reading it forces a layout of the page.
  var boxWidth = null;
  function chartWidth(box) {
    if (boxWidth === null) boxWidth = box.clientWidth || 1100;
    return Math.max(420, Math.min(1000, boxWidth - 300));
  }
  function axes(svg, M, W, H, fx, xt, fy, yt, xtitle, ytitle) {
    var g = sv('g', {'class': 'axes'}), y1 = H - M.b;
    xt.forEach(function (v) {
      var X = fx(v).toFixed(1);
      g.appendChild(sv('line', {x1: X, x2: X, y1: M.t, y2: y1, 'class': 'gl'}));
      g.appendChild(sv('text', {x: X, y: y1 + 16, 'text-anchor': 'middle', 'class': 'tick xt'}, num(v)));
    });
    yt.forEach(function (v) {
      var Y = fy(v).toFixed(1);
      g.appendChild(sv('line', {x1: M.l, x2: W - M.r, y1: Y, y2: Y, 'class': 'gl'}));
      g.appendChild(sv('text', {x: M.l - 6, y: +Y + 4, 'text-anchor': 'end', 'class': 'tick yt'}, num(v)));
    });
    g.appendChild(sv('rect', {x: M.l, y: M.t, width: W - M.l - M.r, height: H - M.t - M.b, 'class': 'frame'}));
    g.appendChild(sv('text', {x: (M.l + W - M.r) / 2, y: H - 8, 'text-anchor': 'middle', 'class': 'atitle'}, xtitle));
    g.appendChild(sv('text', {transform: 'translate(14,' + (M.t + y1) / 2 + ') rotate(-90)', 'text-anchor': 'middle', 'class': 'atitle'}, ytitle));
    svg.appendChild(g);
  }
  // Hover: the point nearest the mouse (within 20 px) of pts ([x, y, lines of text]) is ringed
  // and its text shown beside it.
  function hover(svg, tip, getPts) {
    var ring = null;
    function hide() { tip.style.display = 'none'; if (ring && ring.parentNode) ring.parentNode.removeChild(ring); }
    svg.addEventListener('mousemove', function (ev) {
      var r = svg.getBoundingClientRect(), mx = ev.clientX - r.left, my = ev.clientY - r.top;
      var best = null, bd = 400;
      getPts().forEach(function (p) { var d = (p[0] - mx) * (p[0] - mx) + (p[1] - my) * (p[1] - my); if (d < bd) { bd = d; best = p; } });
      if (!best) { hide(); return; }
      tip.innerHTML = '';
      best[2].forEach(function (t, i) { if (i) tip.appendChild(el('br')); tip.appendChild(i ? document.createTextNode(t) : el('b', {}, t)); });
      if (!ring) ring = sv('circle', {r: 5, 'class': 'ring'});
      ring.setAttribute('cx', best[0]); ring.setAttribute('cy', best[1]);
      svg.appendChild(ring);
      tip.style.display = 'block';
      var W = +svg.getAttribute('width');
      var left = best[0] > W * 0.6 ? best[0] - 10 - tip.offsetWidth : best[0] + 10;
      tip.style.left = Math.max(0, Math.min(left, W - tip.offsetWidth)) + 'px';
      tip.style.top = (best[1] + 10) + 'px';
    });
    svg.addEventListener('mouseleave', hide);
  }
  var hiddenSeries = {};  // chart id -> the series names hidden in its legend, kept across redraws
  // A line chart in box `id`: series [{name, color, x, y, err (or null), text (or null)}],
  // o {xtitle, ytitle, logx, markers}. A click on a legend entry hides or shows its series, a
  // double-click shows it alone (again: all); hovering shows the nearest point's values.
  function lineChart(id, series, o) {
    var box = $(id), off = hiddenSeries[id] = hiddenSeries[id] || {}, seen = {};
    // Series of one colour (one method at several dims, say) told apart by their dashes.
    series.forEach(function (s) { var n = seen[s.color] = (seen[s.color] || 0) + 1; s.dash = ['', '7 4', '2 3', '10 3 2 3'][(n - 1) % 4]; });
    box.innerHTML = '';
    var W = chartWidth(box), H = 400, M = {l: 72, r: 14, t: 14, b: 48}, pw = W - M.l - M.r, ph = H - M.t - M.b;
    var wrap = el('div', {'class': 'chart'}), plot = el('div', {'class': 'cplot'}), tip = el('div', {'class': 'tip'});
    var svg = sv('svg', {width: W, height: H}), legend = el('div', {'class': 'clegend'});
    plot.appendChild(svg); plot.appendChild(tip); wrap.appendChild(plot); wrap.appendChild(legend); box.appendChild(wrap);
    var info = window.drbench.charts[id] = {series: [], pointAt: null};
    var pts = [], fx, fy;
    var keys = series.map(function (s) {
      var k = el('span', {'class': 'key', title: 'click to hide or show; double-click to show it alone'});
      var sw = el('i');
      if (s.dash) { sw.style.borderTop = '.3em dashed ' + s.color; sw.style.height = '0'; } else sw.style.background = s.color;
      k.appendChild(sw);
      k.appendChild(document.createTextNode(s.name));
      k.addEventListener('click', function () { off[s.name] = !off[s.name]; render(); });
      k.addEventListener('dblclick', function () {
        var alone = series.every(function (t) { return !off[t.name] === (t === s); });
        series.forEach(function (t) { off[t.name] = !alone && t !== s; });
        render();
      });
      legend.appendChild(k);
      return k;
    });
    function render() {
      while (svg.firstChild) svg.removeChild(svg.firstChild);
      tip.style.display = 'none';
      var vis = series.filter(function (s) { return !off[s.name]; }), xs = [], ys = [];
      keys.forEach(function (k, i) { k.classList.toggle('off', !!off[series[i].name]); });
      (vis.length ? vis : series).forEach(function (s) {
        s.x.forEach(function (v, j) {
          if (s.y[j] === null) return;
          var e = s.err && s.err[j] ? s.err[j] : 0;
          xs.push(v); ys.push(s.y[j] - e, s.y[j] + e);
        });
      });
      var xr = extent(xs, o.logx), yr = extent(ys, false);
      var lx = [log10(xr[0]), log10(xr[1])];
      fx = o.logx ? function (v) { return M.l + (log10(v) - lx[0]) / (lx[1] - lx[0]) * pw; }
        : function (v) { return M.l + (v - xr[0]) / (xr[1] - xr[0]) * pw; };
      fy = function (v) { return M.t + ph - (v - yr[0]) / (yr[1] - yr[0]) * ph; };
      axes(svg, M, W, H, fx, (o.logx ? logTicks : linTicks)(xr[0], xr[1]), fy, linTicks(yr[0], yr[1]), o.xtitle, o.ytitle);
      var cp = sv('clipPath', {id: 'clip-' + id}), defs = sv('defs');
      cp.appendChild(sv('rect', {x: M.l, y: M.t, width: pw, height: ph})); defs.appendChild(cp); svg.appendChild(defs);
      var g = sv('g', {'clip-path': 'url(#clip-' + id + ')'});
      pts = [];
      vis.forEach(function (s) {
        var d = '', bars = '', pen = false;
        s.x.forEach(function (xv, j) {
          var yv = s.y[j];
          if (yv === null || !isFinite(yv) || (o.logx && !(xv > 0))) { pen = false; return; }
          var X = fx(xv), Y = fy(yv);
          d += (pen ? 'L' : 'M') + X.toFixed(1) + ',' + Y.toFixed(1);
          pen = true;
          if (s.err && s.err[j]) {
            var a = fy(yv - s.err[j]).toFixed(1), b = fy(yv + s.err[j]).toFixed(1), L = (X - 3).toFixed(1);
            bars += 'M' + X.toFixed(1) + ',' + a + 'V' + b + 'M' + L + ',' + a + 'h6M' + L + ',' + b + 'h6';
          }
          if (o.markers) g.appendChild(sv('circle', {cx: X.toFixed(1), cy: Y.toFixed(1), r: 3, fill: s.color, 'class': 'pt'}));
          pts.push([X, Y, [s.name, o.xtitle + ': ' + num(xv), o.ytitle + ': ' + (s.text ? s.text[j] : num(yv))]]);
        });
        if (bars) g.appendChild(sv('path', {d: bars, stroke: s.color, 'class': 'ebar'}));
        var line = sv('path', {d: d, stroke: s.color, 'class': 'series', 'data-name': s.name});
        if (s.dash) line.setAttribute('stroke-dasharray', s.dash);
        g.appendChild(line);
      });
      svg.appendChild(g);
      info.series = series.map(function (s) { return {name: s.name, hidden: !!off[s.name], n: s.x.length}; });
    }
    hover(svg, tip, function () { return pts; });
    // For tests: where point j of series s is on the screen now.
    info.pointAt = function (s, j) { var r = svg.getBoundingClientRect(); return [r.left + fx(series[s].x[j]), r.top + fy(series[s].y[j])]; };
    render();
  }
  function clearChart(id) { $(id).innerHTML = ''; delete window.drbench.charts[id]; }
  function cellsOf(measure, k) {
    return D.cells.filter(function (c) {
      return c.measure === measure && c.dataset === S.dataset && fileOk(c.file) && protoOk(c.protocol) &&
        (measure !== 'knn_error' || String(c.k) === S.k);
    });
  }
  function yTitle() { var m = D.measures.filter(function (m) { return m.key === S.measure; })[0]; return m ? m.name : S.measure; }
  function lines(id, cells, xkey, series, xtitle) {
    var groups = {}, order = [];
    cells.forEach(function (c) {
      var key = series(c);
      if (!groups[key]) { groups[key] = []; order.push(key); }
      groups[key].push(c);
    });
    lineChart(id, order.map(function (key) {
      var g = groups[key].slice().sort(function (a, b) { return a[xkey] - b[xkey]; });
      return {name: key, color: methodColor(g[0].method), x: g.map(function (c) { return c[xkey]; }),
        y: g.map(function (c) { return c.mean; }), err: g.map(function (c) { return c.std === null ? 0 : c.std; }),
        text: g.map(function (c) { return c.text + (c.setting ? ' (' + c.setting + ')' : ''); })};
    }), {xtitle: xtitle, ytitle: yTitle(), markers: true});
    return order.length;
  }
  function drawSplitCurve() {
    if ((D.splits[S.dataset] || []).length < 2) {
      clearChart('split-curve');
      note('split-curve', 'One split value only: nothing to draw against it (the tables hold the numbers).');
      return;
    }
    var cells = cellsOf(S.measure).filter(function (c) { return S.dim === 'all' || String(c.dim) === S.dim; });
    var n = lines('split-curve', cells, 'split', function (c) { return label(c.file, c.method) + (S.dim === 'all' && c.dim ? ' (dim ' + c.dim + ')' : ''); },
      (D.split_kind[S.dataset] || 'split') + ' (training-set size)');
    note('split-curve', n ? 'Cell means ± std as the tables store them; click a legend entry to hide a method, double-click to show it alone; hover a point for its value.' : 'Nothing to draw.');
  }
  function drawDimCurve() {
    var cells = cellsOf(S.measure).filter(function (c) { return String(c.split) === S.split && c.dim > 0; });
    if (uniq(cells.map(function (c) { return c.dim; })).length < 2) {
      clearChart('dim-curve');
      note('dim-curve', 'One latent dimension only: nothing to draw against it.');
      return;
    }
    var n = lines('dim-curve', cells, 'dim', function (c) { return label(c.file, c.method); }, 'latent dimension');
    note('dim-curve', n ? 'At the selected split value; methods without a latent dimension are left out.' : 'Nothing to draw.');
  }
  function drawRnx() {
    var cs = D.rnx.filter(function (r) {
      return r.dataset === S.dataset && String(r.split) === S.split && fileOk(r.file) && protoOk(r.protocol) &&
        (S.dim === 'all' ? true : String(r.dim) === S.dim);
    });
    if (!cs.length) clearChart('rnx');
    else lineChart('rnx', cs.map(function (r) {
      return {name: label(r.file, r.method) + (S.dim === 'all' ? ' (dim ' + r.dim + ')' : '') + (r.auc === null ? '' : ' AUC ' + r.auc.toFixed(3)),
        color: methodColor(r.method), x: r.K, y: r.rnx};
    }), {xtitle: 'K (neighbourhood size)', ytitle: 'R_NX(K)', logx: true});
    note('rnx', cs.length ? 'One task per method: the tables\' chosen setting on the first partition; AUC_logK as stored by the run. K on a log axis.' : 'No R_NX curves stored for this selection (quality: [rnx_auc] stores them).');
  }
  // The critical-difference diagram (Demšar): mean ranks on an axis, 1 = best at the left, each
  // method a marker on its own row; above the axis the CD bar and a thick line over each
  // maximal run of methods closer than CD.
  function cdChart(box, r, ci) {
    var order = r.labels.map(function (l, i) { return {l: l, m: r.mean_rank[i]}; }).sort(function (a, b) { return a.m - b.m; });
    var k = order.length, cdok = r.blocks >= 2 && isFinite(r.cd) && r.cd > 0, groups = [];
    if (cdok) {
      for (var i = 0; i < k; i++) {
        var j = i;
        while (j + 1 < k && order[j + 1].m - order[i].m <= r.cd + 1e-12) j++;
        if (j > i && !(i > 0 && order[j].m - order[i - 1].m <= r.cd + 1e-12)) groups.push([i, j]);
      }
    }
    var title = D.files[r.file].tag + ': mean rank by ' + r.measure + ' over ' + r.blocks + ' block' + (r.blocks === 1 ? '' : 's') +
      (cdok ? '; Friedman p = ' + (r.p === null ? '?' : r.p.toPrecision(3)) + ', Iman-Davenport p = ' + (r.p_f === null ? '?' : r.p_f.toPrecision(3)) + ', alpha = ' + r.alpha : '; too few blocks for the Friedman test and CD') +
      (r.left_out ? '; left out: ' + r.left_out : '');
    var W = chartWidth(box) + 200, M = {l: 30, r: 30}, row = 22;
    var axisY = (cdok ? 34 + 10 * groups.length : 14) + 22, H = axisY + 16 + row * (k - 1) + 34;
    var fx = function (v) { return M.l + (v - 0.5) / k * (W - M.l - M.r); };
    var wrap = el('div', {'class': 'cplot'}), tip = el('div', {'class': 'tip'}), svg = sv('svg', {width: W, height: H});
    box.appendChild(el('div', {'class': 'ctitle'}, title));
    wrap.appendChild(svg); wrap.appendChild(tip); box.appendChild(wrap);
    var g = sv('g', {'class': 'axes'});
    g.appendChild(sv('line', {x1: fx(0.5), x2: fx(k + 0.5), y1: axisY, y2: axisY, 'class': 'axis'}));
    for (var t = 1; t <= k; t++) {
      g.appendChild(sv('line', {x1: fx(t), x2: fx(t), y1: axisY - 5, y2: axisY, 'class': 'axis'}));
      g.appendChild(sv('text', {x: fx(t), y: axisY - 8, 'text-anchor': 'middle', 'class': 'tick'}, String(t)));
    }
    g.appendChild(sv('text', {x: W / 2, y: H - 6, 'text-anchor': 'middle', 'class': 'atitle'}, 'mean rank (1 = best)'));
    if (cdok) {
      g.appendChild(sv('line', {x1: fx(1), x2: fx(1 + r.cd), y1: 18, y2: 18, 'class': 'cdbar'}));
      g.appendChild(sv('text', {x: fx(1 + r.cd) + 6, y: 22, 'class': 'tick'}, 'CD = ' + r.cd.toFixed(2)));
      groups.forEach(function (gr, n) {
        var y = 34 + 10 * n;
        g.appendChild(sv('line', {x1: fx(order[gr[0]].m) - 3, x2: fx(order[gr[1]].m) + 3, y1: y, y2: y, 'class': 'clique'}));
      });
    }
    svg.appendChild(g);
    var pts = [];
    order.forEach(function (o, i) {
      var X = fx(o.m), Y = axisY + 16 + row * i, left = o.m > (k + 1) / 2, c = methodColor(o.l);
      svg.appendChild(sv('line', {x1: X, x2: X, y1: axisY, y2: Y, stroke: c, 'class': 'stem'}));
      svg.appendChild(sv('circle', {cx: X, cy: Y, r: 5, fill: c, 'class': 'pt', 'data-name': o.l}));
      svg.appendChild(sv('text', {x: left ? X - 9 : X + 9, y: Y + 4, 'text-anchor': left ? 'end' : 'start', 'class': 'tick'}, o.l + ' (' + o.m.toFixed(2) + ')'));
      pts.push([X, Y, [o.l, 'mean rank ' + o.m.toFixed(3)]]);
    });
    hover(svg, tip, function () { return pts; });
    window.drbench.charts['cd-' + ci] = {series: order.map(function (o) { return {name: o.l, rank: o.m}; }),
      pointAt: function (i) { var b = svg.getBoundingClientRect(); return [b.left + pts[i][0], b.top + pts[i][1]]; }};
  }
  function drawCd() {
    var box = $('cd');
    box.innerHTML = '';
    Object.keys(window.drbench.charts).forEach(function (c) { if (c.indexOf('cd-') === 0) delete window.drbench.charts[c]; });
    var rs = D.ranks.filter(function (r) { return r.measure_key === S.measure && fileOk(r.file) &&
      (S.measure !== 'knn_error' || String(r.k) === String(D.rank_k)); });
    if (!rs.length) { note('cd', 'No ranks for this measure.'); return; }
    note('cd', 'Mean ranks and the Nemenyi critical difference as `drbench aggregate --ranks` computes them; a thick line joins methods closer than CD; hover a marker for its mean rank.');
    rs.forEach(function (r, ci) { cdChart(box, r, ci); });
  }
  function drawTraces() {
    var ts = D.traces.filter(function (t) {
      return t.dataset === S.dataset && String(t.split) === S.split && fileOk(t.file) && (S.dim === 'all' || String(t.dim) === S.dim);
    });
    if (!ts.length) clearChart('traces');
    else lineChart('traces', ts.map(function (t) {
      return {name: label(t.file, t.method) + ' (dim ' + t.dim + ', ' + t.optimizer + ')', color: methodColor(t.method),
        x: t.iteration, y: t.objective};
    }), {xtitle: 'iteration', ytitle: 'objective'});
    note('traces', ts.length ? 'The objective of each method\'s shown task (the chosen setting, first partition), as logged by its optimiser.' : 'No optimiser traces for this selection (keep_traces: true stores them).');
  }
  function drawAll() {
    var t0 = performance.now();
    var tm = window.drbench.timings = {};
    boxWidth = null;
    [refreshSelectors, drawTables, drawScatter, drawSplitCurve, drawDimCurve, drawRnx, drawCd,
      drawTraces].forEach(function (f) {
      var t = performance.now();
      f();
      tm[f.name] = Math.round(performance.now() - t);
    });
    window.drbench.redraws++;
    window.drbench.lastDrawMs = performance.now() - t0;
    document.documentElement.setAttribute('data-redraws', String(window.drbench.redraws));
  }
  window.drbench = {state: S, redraws: 0, data: D, charts: {}, parsed: T_PARSE};
  window.addEventListener('DOMContentLoaded', function () {
    var tDraw = performance.now();
    bindSelectors();
    drawAll();
    // The curves take the page's width: drawn again when the window is resized.
    var resized = null, width = window.innerWidth;
    window.addEventListener('resize', function () {
      if (window.innerWidth === width) return;
      width = window.innerWidth;
      clearTimeout(resized);
      resized = setTimeout(function () { boxWidth = null; [drawSplitCurve, drawDimCurve, drawRnx, drawCd, drawTraces].forEach(function (f) { f(); }); }, 200);
    });
    window.drbench.readyMs = performance.now();
    // Where the time went: the data parsed (from, to), the drawing begun, all ms after navigation.
    window.drbench.phases = {script: Math.round(T_PARSE[0]), parsed: Math.round(T_PARSE[1]), draw: Math.round(tDraw),
      ready: Math.round(window.drbench.readyMs)};
    document.documentElement.setAttribute('data-ready', '1');
  });
})();
