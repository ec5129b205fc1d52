import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { configSchema, readJsonFile } from '../config.js';
import { parseJsonValue } from '../contract/json.js';
import type { CorpusEntry } from '../shadow/corpus.js';
import { NoiseRules } from '../shadow/noise.js';
import { replayEntry, unexplained, type ReplayDifference } from '../shadow/replay.js';
import { createTranslator, type Translator } from '../translate/index.js';
import { UsageError } from './util.js';

export const REPLAY_USAGE = `paybridge replay [--config FILE] [--json] CORPUS...
  Runs each exchange of a replay corpus (shadow.corpus: recorded translated exchanges, secrets as
  placeholders) through the translator of this build, offline: the current requests it would send now
  against the recorded ones, and the legacy answer it would give now for the recorded current answers
  against the recorded one. Prints per route the exchanges replayed and every difference (where, the
  JSON path, recorded -> now). --config reads the ignore rules (shadow.ignore) of a gateway config file.
  The build that wrote a corpus replays it with no difference: a CI step can gate a mapping change on it.
  Exit codes: 0 no difference the ignore rules do not allow; 3 a difference (each named above: route,
  where, path); 1 a file or line that is not a corpus entry; 2 a usage error.`;

/** The exit code of a replay that found a difference (as report's gate; 1 and 2 are the program's). */
const CHANGED_EXIT = 3;

export interface ReplayRoute {
  route: string;
  replayed: number;
  changed: number;
  differences: (ReplayDifference & { time: string })[];
}

/** Every entry of the files replayed with `translator`: per route, what would change. */
export async function replayCorpus(
  files: readonly string[],
  translator: Translator,
  ignore: readonly { route: string; path: string }[] = [],
): Promise<{ routes: ReplayRoute[]; bad: number }> {
  const byRoute = new Map<string, ReplayRoute>();
  const rules = new NoiseRules(ignore);
  let bad = 0;
  for (const file of files) {
    let n = 0;
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      n++;
      if (line.trim() === '') continue;
      let entry: CorpusEntry;
      try {
        entry = parseJsonValue(line) as CorpusEntry;
      } catch {
        process.stderr.write(`${file}:${n}: not JSON\n`);
        bad++;
        continue;
      }
      if (entry?.type !== 'exchange' || !entry.legacy || !Array.isArray(entry.current)) {
        process.stderr.write(`${file}:${n}: not a corpus entry\n`);
        bad++;
        continue;
      }
      const summary = byRoute.get(entry.route) ?? { route: entry.route, replayed: 0, changed: 0, differences: [] };
      byRoute.set(entry.route, summary);
      summary.replayed++;
      const differences = unexplained(entry.route, await replayEntry(translator, entry), rules);
      if (differences.length > 0) summary.changed++;
      for (const d of differences) summary.differences.push({ ...d, time: entry.time });
    }
  }
  const order = (route: string) => Number(route.replace(/\D/g, '')) || Number.MAX_SAFE_INTEGER;
  return { routes: [...byRoute.values()].sort((a, b) => order(a.route) - order(b.route)), bad };
}

const show = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v));

export async function runReplay(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { config: { type: 'string' }, json: { type: 'boolean', default: false } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0) throw new UsageError('name at least one corpus file');
  const ignore = values.config ? configSchema.parse(readJsonFile('--config', values.config)).shadow.ignore : [];
  const { routes, bad } = await replayCorpus(positionals, createTranslator(), ignore);
  if (values.json) process.stdout.write(`${JSON.stringify({ routes }, null, 2)}\n`);
  else {
    const lines = [
      `replay: ${routes.reduce((n, r) => n + r.replayed, 0)} exchanges, ${routes.reduce((n, r) => n + r.changed, 0)} would change`,
      '',
    ];
    for (const r of routes) {
      lines.push(
        `${r.route.padEnd(4)} ${String(r.replayed).padStart(6)} replayed  ${String(r.changed).padStart(6)} would change`,
      );
      for (const d of r.differences.slice(0, 20))
        lines.push(`     ${d.at} ${d.path}: ${show(d.primary)} -> ${show(d.candidate)}`);
      if (r.differences.length > 20) lines.push(`     ... and ${r.differences.length - 20} more`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  if (bad > 0) throw new Error(`replay: ${bad} line(s) were not corpus entries (named above)`);
  if (routes.some((r) => r.changed > 0)) process.exitCode = CHANGED_EXIT;
}
