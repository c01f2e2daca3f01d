import { createHash } from 'node:crypto';

/**
 * The desk page's stylesheet, embedded as one inline `<style>` allowed by its hash in the desk's
 * Content-Security-Policy (the chart's own stylesheet is a file under `/desk/assets/`). Works from
 * 360 px wide: wide tables scroll inside their own focusable region.
 */
export const DESK_STYLES = `
:root{color-scheme:light;--ink:#1d2433;--muted:#4f5868;--line:#dde2ea;--bg:#f4f6fa;--card:#fff;--accent:#b42318;--link:#1849a9;--ok:#067647;--ok-bg:#ecfdf3;--warn:#93370d;--warn-bg:#fffaeb;--bad:#b42318;--bad-bg:#fef3f2;--info:#1849a9;--info-bg:#eff8ff;--up:#067647;--down:#b42318}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
a{color:var(--link)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,[tabindex]:focus-visible{outline:3px solid #84adff;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:8px}
.skip:focus{left:8px;z-index:10}
header.top{background:#101828;color:#fff;padding:10px 16px;display:flex;flex-wrap:wrap;align-items:center;gap:8px 20px}
header.top .brand{font-weight:700;letter-spacing:.04em;text-transform:uppercase;font-size:13px;color:#fff;text-decoration:none}
header.top nav{display:flex;flex-wrap:wrap;gap:4px 14px;flex:1}
header.top nav a{color:#d0d5dd;text-decoration:none;padding:4px 0;border-bottom:2px solid transparent}
header.top nav a[aria-current=page]{color:#fff;border-bottom-color:#fff}
header.top .who{display:flex;align-items:center;gap:10px;font-size:13px;color:#d0d5dd;flex-wrap:wrap}
header.top form{margin:0}
header.top button{background:transparent;color:#fff;border:1px solid #667085;padding:4px 10px;font-weight:500;border-radius:6px}
main{max-width:1280px;margin:0 auto;padding:16px}
main.narrow{max-width:560px;padding-top:48px}
h1{font-size:22px;line-height:1.3;margin:4px 0 12px}
h2{font-size:17px;margin:24px 0 8px}
h3{font-size:15px;margin:16px 0 6px}
p{margin:0 0 12px}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:16px 18px;margin:0 0 16px}
.card h2{margin-top:0}
.asof{color:var(--muted);font-size:13px}
.note{color:var(--muted);font-size:13px}
.counts{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 12px;padding:0;list-style:none}
.counts li{background:var(--card);border:1px solid var(--line);border-radius:999px;padding:2px 12px;font-size:13px}
.scroll{overflow-x:auto;max-width:100%;position:relative}
table{border-collapse:collapse;width:100%;font-size:14px;background:var(--card)}
th,td{text-align:left;padding:7px 8px;border-bottom:1px solid var(--line);vertical-align:middle;white-space:nowrap}
thead th{font-size:12px;color:var(--muted);font-weight:600;text-transform:uppercase;letter-spacing:.03em}
tbody th{font-weight:600}
th a{color:inherit}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td.wrap{white-space:normal;min-width:180px}
.up{color:var(--up)}
.down{color:var(--down)}
.up,.down,.flat{white-space:nowrap}
code{overflow-wrap:anywhere}
.badge{display:inline-block;font-size:12px;font-weight:600;border-radius:999px;padding:1px 8px}
.badge.wide{display:block;border-radius:8px;margin-top:4px;max-width:420px}
.b-ok{color:var(--ok);background:var(--ok-bg)}
.b-warn{color:var(--warn);background:var(--warn-bg)}
.b-bad{color:var(--bad);background:var(--bad-bg)}
.b-info{color:var(--info);background:var(--info-bg)}
.bar{display:inline-block;width:90px;height:10px;background:#eaecf0;border-radius:5px;position:relative;vertical-align:middle;overflow:hidden}
.bar svg{display:block}
.spark{display:block}
form.inline{display:inline;margin:0}
form.stack label{display:block;font-weight:600;margin:0 0 6px}
input[type=email],input[type=search],input[type=text],select{font:inherit;padding:8px 10px;border:1px solid #98a2b3;border-radius:8px;width:100%;max-width:420px;background:#fff;color:var(--ink)}
button,.button{font:inherit;font-weight:600;color:#fff;background:var(--accent);border:0;border-radius:8px;padding:9px 18px;cursor:pointer;text-decoration:none;display:inline-block}
button.neutral,.button.neutral{background:var(--info)}
button.small{padding:4px 10px;font-size:13px}
.filter{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:0 0 10px}
.filter label{font-weight:600}
.filter input{max-width:260px}
dl.figures{display:grid;grid-template-columns:fit-content(50%) 1fr;gap:4px 16px;margin:8px 0}
dl.figures dt{color:var(--muted)}
dl.figures dd{margin:0;font-variant-numeric:tabular-nums}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:16px}
.windows{display:flex;flex-wrap:wrap;gap:6px;margin:0 0 10px;padding:0;list-style:none}
.windows a{display:inline-block;padding:3px 10px;border:1px solid var(--line);border-radius:6px;background:#fff;text-decoration:none}
.windows a[aria-current=true]{background:var(--info);color:#fff;border-color:var(--info)}
figure{margin:0 0 12px}
figure svg{max-width:100%;height:auto;display:block}
figcaption{font-size:13px;color:var(--muted)}
.chart{min-height:60px}
.calendar{display:grid;grid-template-columns:repeat(7,minmax(34px,1fr));gap:3px;max-width:420px}
.calendar a,.calendar span{display:block;text-align:center;font-size:12px;padding:6px 0;border-radius:4px;text-decoration:none;color:var(--ink)}
.calendar .dow{color:var(--muted);font-weight:600}
.calendar .c0{background:#f2f4f7}
.calendar .p1{background:#d1fadf}.calendar .p2{background:#a6f4c5}.calendar .p3{background:#6ce9a6}
.calendar .n1{background:#fee4e2}.calendar .n2{background:#fecdca}.calendar .n3{background:#fda29b}
.calendar a[aria-current=date]{outline:2px solid var(--ink)}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
footer{font-size:12px;color:var(--muted);margin:24px 0 12px}
@media (max-width:640px){main{padding:10px}h1{font-size:19px}th,td{padding:6px 5px}.hide-narrow{display:none}}
`.trim();

/** The CSP source expression that allows exactly {@link DESK_STYLES}. */
export const DESK_STYLES_HASH = `'sha256-${createHash('sha256').update(DESK_STYLES, 'utf8').digest('base64')}'`;
