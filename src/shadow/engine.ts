/**
 * Shadow and canary comparisons, off the hot path. The client has its answer before a job is queued;
 * a full queue drops the comparison (counted), never the request. A read is made again through the
 * other generation and the answers compared; a write is compared as writes.ts says, never sent to the
 * other generation unless the route's write safety is `send` and the candidate is an isolated sandbox.
 * Every comparison leaves a record (records.ts) that the ledger reads into the report.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Config } from '../config.js';
import { PaybridgeError } from '../errors.js';
import { isoTime } from '../observability/clock.js';
import type { Metrics } from '../observability/metrics.js';
import type { TranslatedRequest } from '../translate/index.js';
import { compareAnswers, type Difference } from './diff.js';
import { asLegacyRequest, parsed, succeeded, type Answer, type Exchange, type QueuedExchange } from './exchange.js';
import { createIsolation } from './isolation.js';
import { parseRecordLine, ShadowLedger, type CompareMethod, type ShadowRecord } from './ledger.js';
import { builtinNoise } from './noise.js';
import { createComparisonQueue } from './queue.js';
import { createRecorder } from './recorder.js';
import { comparisonRecord, noiseRecord, skippedRecord, withHeaders } from './records.js';
import { createSides, type SidesDeps } from './sides.js';
import { createWriteComparisons } from './writes.js';

export interface ShadowDeps extends SidesDeps {
  config: Config;
  metrics: Metrics;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export function createShadow(deps: ShadowDeps) {
  const { config, translator, metrics } = deps;
  const settings = config.shadow;
  const instance = settings.instance ?? `${hostname()}:${process.pid}`;
  const ledger = new ShadowLedger({ readyAfter: settings.readyAfter, ignore: settings.ignore });
  const recorder = createRecorder({
    ...(settings.log ? { file: settings.log } : {}),
    log: (record) => deps.log.info({ shadowRecord: record }, `shadow ${record.type}`),
  });
  const compared = metrics.counter('paybridge_shadow_comparisons_total', 'Shadow/canary comparisons, by route id and outcome (match, mismatch): readiness across replicas in PromQL.', ['route', 'outcome']);
  const skipped = metrics.counter('paybridge_shadow_skipped_total', 'Sampled exchanges not compared, by route id and reason.', ['route', 'reason']);
  // every route's series from the start, at 0: a mismatch series first seen at 1 would have increase() 0
  for (const route of new Set(translator.routes.mappings.map((m) => m.mapping.route)))
    for (const outcome of ['match', 'mismatch', 'validated']) compared.inc({ route, outcome }, 0);
  // the records are the state: a restarted gateway reads its own back, and reports the same verdicts
  if (settings.log) for (const record of readRecords(settings.log)) ledger.ingest(record);

  const sides = createSides(deps);
  const isolation = createIsolation({ sides, gauge: (name, help, read) => metrics.gauge(name, help, read), log: deps.log });

  /** The primary re-reads made per route, for noise learning (at most settings.learnReads each). */
  const reReads = new Map<string, number>();
  const mayReRead = (route: string): boolean => {
    const made = reReads.get(route) ?? 0;
    if (made >= settings.learnReads || Math.random() >= settings.learnSample) return false;
    reReads.set(route, made + 1);
    return true;
  };

  /** Past close(), a comparison still running finds its record already written (skipped at shutdown). */
  let closed = false;

  function emit(record: ShadowRecord): void {
    if (closed) return;
    // not `{ ...record, instance }`: on Node 20 a key added to a spread copy builds a map of its own
    const stamped = Object.assign({}, record);
    stamped.instance = instance;
    recorder.write(stamped);
    ledger.ingest(stamped);
  }

  function comparison(ex: Exchange, method: CompareMethod, primary: Answer, candidate: Answer | null, differences: Difference[], note?: string) {
    const record = comparisonRecord(ex, method, primary, candidate, differences, note);
    const matched = ledger.matches(record);
    emit(matched ? record : withHeaders(record, ex));
    // a validation is no evidence of answers matching: counted apart, so Prometheus's verdict is the report's
    compared.inc({ route: ex.route, outcome: !matched ? 'mismatch' : method === 'validate' ? 'validated' : 'match' });
  }

  function skip(ex: Pick<Exchange, 'route' | 'requestId'>, reason: string): void {
    emit(skippedRecord(ex, reason));
    skipped.inc({ route: ex.route, reason });
  }

  const writes = createWriteComparisons({ settings, translator, callCurrent: deps.callCurrent, sides, isolation, comparison, skip });

  async function compareRead(ex: Exchange, current: TranslatedRequest | undefined): Promise<void> {
    const request = asLegacyRequest(ex, 'candidate');
    const candidate = ex.mode === 'shadow' ? await sides.translated(request, current) : await sides.legacy(request);
    comparison(ex, 'compare', ex.primary, candidate, compareAnswers(ex.primary, candidate));
    if (mayReRead(ex.route)) {
      const again = await sides.primary(ex)(asLegacyRequest(ex, 'noise'));
      const differences = compareAnswers(ex.primary, again).filter((d) => builtinNoise(d) === null);
      const time = isoTime();
      for (const noise of ledger.noise.learn(ex.route, differences, ex.requestId, time)) {
        emit(noiseRecord(noise, time));
        deps.log.info({ route: ex.route, path: noise.path }, 'shadow learned a noisy path');
      }
    }
  }

  /** The translator's verdict on the request the primary answered: the current request, or its refusal. */
  async function translation(ex: Exchange): Promise<{ current?: TranslatedRequest; refused?: PaybridgeError }> {
    try {
      // with the candidate's request id: a read's candidate call sends this very translation
      return { current: await translator.toCurrent(asLegacyRequest(ex, 'candidate')) };
    } catch (err) {
      if (err instanceof PaybridgeError) return { refused: err };
      throw err;
    }
  }

  /**
   * Shadow mode asks first whether the gateway could serve the request at all: a request the legacy
   * upstream accepted and the translator refuses (or one the legacy upstream refused as malformed and
   * the translator accepts) is an unexplained mismatch at `$translation`, whatever the route's write safety.
   */
  function translationMismatch(ex: Exchange, verdict: { refused?: PaybridgeError }): Difference | null {
    if (ex.mode !== 'shadow') return null;
    const accepted = succeeded(ex.primary);
    if (verdict.refused && accepted)
      return { path: '$translation', primary: `accepted (${ex.primary.status})`, candidate: `refused: ${verdict.refused.code}: ${verdict.refused.detail}` };
    const error = ex.primary.body as { errorCode?: unknown; detail?: unknown } | undefined;
    if (!verdict.refused && ex.primary.status === 400 && error?.errorCode === 'invalid_request')
      return { path: '$translation', primary: `refused: invalid_request: ${String(error.detail ?? '')}`, candidate: 'accepted' };
    return null;
  }

  async function run(ex: Exchange): Promise<void> {
    const { mapping } = ex.compiled;
    const verdict = await translation(ex);
    const mismatch = translationMismatch(ex, verdict);
    if (mismatch) return comparison(ex, 'translate', ex.primary, null, [mismatch]);
    // a legacy GET whose translation is declared not to be a read (unsafeGet) is a write here too
    const write = (!mapping.legacy.startsWith('GET ') || mapping.unsafeGet !== undefined) && mapping.readOnly !== true;
    if (write) await writes.compareWrite(ex, verdict.current);
    else await compareRead(ex, verdict.current);
  }

  const queue = createComparisonQueue<QueuedExchange>({
    size: settings.queueSize,
    bytes: settings.queueBytes,
    concurrency: settings.concurrency,
    metrics,
    run: (ex) => run(parsed(ex)),
    onError: (err, ex) => {
      deps.log.warn({ err, route: ex.route, requestId: ex.requestId }, 'shadow comparison failed');
      // every sampled exchange leaves a record: one whose comparison could not be made says why
      skip(ex, `comparison failed: ${err instanceof PaybridgeError ? err.code : 'internal_error'}`);
    },
    onDrop: () => ledger.dropped++,
  });

  return {
    ledger,
    /**
     * A sampled exchange whose primary failed (the upstream 502/504, or refused before it was sent):
     * recorded as such and counted, so a route never reads as matching while clients got errors.
     */
    primaryFailed(route: string, requestId: string, error: PaybridgeError): void {
      skip({ route, requestId }, `primary failed: ${error.code} (${error.status})`);
    },
    /** This gateway's name in its records (shadow.instance, or host and pid). */
    instance,
    /**
     * Whether a sampled shadow exchange will find room in the queue; when not, the drop is counted
     * now and the exchange is served as a plain passthrough (its answer need not be kept).
     */
    admit: queue.admit,
    /** Queues a comparison; false (and counted) when the queue is full. Never waits. */
    enqueue: queue.enqueue,
    /** Resolves once every queued comparison has run and its record is written. */
    async idle(): Promise<void> {
      await queue.idle();
      await recorder.flush();
    },
    /**
     * Runs the queued comparisons until `deadline` (epoch ms; default: all of them), then records each
     * one not finished by then as skipped (`shutdown`, counted), and closes the record file with every
     * record in it. Resolves with how many were cut short.
     */
    async close(deadline = Number.POSITIVE_INFINITY): Promise<number> {
      const unfinished = Number.isFinite(deadline) ? await queue.settle(deadline) : (await queue.idle(), []);
      for (const ex of unfinished) skip(ex, 'shutdown: not compared before the gateway stopped');
      closed = true;
      await recorder.close();
      return unfinished.length;
    },
  };
}

export type Shadow = ReturnType<typeof createShadow>;

/** The most a restarted gateway reads back of its record file (its end: the latest records). */
const READ_BACK_BYTES = 64 * 1024 * 1024;

/** The records of a gateway's own record file (its last READ_BACK_BYTES only), for the ledger after a restart. */
function readRecords(file: string): ShadowRecord[] {
  if (!existsSync(file)) return [];
  const size = statSync(file).size;
  const from = Math.max(0, size - READ_BACK_BYTES);
  const tail = Buffer.alloc(size - from);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, tail, 0, tail.length, from);
  } finally {
    closeSync(fd);
  }
  const lines = tail.toString('utf8').split('\n');
  // a read that starts mid-file starts mid-line: that first piece is no record
  if (from > 0) lines.shift();
  // a line cut by a crash mid-write is not a record either: passed over
  return lines.flatMap((line) => (line.trim() === '' ? [] : (parseRecordLine(line).record ?? [])));
}
