/**
 * The page's only script, inlined under the CSP nonce. Plain ES2017 text (not compiled TypeScript,
 * so no build step or loader helper can leak into it). It reads everything from `#checkout`'s data
 * attributes, counts down with the server's clock, polls GET /checkout/state at most once a second
 * (honouring 429 Retry-After) until a final state, swaps the server-rendered panels, announces
 * changes in the live region, copies with the Clipboard API or a selection fallback, and tells a
 * framing parent about final states with postMessage. The view rule mirrors `viewOf` in state.ts.
 */
export const CHECKOUT_SCRIPT = `
(function () {
  var root = document.getElementById('checkout');
  if (!root) return;
  var d = root.dataset;
  var state = JSON.parse(d.state);
  var skew = state.serverTime - Date.now();
  var view = d.view;
  var stopped = false;
  var pollTimer = 0;
  var said = {};
  var announcer = document.getElementById('announce');
  function all(sel) { return root.querySelectorAll(sel); }
  function one(sel) { return root.querySelector(sel); }
  function say(text) { announcer.textContent = ''; setTimeout(function () { announcer.textContent = text; }, 50); }
  function nonzero(v) { return /[1-9]/.test(v || ''); }
  function now() { return Date.now() + skew; }
  function viewOf(s) {
    var late = now() >= s.expiredTime * 1000;
    switch (s.status) {
      case 'INIT': return late ? 'expired' : 'waiting';
      case 'PENDING': return late ? 'expired' : 'seen';
      case 'PENDING_CONFIRMATION': return 'confirming';
      case 'SUCCESS': return 'paid';
      case 'EXPIRED': return 'expired';
      default: return 'failed';
    }
  }
  function fill(name, value) { all('[data-f="' + name + '"]').forEach(function (e) { e.textContent = value; }); }
  function toggle(sel, on) { all(sel).forEach(function (e) { e.hidden = !on; }); }
  function render(s) {
    fill('received', s.received);
    fill('remaining', s.remaining);
    fill('confirmations', String(s.confirmations));
    fill('txid', s.txid || '');
    fill('reason', s.reason || '');
    all('a[data-f="txid"]').forEach(function (a) {
      if (s.explorerUrl) a.setAttribute('href', s.explorerUrl); else a.removeAttribute('href');
    });
    toggle('[data-if="remaining"]', nonzero(s.remaining));
    toggle('[data-if="received"]', nonzero(s.received));
    toggle('[data-if="reason"]', !!s.reason);
    var v = viewOf(s);
    all('[data-panel]').forEach(function (p) { p.hidden = p.getAttribute('data-panel') !== v; });
    one('.status').setAttribute('data-view', v);
    toggle('#pay', v === 'waiting' || v === 'seen');
    toggle('#qr', v === 'waiting');
    toggle('#timer', v === 'waiting' || v === 'seen');
    root.setAttribute('data-status', s.status);
    root.setAttribute('data-view', v);
    if (v !== view) {
      view = v;
      var title = one('[data-panel="' + v + '"] h2');
      if (title) say(title.textContent);
    }
  }
  function pad(n) { return (n < 10 ? '0' : '') + n; }
  var clock = one('#countdown');
  function tick() {
    var left = Math.max(0, Math.floor((state.expiredTime * 1000 - now()) / 1000));
    var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), sec = left % 60;
    clock.textContent = (h ? h + ':' + pad(m) : String(m)) + ':' + pad(sec);
    one('#timer').classList.toggle('urgent', left <= 300);
    if (view === 'waiting' || view === 'seen') {
      if (left <= 300 && left > 60 && !said[5]) { said[5] = 1; say(d.t5); }
      if (left <= 60 && left > 0 && !said[1]) { said[1] = 1; say(d.t1); }
    }
    if (viewOf(state) !== view) render(state);
  }
  function notifyParent(s) {
    if (window.parent === window) return;
    var origins = window.location.ancestorOrigins;
    var target = origins && origins.length ? origins[0] : '*';
    window.parent.postMessage({ type: 'kassa:checkout', orderId: s.orderId, status: s.status,
      txid: s.txid, actualAmount: s.actualAmount }, target);
  }
  var ticker = 0;
  function stop() { stopped = true; clearTimeout(pollTimer); clearInterval(ticker); }
  function later(ms) { if (!stopped) pollTimer = setTimeout(poll, ms); }
  function offline(on) { toggle('#offline', on); }
  function poll() {
    fetch(d.stateUrl, { cache: 'no-store', credentials: 'omit', headers: { accept: 'application/json' } })
      .then(function (r) {
        if (r.status === 429) return later(1000 * Math.max(1, Number(r.headers.get('retry-after')) || 1));
        if (r.status >= 400 && r.status < 500) return stop();
        if (!r.ok) throw new Error('HTTP ' + r.status);
        return r.json().then(function (body) { offline(false); update(body.data); });
      })
      .catch(function () { offline(true); later(5000); });
  }
  function update(s) {
    skew = s.serverTime - Date.now();
    state = s;
    render(s);
    if (s.final) { stop(); notifyParent(s); return; }
    later(document.hidden ? 5000 : 1000);
  }
  root.addEventListener('click', function (e) {
    var b = e.target.closest ? e.target.closest('button[data-copy]') : null;
    if (!b) return;
    var source = document.getElementById(b.getAttribute('data-copy'));
    var label = b.querySelector('span');
    function done(ok) {
      label.textContent = ok ? d.copied : d.copyFailed;
      if (ok) b.setAttribute('data-done', '');
      say(label.textContent);
      setTimeout(function () { label.textContent = d.copy; b.removeAttribute('data-done'); }, 2500);
    }
    function fallback() {
      var range = document.createRange();
      range.selectNodeContents(source);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (err) { ok = false; }
      done(ok);
    }
    var text = source.textContent.trim();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    } else fallback();
  });
  var initialLeft = state.expiredTime * 1000 - now();
  if (initialLeft <= 300000) said[5] = 1;
  if (initialLeft <= 60000) said[1] = 1;
  render(state);
  if (state.final) { notifyParent(state); return; }
  tick();
  ticker = setInterval(tick, 1000);
  later(1000);
})();
`
  .trim()
  .replace(/\n\s*/g, '\n');
