import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { configSchema, readJsonFile } from '../config.js';
import { parseRecordLine, ShadowLedger, type ShadowRecord, type ShadowReport } from '../shadow/ledger.js';
import { UsageError } from './util.js';

export const REPORT_USAGE = `paybridge report [--ready-after N] [--config FILE] [--json] [--fail-on WHEN] [--find ID] FILE...
  Merges the shadow records (JSON lines) of any number of gateway instances and prints per route:
  comparisons, match rate, top differing paths with an example, latency of each side, and a verdict
  over the window (shadow.readyWindow, 1h) up to the route's newest comparison, whatever path kind
  (status class, error code) a comparison was on: MISMATCH (a difference there that no noise rule and
  no operator's acceptance explains), READY (at least N comparisons of answers there, none
  unexplained), COLLECTING (fewer, none unexplained) or VALIDATED (writes whose translations were only
  validated against the current API's schema, no answer compared: never ready); the verdict the live
  page and the Prometheus rules (paybridge rules) give. --config reads the ignore rules, readyAfter and
  readyWindow of a gateway config file. --find ID prints the comparisons whose gateway request id or
  upstream tracer is ID.
  --fail-on WHEN  mismatch (default): exit 3 when a route's verdict is MISMATCH; not-ready: exit 3
                  unless every route is READY; never: exit 0 whatever the verdicts.
  Exit codes: 0 the verdicts pass --fail-on; 3 they do not (the report is printed either way); 1 a
  file or line that is not shadow records (named on stderr), or --find matched nothing; 2 a usage error.`;

/** The report's own exit code when the verdicts do not pass --fail-on (1 and 2 are the program's). */
const VERDICT_EXIT = 3;
const FAIL_ON = ['mismatch', 'not-ready', 'never'] as const;

/**
 * The records of JSON-lines files, and how many lines were not records: each such line (and a file
 * that holds no record at all) is named on stderr, and the command then exits 1.
 */
async function readRecords(files: string[]): Promise<{ records: ShadowRecord[]; bad: number }> {
  const records: ShadowRecord[] = [];
  let bad = 0;
  for (const file of files) {
    const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
    let n = 0;
    let found = 0;
    for await (const line of lines) {
      n++;
      if (line.trim() === '') continue;
      const { record, why } = parseRecordLine(line);
      if (record) {
        records.push(record);
        found++;
      } else {
        process.stderr.write(`${file}:${n}: ${why}\n`);
        bad++;
      }
    }
    if (found === 0) {
      process.stderr.write(`${file}: no shadow records\n`);
      bad++;
    }
  }
  return { records: records.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0)), bad };
}

/** Whether a report's verdicts pass the gate: no route MISMATCH, or (not-ready) every route READY. */
function passes(report: ShadowReport, failOn: (typeof FAIL_ON)[number]): boolean {
  if (failOn === 'never') return true;
  if (failOn === 'mismatch') return report.routes.every((r) => r.state !== 'mismatch');
  return report.routes.length > 0 && report.routes.every((r) => r.state === 'ready');
}

const pct = (x: number) => `${(Math.round(x * 1000) / 10).toFixed(1)}%`;
const show = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v));

