/**
 * The dashboard's only script, inlined under the CSP nonce: live refresh of an element `#live`
 * (the overview, an open order). Every `data-every` seconds, while the tab is visible, it fetches
 * the same page and swaps in the new `#live`; it stops when the answer has `data-every="0"` (a
 * final order), when the session has ended, and never swaps while focus is inside (someone is
 * about to press a button). Without it the page is complete; a reload shows the same.
 */
export const LIVE_SCRIPT = `
(function () {
  var live = document.getElementById('live');
  if (!live || !window.fetch || !('content' in document.createElement('template'))) return;
  var stopped = false;
  function every() { return Number(live.getAttribute('data-every') || '0') * 1000; }
  function later() { if (!stopped && every() > 0) setTimeout(tick, every()); }
  function tick() {
    if (document.hidden) return later();
    fetch(location.href, { credentials: 'same-origin', cache: 'no-store', headers: { 'x-kassa-live': '1' } })
      .then(function (r) {
        if (r.redirected || r.status === 401 || r.status === 403) { stopped = true; return null; }
        return r.ok ? r.text() : null;
      })
      .then(function (html) {
        if (!html) return;
        // A <template> parses without applying anything (its styles stay inert under the CSP).
        var box = document.createElement('template');
        box.innerHTML = html;
        var next = box.content.getElementById('live');
        if (!next) return;
        var focus = document.activeElement;
        if (focus && focus !== document.body && live.contains(focus)) return;
        live.replaceWith(next);
        live = next;
      })
      .catch(function () {})
      .then(later);
  }
  later();
})();
`
  .trim()
  .replace(/\n\s*/g, '\n');
