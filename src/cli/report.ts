import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { configSchema, readJsonFile } from '../config.js';
import { ShadowLedger, type ShadowRecord, type ShadowReport } from '../shadow/ledger.js';

export const REPORT_USAGE = `paybridge report [--ready-after N] [--config FILE] [--json] [--find ID] FILE...
  Merges the shadow records (JSON lines) of any number of gateway instances and prints per route:
  comparisons, match rate, top differing paths with an example, latency of each side, and a verdict:
  COLLECTING (fewer than N comparisons, none mismatched), MISMATCH (an unexplained mismatch among the
  last N) or READY (N comparisons, none mismatched among the last N). --config reads the ignore rules
  and readyAfter of a gateway config file. --find ID prints the comparisons whose gateway request id or
  upstream tracer is ID.`;

/** The records of JSON-lines files; a line that is not a record is reported on stderr and skipped. */
async function readRecords(files: string[]): Promise<ShadowRecord[]> {
  const records: ShadowRecord[] = [];
  for (const file of files) {
    const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
    let n = 0;
    for await (const line of lines) {
      n++;
      if (line.trim() === '') continue;
      try {
        const record = JSON.parse(line) as ShadowRecord;
        if (record && typeof record === 'object' && ['comparison', 'noise', 'skipped'].includes(record.type)) records.push(record);
        else process.stderr.write(`${file}:${n}: not a shadow record, skipped\n`);
      } catch {
        process.stderr.write(`${file}:${n}: not JSON, skipped\n`);
      }
    }
  }
  return records.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
}

const pct = (x: number) => `${(Math.round(x * 1000) / 10).toFixed(1)}%`;
const show = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v));

export function formatReport(report: ShadowReport): string {
  const lines = [`shadow report: ${report.totals.compared} comparisons, ${report.totals.matched} matching, ${report.totals.skipped} skipped; ready after ${report.readyAfter}`, ''];
  for (const r of report.routes) {
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const latency = `primary p50 ${ms(r.latencyMs.primary.p50)} p99 ${ms(r.latencyMs.primary.p99)}` + (r.latencyMs.candidate ? `, candidate p50 ${ms(r.latencyMs.candidate.p50)} p99 ${ms(r.latencyMs.candidate.p99)}` : '');
    const methods = Object.entries(r.methods).map(([m, n]) => `${m} ${n}`).join(', ');
    lines.push(`${r.route.padEnd(4)} ${r.state.toUpperCase().padEnd(10)} ${String(r.compared).padStart(6)} compared  ${pct(r.matchRate).padStart(6)} match  ${r.verdict}`);
    lines.push(`     ${methods}; ${latency}`);
    for (const d of r.topDiffs) lines.push(`     differs at ${d.path} (${d.count}x), e.g. ${d.example.requestId}: ${show(d.example.primary)} -> ${show(d.example.candidate)}`);
    for (const n of r.learnedNoise) lines.push(`     noise ${n.path} (learned from ${n.evidence.requestId}: ${show(n.evidence.first)} then ${show(n.evidence.second)})`);
    for (const [reason, n] of Object.entries(r.skipped)) lines.push(`     skipped ${n}: ${reason}`);
  }
  return lines.join('\n');
}

export async function runReport(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { 'ready-after': { type: 'string' }, config: { type: 'string' }, json: { type: 'boolean', default: false }, find: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0) throw new Error('report: name at least one shadow record file');
  const shadow = values.config ? configSchema.parse(readJsonFile('--config', values.config)).shadow : configSchema.parse({}).shadow;
  const readyAfter = values['ready-after'] !== undefined ? Number(values['ready-after']) : shadow.readyAfter;
  if (!Number.isInteger(readyAfter) || readyAfter < 1) throw new Error('--ready-after: expected a positive integer');
  // the report of files keeps every comparison: its top paths count them all
  const ledger = new ShadowLedger({ readyAfter, ignore: shadow.ignore, keepPerRoute: Number.POSITIVE_INFINITY });
  for (const record of await readRecords(positionals)) ledger.ingest(record);
  if (values.find !== undefined) {
    const found = ledger.find(values.find);
    process.stdout.write(values.json ? `${JSON.stringify(found, null, 2)}\n` : `${found.map((c) => `${c.time} ${c.route} ${c.requestId} ${c.method}: ${c.differences.length} differences ${JSON.stringify(c.differences)}`).join('\n') || `no comparison with request id or tracer ${values.find}`}\n`);
    return;
  }
  const report = ledger.report();
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
}
