/** The shadow report as one self-contained HTML page: a table per route, a match-rate bar, the top diffs. */
import { redactValue, scrub } from '../observability/redact.js';
import type { RouteReport, ShadowReport } from './ledger.js';

/** A value as the page shows it: through the one redaction rule set (records are redacted already; a page never trusts that), then escaped. */
const esc = (v: unknown) =>
  String(typeof v === 'string' ? scrub(v) : (JSON.stringify(redactValue(v)) ?? 'absent')).replace(
    /[&<>"']/g,
    (c) => `&#${c.charCodeAt(0)};`,
  );

function bar(rate: number): string {
  const pct = Math.round(rate * 1000) / 10;
  const colour = rate >= 0.999 ? '#2e7d32' : rate >= 0.95 ? '#f9a825' : '#c62828';
  return `<div class="bar" role="img" aria-label="match rate ${pct}%"><div style="width:${pct}%;background:${colour}"></div></div><span>${pct}%</span>`;
}

function diffs(route: RouteReport): string {
  if (route.topDiffs.length === 0) return '<span class="muted">none</span>';
  return `<ul>${route.topDiffs
    .map(
      (d) =>
        `<li><code>${esc(d.path)}</code> &times;${d.count}: ${esc(d.example.primary)} &rarr; ${esc(d.example.candidate)}</li>`,
    )
    .join('')}</ul>`;
}

/** A percentage canary's share: configured, and served by the translation. */
function canary(r: RouteReport): string {
  if (!r.canary) return '';
  const served = Math.round(r.canary.served * 1000) / 10;
  return `<div class="muted canary">canary ${esc(r.canary.percent)}%: ${served}% served by the translation (${r.canary.translation} of ${r.canary.translation + r.canary.legacy})</div>`;
}

function row(r: RouteReport): string {
  const ms = (v: number) => v.toFixed(1);
  const latency =
    `${ms(r.latencyMs.primary.p50)}/${ms(r.latencyMs.primary.p99)}` +
    (r.latencyMs.candidate ? ` vs ${ms(r.latencyMs.candidate.p50)}/${ms(r.latencyMs.candidate.p99)}` : '');
  const kinds = Object.entries(r.window?.kinds ?? {})
    .map(
      ([kind, k]) =>
        `<code>${esc(kind)}</code> ${k.compared}${k.unexplained ? ` <strong>(${k.unexplained} unexplained: ${k.paths.map((p) => esc(p)).join(', ')})</strong>` : ''}`,
    )
    .join(', ');
  const window = kinds
    ? `<div class="muted window">window ${esc(r.window.from)} to ${esc(r.window.to)}: ${kinds}</div>`
    : '';
  const accepted = (r.accepted ?? [])
    .map(
      (a) =>
        `<div class="muted accepted">accepted <code>${esc(a.path)}</code> ${esc(a.primary)} &rarr; ${esc(a.candidate)} by ${esc(a.by)} at ${esc(a.time)} on ${esc(a.instance ?? 'this gateway')}${a.note ? `: ${esc(a.note)}` : ''}</div>`,
    )
    .join('');
  const noise = r.learnedNoise.length
    ? `<div class="muted">learned noise: ${r.learnedNoise.map((n) => `<code>${esc(n.path)}</code>`).join(', ')}</div>`
    : '';
  return `<tr data-route="${esc(r.route)}" data-state="${r.state}" class="state-${r.state}">
<td>${esc(r.route)}</td><td>${esc(r.modes.join(', '))}${canary(r)}</td><td class="num">${r.compared}</td><td class="rate">${bar(r.matchRate)}</td>
<td class="num">${r.unexplained}</td><td class="num">${esc(latency)}</td><td class="verdict">${esc(r.verdict)}</td><td>${diffs(r)}${window}${accepted}${noise}</td></tr>`;
}

export function renderReportHtml(report: ShadowReport): string {
  const { totals } = report;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>paybridge shadow report</title>
<style>
body{font:14px system-ui,sans-serif;margin:24px;color:#222}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ddd;padding:6px 8px;text-align:left;vertical-align:top}
th{background:#f4f4f4}.num{text-align:right}.muted{color:#777}
.bar{display:inline-block;width:120px;height:10px;background:#eee;margin-right:6px;vertical-align:middle}.bar div{height:10px}
tr.state-ready .verdict{color:#2e7d32;font-weight:600}tr.state-collecting .verdict{color:#5f6b7a}tr.state-mismatch .verdict{color:#c62828;font-weight:600}tr.state-validated .verdict{color:#8a6d00}
code{background:#f6f6f6;padding:0 3px}ul{margin:0;padding-left:18px}
</style></head><body>
<h1>paybridge: shadow comparisons</h1>
<p>Generated ${esc(report.generatedAt)}. Over the ${esc(report.readyWindow)} up to a route's newest comparison, whatever path kind (status class, error code) each was on, a route is <span style="color:#2e7d32">ready</span> to cut over with at least ${report.readyAfter} comparisons and none unexplained;
it is <span style="color:#5f6b7a">collecting</span> with fewer, and shows a <span style="color:#c62828">mismatch</span> while one unexplained difference is in the window (until newer comparisons push it out or an operator accepts it); a route whose writes were only <span style="color:#8a6d00">validated</span> (the translation checked, no answer compared) is never ready. Prometheus's paybridge:shadow_route_state gives the same verdict.
Compared ${totals.compared}, matched ${totals.matched}, skipped ${totals.skipped}, dropped (queue full) ${totals.dropped}.</p>
<table id="routes"><thead><tr><th>Route</th><th>Mode</th><th>Compared</th><th>Match rate</th><th>Unexplained</th><th>Latency ms p50/p99 (primary vs candidate)</th><th>Verdict</th><th>Top differing paths</th></tr></thead>
<tbody>
${report.routes.map(row).join('\n') || '<tr><td colspan="8" class="muted">no comparisons yet</td></tr>'}
</tbody></table></body></html>`;
}
