/**
 * The dashboard's only stylesheet, inlined under the CSP nonce (no style attributes anywhere: the
 * CSP would block them). System fonts; text colours meet WCAG AA on their backgrounds; tables turn
 * into labelled cards below 44rem so every page reads on a phone; visible focus, 44 px targets.
 */
export const DASHBOARD_CSS = `
:root{color-scheme:light;--fg:#1b1d21;--muted:#4b525c;--line:#d6dae0;--bg:#f3f5f7;--card:#fff;--accent:#0b57d0;
--ok:#0b6b32;--okbg:#e6f4ea;--warn:#6b4500;--warnbg:#fff4d6;--bad:#a50e0e;--badbg:#fdecea;--info:#0b4aa2;--infobg:#e8f0fe}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);
font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","PingFang SC","Microsoft YaHei",sans-serif}
a{color:var(--accent)}
.skip{position:absolute;left:-999px}.skip:focus{left:.5rem;top:.5rem;background:#fff;padding:.5rem;z-index:2}
.top{background:#15263f;color:#fff}
.top a{color:#fff}
.bar{max-width:82rem;margin:0 auto;padding:.5rem 1rem;display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.25rem}
.brand{font-weight:700;font-size:1.125rem;text-decoration:none}
.net{font-size:.75rem;border:1px solid #9fb3cf;border-radius:99px;padding:0 .5rem;color:#dfe7f2}
.net[data-net=testnet]{border-color:#f0c36b;color:#ffe0a3}
.who{margin-left:auto;display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .75rem;font-size:.875rem;color:#dfe7f2}
.who form{margin:0}
.who button{background:transparent;border:1px solid #9fb3cf;color:#fff;min-height:34px;padding:.125rem .625rem}
.lang a[aria-current]{font-weight:700;text-decoration:none}
nav.sections{border-top:1px solid #2c4466}
nav.sections ul{list-style:none;margin:0 auto;max-width:82rem;padding:0 .5rem;display:flex;gap:.125rem;overflow-x:auto}
nav.sections a{display:block;padding:.625rem .625rem;text-decoration:none;white-space:nowrap;color:#dfe7f2;
border-bottom:3px solid transparent}
nav.sections a[aria-current]{color:#fff;border-bottom-color:#7fb0ff;font-weight:600}
main{max-width:82rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.25rem 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.125rem;margin:0 0 .75rem}
h3{font-size:1rem;margin:1rem 0 .5rem}
section.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:1rem;margin:0 0 1rem}
.note{color:var(--muted);font-size:.875rem;margin:.25rem 0 .75rem}
.notice{border-radius:8px;padding:.625rem .875rem;margin:0 0 1rem;border-left:4px solid var(--info);background:var(--infobg)}
.notice.ok{border-color:var(--ok);background:var(--okbg)}
.notice.warn{border-color:#c58a00;background:var(--warnbg);color:var(--warn)}
.notice.bad{border-color:var(--bad);background:var(--badbg);color:var(--bad)}
.notyet{border:1px dashed #9aa3ad;border-radius:8px;padding:.625rem .875rem;color:var(--muted);background:#fafbfc}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(10.5rem,1fr));gap:.75rem;margin:0 0 1rem}
.tile{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.75rem 1rem;text-decoration:none;color:var(--fg)}
.tile strong{display:block;font-size:1.625rem;font-variant-numeric:tabular-nums}
.tile span{color:var(--muted);font-size:.875rem}
.tile[data-alert]{border-color:var(--bad);background:var(--badbg)}
.tile[data-alert] strong{color:var(--bad)}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:.875rem}
th,td{text-align:left;padding:.5rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
tbody tr:hover{background:#f7f9fb}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.8125rem;
overflow-wrap:anywhere;word-break:break-all}
.sub{display:block;color:var(--muted);font-size:.8125rem}
.badge{display:inline-block;border-radius:99px;padding:0 .5rem;font-size:.75rem;font-weight:600;white-space:nowrap;
background:#eceff3;color:#333a44;border:1px solid #c9cfd6}
.badge[data-s=SUCCESS],.badge[data-s=delivered],.badge[data-s=final],.badge[data-s=ok]{background:var(--okbg);color:var(--ok);border-color:#9bd3ad}
.badge[data-s=FAILED],.badge[data-s=failed],.badge[data-s=EXPIRED],.badge[data-s=bad],.badge[data-s=orphaned],
.badge[data-s=dropped],.badge[data-s=disabled]{background:var(--badbg);color:var(--bad);border-color:#f1aeb0}
.badge[data-s=PENDING],.badge[data-s=PENDING_CONFIRMATION],.badge[data-s=pending],.badge[data-s=warn],
.badge[data-s=broadcast],.badge[data-s=mined],.badge[data-s=signed]{background:var(--warnbg);color:var(--warn);border-color:#e7c873}
dl.facts{display:grid;grid-template-columns:minmax(8rem,max-content) 1fr;gap:.375rem 1rem;margin:0}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;min-width:0;overflow-wrap:anywhere}
form.filters{display:grid;grid-template-columns:repeat(auto-fit,minmax(9.5rem,1fr));gap:.5rem .75rem;align-items:end}
form.filters .wide{grid-column:1/-1}
label{display:block;font-size:.8125rem;color:var(--muted);margin-bottom:.125rem}
input,select{font:inherit;width:100%;min-height:40px;padding:.375rem .5rem;border:1px solid #aab2bd;border-radius:6px;background:#fff;color:var(--fg)}
input[type=checkbox]{width:auto;min-height:0;margin-right:.375rem}
.check{display:flex;align-items:flex-start;font-size:.8125rem;color:var(--fg);margin:.25rem 0}
button,.button{font:inherit;font-size:.875rem;min-height:40px;padding:.375rem .875rem;border-radius:6px;cursor:pointer;
border:1px solid var(--accent);background:var(--accent);color:#fff;text-decoration:none;display:inline-flex;align-items:center}
button.quiet,.button.quiet{background:#fff;color:var(--accent)}
button.danger{background:var(--bad);border-color:var(--bad)}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.inline{display:flex;gap:.375rem;align-items:center;flex-wrap:wrap;margin:.25rem 0}
.inline input{flex:1 1 12rem;width:auto}
.inline input[type=checkbox]{flex:none}
.decide{display:flex;flex-wrap:wrap;gap:0 1rem;align-items:center;margin-top:.5rem}
.decide form{flex:1 1 16rem}
.held .facts{margin:.5rem 0}
.why{overflow-wrap:anywhere}
.pager{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap;margin-top:.75rem}
.periods{display:flex;gap:.25rem;margin:0 0 .75rem}
.periods a{padding:.25rem .75rem;border:1px solid var(--line);border-radius:99px;text-decoration:none;background:#fff}
.periods a[aria-current]{background:var(--accent);border-color:var(--accent);color:#fff}
.secret{background:#fff8e6;border:1px solid #e7c873;border-radius:8px;padding:.5rem .75rem}
.qr{width:13rem;max-width:100%;border:1px solid var(--line);border-radius:8px;overflow:hidden;background:#fff}
.qr svg{display:block;width:100%;height:auto}
.signin{max-width:24rem;margin:3rem auto}
.signin form{display:grid;gap:.75rem}
ol.timeline{list-style:none;margin:0;padding:0}
ol.timeline li{display:grid;grid-template-columns:max-content 1fr;gap:.75rem;padding:.375rem 0;border-bottom:1px solid var(--line)}
ol.timeline time{white-space:nowrap}
.attempts{margin:.25rem 0 .5rem}
.event{border:1px solid var(--line);border-radius:8px;padding:.625rem .75rem;margin:0 0 .75rem}
.event header{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;justify-content:space-between}
footer.foot{max-width:82rem;margin:0 auto;padding:0 1rem 2rem;color:var(--muted);font-size:.8125rem}
:focus-visible{outline:3px solid #7fb0ff;outline-offset:2px}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
[hidden]{display:none!important}
@media (max-width:44rem){
main{padding:.75rem}
.who{margin-left:0;width:100%}
table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:100%}
table.stack tr{border:1px solid var(--line);border-radius:8px;margin:0 0 .625rem;padding:.25rem .625rem;background:#fff}
table.stack td{border:0;padding:.25rem 0;display:grid;grid-template-columns:7.5rem minmax(0,1fr);gap:.5rem;text-align:left}
table.stack td::before{content:attr(data-label);color:var(--muted);font-size:.8125rem}
table.stack td.num{text-align:left}
ol.timeline li{grid-template-columns:1fr;gap:0}
dl.facts{grid-template-columns:1fr}dl.facts dd{margin-bottom:.375rem}
}
`
  .trim()
  .replace(/\n/g, '');
