/** The card's stylesheet, inlined into card.html: the page loads nothing. */
import { WINNER_COLOR } from './card-data.ts';

export const CARD_CSS = `
:root{--ink:#1b1f29;--muted:#5b6472;--line:#e3e6ec;--bg:#f4f5f8;--winner:${WINNER_COLOR}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:1000px;margin:0 auto;padding:28px 20px 56px}
.mono,code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
header{padding:8px 4px 4px}
.eyebrow{margin:0;color:var(--muted);font-size:13px;letter-spacing:.02em}
h1{font-size:31px;line-height:1.2;margin:8px 0 10px;letter-spacing:-.01em}
.winner-name{color:var(--winner);font-size:.92em;overflow-wrap:anywhere}
.versus{font-size:17px;margin:0 0 18px;color:#333a47}
.delta{font-weight:700;font-variant-numeric:tabular-nums}.delta.up{color:#13803d}.delta.down{color:#b42318}
.tiles{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));gap:14px}
.tile{background:#fff;border:1px solid var(--line);border-top:4px solid var(--c);border-radius:10px;padding:12px 16px 14px}
.tile-who{font-size:12.5px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:var(--c)}
.tile-name{font-size:13px;color:var(--muted);overflow-wrap:anywhere}
.tile-score{font-size:40px;font-weight:700;line-height:1.1;margin:4px 0 6px;font-variant-numeric:tabular-nums}
.meter{height:8px;background:#eceef3;border-radius:4px;overflow:hidden}.meter span{display:block;height:100%;background:var(--c)}
.tile-sub{font-size:12.5px;color:var(--muted);margin-top:6px}
.found{color:var(--muted);font-size:14px;margin:12px 0 0}
section{background:#fff;border:1px solid var(--line);border-radius:12px;padding:18px 22px 20px;margin:18px 0}
h2{font-size:19px;margin:0 0 4px}
.lede{color:var(--muted);margin:0 0 14px;max-width:80ch}
figure{margin:0}
svg[data-chart]{width:100%;height:auto;display:block}
svg text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;font-size:12px;fill:#3b4250}
svg .grid{stroke:#eceef2}svg .axis{stroke:#9aa1ad}svg .axis-label{fill:var(--muted);font-size:12px}
svg .bar-value{font-weight:700;font-size:13px;fill:var(--ink)}svg .ref{font-size:11.5px;font-weight:600}svg .empty{fill:#9aa1ad;font-size:14px}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:18px}
@media (max-width:760px){.grid2{grid-template-columns:1fr}}
figure.animation{margin-bottom:14px;border:1px solid var(--line);border-radius:8px;overflow:hidden}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{padding:7px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
thead th{font-weight:600;color:var(--muted);font-size:13px;border-bottom:2px solid var(--line);white-space:nowrap}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}.strong{font-weight:700}
.muted{color:var(--muted)}
table[data-table=headline] td:first-child{white-space:nowrap}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:8px}
tr.winner-row td{background:#f3f6fe}
.badge{display:inline-block;font-size:11px;font-weight:700;text-transform:uppercase;letter-spacing:.04em;padding:1px 7px;border-radius:9px;margin-left:4px;vertical-align:1px}
.badge.win{background:var(--winner);color:#fff}.badge.repaired{background:#dff3ea;color:#0c5c3c}.badge.hostile{background:#b42318;color:#fff}.badge.base{background:#e7e9ee;color:#404755}
.seeds{white-space:nowrap}.seed.wide{min-width:0;padding:1px 8px}
.seed{display:inline-block;min-width:36px;text-align:center;font-size:11.5px;font-variant-numeric:tabular-nums;padding:1px 4px;margin:1px 2px 1px 0;border-radius:4px;background:#f2f3f6;color:#1b1f29}
.seed.failed{background:#fde8e6;color:#8f1d12}
.cand{width:42%}td.outcome{min-width:200px}.cand .name{font-weight:600;overflow-wrap:anywhere}.idea{color:var(--muted);font-size:13px;margin-top:2px;overflow-wrap:anywhere}
tr.gen-row th{background:#f6f7fa;color:var(--ink);font-size:13px;font-weight:600;padding:9px 10px;border-top:1px solid var(--line)}
tr.hostile-row td{background:#fff8f7}
.pill{display:inline-block;font-size:12px;font-weight:600;padding:0 8px;border-radius:9px;background:#e3f4e8;color:#14632f}
.pill.timeout{background:#fff1d6;color:#7a4b00}.pill.memory{background:#efe6fb;color:#5b2b99}.pill.error{background:#fde8e6;color:#8f1d12}.pill.check{font-weight:700}
.interim{background:#fff8e1;border:1px solid #f0d58a;border-radius:8px;padding:10px 14px}.stopped{background:#fde8e6;border-radius:8px;padding:8px 12px}
ul.feedback{margin:6px 0 0 18px;padding:0}ul.feedback q{font-style:italic}
.reason{font-size:12.5px;color:var(--muted);margin-top:3px;max-width:32ch;overflow-wrap:anywhere}
.screen{font-size:12.5px;color:var(--muted);margin-top:3px;max-width:32ch;overflow-wrap:anywhere}
.screen.fails{color:#b3261e}
.scroll{overflow-x:auto}
.hbar{display:inline-block;width:120px;height:8px;background:#eceef3;border-radius:4px;overflow:hidden;vertical-align:middle}
.hbar span{display:block;height:100%;background:var(--winner)}
svg.spark{display:block}
pre{background:#f6f8fb;border:1px solid var(--line);border-radius:8px;padding:14px 16px;white-space:pre-wrap;overflow-wrap:anywhere;font-size:13px;line-height:1.5;margin:0}
table.kv th{width:52%;color:var(--muted);font-weight:500}table.kv td{font-variant-numeric:tabular-nums}
section.run{background:none;border:none;padding:0;align-items:start}section.run>div{background:#fff;border:1px solid var(--line);border-radius:12px;padding:18px 22px}
footer{color:var(--muted);font-size:12.5px;text-align:center;margin-top:28px}
`;