export function formatReport(report: ShadowReport): string {
  const lines = [
    `shadow report: ${report.totals.compared} comparisons, ${report.totals.matched} matching, ${report.totals.skipped} skipped; ready after ${report.readyAfter} within ${report.readyWindow}`,
    '',
  ];
  for (const r of report.routes) {
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const latency =
      `primary p50 ${ms(r.latencyMs.primary.p50)} p99 ${ms(r.latencyMs.primary.p99)}` +
      (r.latencyMs.candidate
        ? `, candidate p50 ${ms(r.latencyMs.candidate.p50)} p99 ${ms(r.latencyMs.candidate.p99)}`
        : '');
    const methods = Object.entries(r.methods)
      .map(([m, n]) => `${m} ${n}`)
      .join(', ');
    lines.push(
      `${r.route.padEnd(4)} ${r.state.toUpperCase().padEnd(10)} ${String(r.compared).padStart(6)} compared  ${pct(r.matchRate).padStart(6)} match  ${r.verdict}`,
    );
    lines.push(`     ${methods}; ${latency}`);
    const kinds = Object.entries(r.window?.kinds ?? {});
    if (kinds.length > 0)
      lines.push(
        `     window ${r.window.from} to ${r.window.to}: ${kinds.map(([kind, k]) => `${kind} ${k.compared}${k.unexplained ? ` (${k.unexplained} unexplained at ${k.paths.join(', ')})` : ''}`).join(', ')}`,
      );
    for (const a of r.accepted ?? [])
      lines.push(
        `     accepted ${a.path}: ${show(a.primary)} -> ${show(a.candidate)} by ${a.by} at ${a.time} on ${a.instance ?? 'this gateway'}${a.note ? ` (${a.note})` : ''}`,
      );
    for (const d of r.topDiffs)
      lines.push(
        `     differs at ${d.path} (${d.count}x), e.g. ${d.example.requestId}: ${show(d.example.primary)} -> ${show(d.example.candidate)}`,
      );
    for (const n of r.learnedNoise)
      lines.push(
        `     noise ${n.path} (learned from ${n.evidence.requestId}: ${show(n.evidence.first)} then ${show(n.evidence.second)})`,
      );
    for (const [reason, n] of Object.entries(r.skipped)) lines.push(`     skipped ${n}: ${reason}`);
    const by = (groups: Record<string, { compared: number; state: string }>) =>
      Object.entries(groups)
        .map(([k, g]) => `${k} ${g.state.toUpperCase()} ${g.compared}`)
        .join(', ');
    if (Object.keys(r.byMerchant ?? {}).length > 0) lines.push(`     by merchant: ${by(r.byMerchant)}`);
    if (Object.keys(r.byClient ?? {}).length > 0) lines.push(`     by client: ${by(r.byClient)}`);
    if (r.canary)
      lines.push(
        `     canary ${r.canary.percent}% configured: ${pct(r.canary.served)} served by the translation (${r.canary.translation} of ${r.canary.translation + r.canary.legacy} requests)`,
      );
    if (Object.keys(r.instances ?? {}).length > 1)
      lines.push(
        `     replicas: ${Object.entries(r.instances)
          .map(([name, modes]) => `${name} (${modes.join(', ')})`)
          .join(', ')}`,
      );
  }
  return lines.join('\n');
}

export async function runReport(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      'ready-after': { type: 'string' },
      config: { type: 'string' },
      json: { type: 'boolean', default: false },
      find: { type: 'string' },
      'fail-on': { type: 'string', default: 'mismatch' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0) throw new UsageError('name at least one shadow record file');
  const failOn = values['fail-on'] as (typeof FAIL_ON)[number];
  if (!FAIL_ON.includes(failOn))
    throw new UsageError(`--fail-on: expected one of ${FAIL_ON.join(', ')}, got ${JSON.stringify(values['fail-on'])}`);
  const shadow = values.config
    ? configSchema.parse(readJsonFile('--config', values.config)).shadow
    : configSchema.parse({}).shadow;
  const readyAfter = values['ready-after'] !== undefined ? Number(values['ready-after']) : shadow.readyAfter;
  if (!Number.isInteger(readyAfter) || readyAfter < 1) throw new Error('--ready-after: expected a positive integer');
  // the report of files keeps every comparison: its top paths count them all
  const ledger = new ShadowLedger({
    readyAfter,
    readyWindow: shadow.readyWindow,
    ignore: shadow.ignore,
    keepPerRoute: Number.POSITIVE_INFINITY,
  });
  const { records, bad } = await readRecords(positionals);
  for (const record of records) ledger.ingest(record);
  if (values.find !== undefined) {
    const found = ledger.find(values.find);
    if (found.length === 0) {
      if (values.json) process.stdout.write('[]\n');
      throw new Error(`report: no comparison with request id or tracer ${values.find}`);
    }
    process.stdout.write(
      values.json
        ? `${JSON.stringify(found, null, 2)}\n`
        : `${found.map((c) => `${c.time} ${c.route} ${c.requestId} ${c.method}: ${c.differences.length} differences ${JSON.stringify(c.differences)}`).join('\n')}\n`,
    );
    if (bad > 0) throw new Error(`report: ${bad} line(s) or file(s) were not shadow records (named above)`);
    return;
  }
  const report = ledger.report();
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
  if (bad > 0)
    throw new Error(
      `report: ${bad} line(s) or file(s) were not shadow records (named above); the report leaves them out`,
    );
  if (!passes(report, failOn)) {
    const failing = report.routes
      .filter((r) => (failOn === 'mismatch' ? r.state === 'mismatch' : r.state !== 'ready'))
      .map((r) => `${r.route} ${r.state}`);
    process.stderr.write(`paybridge report: --fail-on ${failOn}: ${failing.join(', ') || 'no route compared'}\n`);
    process.exitCode = VERDICT_EXIT;
  }
}
