import { createHash } from 'node:crypto';

/**
 * The one stylesheet of every page, embedded as an inline `<style>` allowed by its hash in the
 * Content-Security-Policy (no `'unsafe-inline'`, no external resources).
 */
export const PAGE_STYLES = `
:root{color-scheme:light;--ink:#1d2433;--muted:#5b6476;--line:#e3e7ef;--bg:#f4f6fa;--card:#fff;--accent:#b42318;--accent-ink:#fff;--ok:#067647;--ok-bg:#ecfdf3;--warn:#93370d;--warn-bg:#fffaeb;--bad:#b42318;--bad-bg:#fef3f2;--info:#1849a9;--info-bg:#eff8ff}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:16px/1.55 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:640px;margin:48px auto;padding:0 16px}
.brand{font-size:13px;font-weight:600;letter-spacing:.06em;text-transform:uppercase;color:var(--muted);margin:0 0 12px}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:28px 32px;box-shadow:0 1px 2px rgba(16,24,40,.06)}
h1{font-size:24px;line-height:1.3;margin:0 0 12px}
p{margin:0 0 14px}
.badge{display:inline-block;font-size:13px;font-weight:600;border-radius:999px;padding:2px 10px;margin:0 0 14px}
.tone-success .badge{color:var(--ok);background:var(--ok-bg)}
.tone-warning .badge{color:var(--warn);background:var(--warn-bg)}
.tone-danger .badge{color:var(--bad);background:var(--bad-bg)}
.tone-neutral .badge{color:var(--info);background:var(--info-bg)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:8px 16px;margin:18px 0;padding:16px;background:var(--bg);border-radius:8px}
dt{color:var(--muted);font-size:14px}
dd{margin:0;font-size:15px;overflow-wrap:anywhere}
code{font:14px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
ul{margin:0 0 16px;padding-left:20px}
li{margin:4px 0}
.note{font-size:14px;color:var(--muted)}
.message{font:14px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--bg);border-radius:8px;padding:12px;overflow-wrap:anywhere;white-space:pre-wrap}
form{margin:22px 0 4px}
button{font:inherit;font-weight:600;color:var(--accent-ink);background:var(--accent);border:0;border-radius:8px;padding:11px 20px;cursor:pointer}
button.neutral{background:var(--info)}
button:focus-visible{outline:3px solid #f5b8b2;outline-offset:2px}
footer{font-size:13px;color:var(--muted);margin:16px 4px}
`.trim();

/** The CSP source expression that allows exactly {@link PAGE_STYLES}. */
export const PAGE_STYLES_HASH = `'sha256-${createHash('sha256').update(PAGE_STYLES, 'utf8').digest('base64')}'`;
