/** The web app's one stylesheet, served by the hub at /assets/app.css (no other site is asked). */
export const STYLES = `
:root {
  --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --soft: #f6f8fa; --bg: #fff;
  --accent: #0969da; --accent-fg: #fff; --ok: #1a7f37; --ok-bg: #dafbe1; --bad: #cf222e;
  --bad-bg: #ffebe9; --warn: #9a6700; --warn-bg: #fff8c5; --info: #0969da; --info-bg: #ddf4ff;
  --radius: 6px; --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
html { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
body { margin: 0; min-height: 100vh; display: flex; flex-direction: column; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code, pre, .mono { font-family: var(--mono); font-size: 13px; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: var(--radius); padding: 12px; overflow: auto; max-height: 480px; }
h1 { font-size: 24px; margin: 0 0 4px; font-weight: 600; }
h2 { font-size: 18px; margin: 28px 0 10px; font-weight: 600; }
h3 { font-size: 15px; margin: 20px 0 8px; font-weight: 600; }
.top { background: #24292f; color: #fff; }
.top .bar { max-width: 1080px; margin: 0 auto; padding: 10px 20px; display: flex; align-items: center; gap: 18px; }
.top a { color: #fff; }
.top .brand { font-weight: 700; font-size: 17px; letter-spacing: .2px; }
.top nav { display: flex; gap: 14px; flex: 1; }
.top nav a { opacity: .85; }
.top nav a[aria-current="page"] { opacity: 1; font-weight: 600; }
.top .me { display: flex; gap: 12px; align-items: center; }
.top form { margin: 0; }
.top button.link { color: #fff; opacity: .85; }
main { flex: 1; width: 100%; max-width: 1080px; margin: 0 auto; padding: 24px 20px 48px; }
footer { color: var(--muted); font-size: 13px; text-align: center; padding: 18px; border-top: 1px solid var(--line); }
.crumbs { color: var(--muted); font-size: 14px; margin-bottom: 6px; }
.crumbs a { color: var(--muted); }
.lead { color: var(--muted); margin: 0 0 16px; }
.head { display: flex; align-items: flex-start; justify-content: space-between; gap: 16px; margin-bottom: 16px; flex-wrap: wrap; }
.tabs { display: flex; gap: 4px; border-bottom: 1px solid var(--line); margin: 8px 0 20px; flex-wrap: wrap; }
.tabs a { padding: 8px 12px; color: var(--fg); border-bottom: 2px solid transparent; }
.tabs a[aria-current="page"] { border-color: #fd8c73; font-weight: 600; }
.card { border: 1px solid var(--line); border-radius: var(--radius); padding: 16px; margin-bottom: 16px; background: var(--bg); }
.narrow { max-width: 440px; margin: 24px auto; }
table { width: 100%; border-collapse: collapse; border: 1px solid var(--line); border-radius: var(--radius); margin-bottom: 16px; font-size: 14px; }
.table-scroll { overflow-x: auto; margin-bottom: 16px; }
.table-scroll > table { margin-bottom: 0; }
.table-scroll th, td time { white-space: nowrap; }
th, td { text-align: left; padding: 8px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
tr:last-child td { border-bottom: 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 6px 18px; margin: 0 0 16px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
form.stack { display: flex; flex-direction: column; gap: 12px; }
form.inline { display: inline; margin: 0; }
.row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
label { font-weight: 600; font-size: 14px; display: block; margin-bottom: 4px; }
label.check { font-weight: 400; display: flex; gap: 6px; align-items: center; }
.hint { color: var(--muted); font-size: 13px; margin: -2px 0 6px; font-weight: 400; }
input[type=text], input[type=password], input[type=url], input[type=number], input[type=datetime-local], input[type=file], select, textarea {
  width: 100%; font: inherit; padding: 6px 10px; border: 1px solid var(--line); border-radius: var(--radius); background: var(--bg); color: var(--fg);
}
textarea { font-family: var(--mono); font-size: 13px; min-height: 220px; }
input:focus, select:focus, textarea:focus { outline: 2px solid var(--accent); outline-offset: -1px; }
.field-error { color: var(--bad); font-size: 13px; margin-top: 4px; }
button, .button { font: inherit; font-weight: 600; padding: 6px 14px; border-radius: var(--radius); border: 1px solid var(--line); background: var(--soft); color: var(--fg); cursor: pointer; display: inline-block; }
button.primary, .button.primary { background: #1f883d; border-color: #1a7f37; color: #fff; }
button.danger { color: var(--bad); }
button.danger:hover { background: var(--bad); color: #fff; }
button.link { background: none; border: 0; padding: 0; color: var(--accent); font-weight: 400; }
.flash { border-radius: var(--radius); padding: 12px 14px; margin-bottom: 16px; border: 1px solid; }
.flash.success { background: var(--ok-bg); border-color: #aceebb; }
.flash.error { background: var(--bad-bg); border-color: #ffcecb; }
blockquote { margin: 8px 0 12px; padding: 2px 12px; border-left: 3px solid var(--line); white-space: pre-wrap; overflow-wrap: anywhere; }
.secret { margin-top: 8px; }
.secret code { display: block; background: var(--bg); border: 1px solid var(--line); padding: 8px; border-radius: var(--radius); word-break: break-all; font-size: 14px; }
.badge { display: inline-block; font-size: 12px; font-weight: 600; padding: 1px 8px; border-radius: 2em; border: 1px solid var(--line); background: var(--soft); color: var(--muted); white-space: nowrap; }
.badge.breaking, .badge.failed, .badge.error, .badge.private { color: var(--bad); background: var(--bad-bg); border-color: #ffcecb; }
.badge.warning, .badge.pending, .badge.running, .badge.retry { color: var(--warn); background: var(--warn-bg); border-color: #f5e0a0; }
.badge.info, .badge.public { color: var(--info); background: var(--info-bg); border-color: #b6e3ff; }
.badge.succeeded, .badge.active, .badge.production, .badge.accepted { color: var(--ok); background: var(--ok-bg); border-color: #aceebb; }
.muted { color: var(--muted); }
.empty { color: var(--muted); border: 1px dashed var(--line); border-radius: var(--radius); padding: 20px; text-align: center; margin-bottom: 16px; }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; margin-bottom: 16px; }
.grid2 > .card { margin-bottom: 0; }
@media (max-width: 720px) {
  .grid2 { grid-template-columns: 1fr; }
  /* The navigation takes a row of its own under the brand and the viewer, and wraps. */
  .top .bar { flex-wrap: wrap; gap: 6px 14px; padding: 8px 14px; }
  .top .me { margin-left: auto; }
  .top nav { order: 3; flex-basis: 100%; flex-wrap: wrap; gap: 4px 16px; }
  main { padding: 16px 14px 40px; }
  h1 { font-size: 21px; overflow-wrap: anywhere; }
  /* A table not in a .table-scroll box still scrolls in itself rather than widening the page. */
  table:not(.table-scroll > table) { display: block; overflow-x: auto; }
  /* A table of five columns or more keeps a readable width and scrolls in its box. */
  .table-scroll > table:has(th:nth-child(5)) { min-width: 660px; }
}
.head h2 { margin-top: 0; }
section.comparison { margin-top: 24px; }
.card > h2:first-child, .card > h3:first-child { margin-top: 0; }
td pre { margin: 0; }
td.mono, .break { word-break: break-all; }
/* An id that names its row stays whole; the table's box scrolls instead. */
td.nowrap { white-space: nowrap; word-break: normal; }
form.row select { width: auto; }
.card.form-card { max-width: 560px; }
fieldset.checks { border: 0; padding: 0; margin: 0; display: flex; flex-direction: column; gap: 6px; }
fieldset.checks legend { font-weight: 600; font-size: 14px; padding: 0; margin-bottom: 4px; }
.row.bottom { align-items: flex-end; }
.checklist ol { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: 12px; }
.checklist li { display: flex; gap: 10px; align-items: flex-start; }
.checklist .tick { flex: none; width: 22px; height: 22px; border: 2px solid var(--line); border-radius: 50%; text-align: center; line-height: 18px; font-size: 13px; font-weight: 700; margin-top: 1px; }
.checklist li.done .tick { border-color: var(--ok); background: var(--ok); color: #fff; }
.checklist li.done strong { color: var(--muted); text-decoration: line-through; }
.checklist code { overflow-wrap: anywhere; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
/* API pages (pages/apis): identifiers, code in messages, parse issues. Ids wrap only at their
   <wbr>s (after / . : _ ~1, between camelCase humps) and hyphens, never mid-word; a segment wider
   than its cell still breaks. */
.ident { font-family: var(--mono); font-size: 13px; word-break: normal; overflow-wrap: break-word; }
code.ident { background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: 0 4px; }
.stack-tight { display: flex; flex-direction: column; gap: 4px; align-items: flex-start; }
.tabs.issue-levels { margin: 0 0 12px; }
table.issues td:first-child { width: 1%; white-space: nowrap; }
/* A table.stacked shows each row as a block on a phone: its cells one under the other, td.inline ones side by side. */
@media (max-width: 720px) {
  table.stacked thead { display: none; }
  table.stacked tr { display: block; padding: 8px 10px; border-bottom: 1px solid var(--line); }
  table.stacked tr:last-child { border-bottom: 0; }
  table.stacked td { display: block; padding: 2px 0; border: 0; width: auto; }
  table.stacked td.inline { display: inline-block; margin-right: 8px; width: auto; }
}
`
