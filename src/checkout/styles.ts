/**
 * The page's only stylesheet, inlined under the CSP nonce. System fonts only; every colour pair
 * meets WCAG AA (4.5:1) for its text; one column from 320 px up, centred on wider screens; large
 * touch targets and a visible focus ring.
 */
export const CHECKOUT_CSS = `
:root{color-scheme:light;--fg:#1b1d21;--muted:#4b525c;--line:#d6dae0;--bg:#eef1f4;--card:#fff;--accent:#0b57d0;
--info:#0b4aa2;--infobg:#e8f0fe;--ok:#0b6b32;--okbg:#e6f4ea;--warn:#6b4500;--warnbg:#fff4d6;--bad:#a50e0e;--badbg:#fdecea}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","PingFang SC","Microsoft YaHei",sans-serif}
main{max-width:30rem;margin:0 auto;padding:.75rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:14px;padding:1.25rem}
header{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:flex-start;gap:.25rem 1rem}
.eyebrow{margin:0;color:var(--muted);font-size:.875rem}
h1{margin:.125rem 0 0;font-size:1.875rem;line-height:1.2;overflow-wrap:anywhere}
h2{margin:0;font-size:1.0625rem}
nav{display:flex;gap:.75rem}nav a{color:var(--accent);display:inline-block;padding:.125rem 0}
nav a[aria-current]{color:var(--fg);font-weight:600;text-decoration:none}
a{color:var(--accent)}
.status{margin:1rem 0;padding:.75rem 1rem;border-radius:10px;border-left:5px solid var(--info);background:var(--infobg)}
.status p{margin:.25rem 0 0}
.status[data-view=confirming],.status[data-view=paid]{border-color:var(--ok);background:var(--okbg)}
.status[data-view=paid] h2{color:var(--ok)}
.status[data-view=expired],.status[data-view=failed]{border-color:var(--bad);background:var(--badbg)}
.status[data-view=expired] h2,.status[data-view=failed] h2,.status h1{color:var(--bad)}
.status[data-view=waiting] h2::before{content:"";display:inline-block;width:.6em;height:.6em;margin-right:.5em;
border-radius:50%;background:var(--info);animation:pulse 1.6s ease-in-out infinite}
@keyframes pulse{50%{opacity:.25}}
@media (prefers-reduced-motion:reduce){.status h2::before{animation:none}}
.warn{margin:0 0 1rem;padding:.75rem 1rem;border-radius:10px;background:var(--warnbg);color:var(--warn);
border:1px solid #e7c873}
dl{margin:0}
dt{color:var(--muted);font-size:.875rem;margin-top:.75rem}
dd{margin:0}
.line{display:flex;align-items:center;gap:.75rem;justify-content:space-between}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;overflow-wrap:anywhere;
word-break:break-all}
.big{font-size:1.25rem;font-weight:600;font-variant-numeric:tabular-nums;overflow-wrap:anywhere;min-width:0}
.address{font-size:1rem;background:#f6f7f9;border:1px solid var(--line);border-radius:8px;padding:.5rem .625rem;
flex:1;min-width:0;margin:0}
button{font:inherit;font-size:.9375rem;min-height:44px;min-width:44px;padding:.5rem .875rem;border-radius:8px;
border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer;flex:none}
button[data-done]{background:var(--ok);border-color:var(--ok)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px;box-shadow:0 0 0 5px #fff}
figure{margin:1rem 0 0;text-align:center}
.qr{display:block;width:100%;max-width:16rem;margin:0 auto;border:1px solid var(--line);border-radius:8px;
overflow:hidden}
.qr svg{display:block;width:100%;height:auto}
figcaption{color:var(--muted);font-size:.875rem;margin-top:.5rem}
details{margin-top:.25rem;font-size:.875rem;color:var(--muted)}
summary{cursor:pointer}
.timer{margin:1rem 0 0;display:flex;justify-content:space-between;align-items:baseline;gap:.5rem;
border-top:1px solid var(--line);padding-top:.75rem}
.timer strong{font-size:1.25rem;font-variant-numeric:tabular-nums}
.timer.urgent strong{color:var(--bad)}
.offline{color:var(--bad);font-size:.875rem;margin:.5rem 0 0}
footer{margin-top:1rem;color:var(--muted);font-size:.8125rem;display:flex;flex-wrap:wrap;justify-content:space-between;
gap:.25rem 1rem}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);
white-space:nowrap;border:0}
[hidden]{display:none!important}
@media (min-width:40rem){main{padding:2.5rem 1rem}.card{padding:1.75rem 2rem}}
@media (min-width:52rem){main:has(#pay:not([hidden])){max-width:50rem}
#pay:not([hidden]){display:grid;grid-template-columns:minmax(0,1fr) 15rem;gap:0 2rem;align-items:start}
#pay .warn{grid-column:1/-1}#pay figure{margin-top:.75rem}}
`
  .trim()
  .replace(/\n/g, '');
