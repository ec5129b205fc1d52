/**
 * Shadow and canary comparisons, off the hot path. The client has its answer before a job is queued;
 * a full queue drops the comparison (counted), never the request. A read is made again through the
 * other generation and the answers compared; a write is compared as writes.ts says, never sent to the
 * other generation unless the route's write safety is `send` and the candidate is an isolated sandbox.
 * Every comparison leaves a record (records.ts) that the ledger reads into the report.
 */
import { hostname } from 'node:os';
import type { Config } from '../config.js';
import { PaybridgeError } from '../errors.js';
import { isoTime } from '../observability/clock.js';
import type { Metrics } from '../observability/metrics.js';
import { isWriteRoute } from '../translate/define.js';
import type { TranslatedRequest } from '../translate/index.js';
import { compareAnswers, type Difference } from './diff.js';
import { asLegacyRequest, parsed, succeeded, type Answer, type Exchange, type QueuedExchange } from './exchange.js';
import { createIsolation } from './isolation.js';
import { acceptDifference, exportReadiness } from './acceptance.js';
import { ShadowLedger, type CompareMethod, type ServedRecord, type ShadowRecord } from './ledger.js';
import { builtinNoise } from './noise.js';
import { createComparisonQueue } from './queue.js';
import { durationMs, readBack } from './read-back.js';
import { createRecorder } from './recorder.js';
import { comparisonRecord, noiseRecord, skippedRecord, withHeaders } from './records.js';
import { createSides, type SidesDeps } from './sides.js';
import { WriteOrder } from './write-order.js';
import { createWriteComparisons } from './writes.js';

export interface ShadowDeps extends SidesDeps {
  config: Config;
  metrics: Metrics;
  log: {
    warn(obj: object, msg: string): void;
    info(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

export function createShadow(deps: ShadowDeps) {
  const { config, translator, metrics } = deps;
  const settings = config.shadow;
  const instance = settings.instance ?? `${hostname()}:${process.pid}`;
  const ledger = new ShadowLedger({
    readyAfter: settings.readyAfter,
    readyWindow: settings.readyWindow,
    ignore: settings.ignore,
    instance,
  });
  const recorder = createRecorder({
    ...(settings.log ? { file: settings.log } : {}),
    log: (record) => deps.log.info({ shadowRecord: record }, `shadow ${record.type}`),
    onError: (err) =>
      deps.log.warn(
        { err: { message: err.message } },
        'shadow records: rotating the record file failed; writing on in the current one',
      ),
  });
  const compared = metrics.counter(
    'paybridge_shadow_comparisons_total',
    'Shadow/canary comparisons, by route id and outcome (match, mismatch): readiness across replicas in PromQL.',
    ['route', 'outcome'],
  );
  const skipped = metrics.counter(
    'paybridge_shadow_skipped_total',
    'Sampled exchanges not compared, by route id and reason.',
    ['route', 'reason'],
  );
  // every route's series from the start, at 0: a mismatch series first seen at 1 would have increase() 0
  for (const route of new Set(translator.routes.mappings.map((m) => m.mapping.route)))
    for (const outcome of ['match', 'mismatch', 'validated']) compared.inc({ route, outcome }, 0);
  const readiness = exportReadiness(ledger, metrics, new Set(translator.routes.mappings.map((m) => m.mapping.route)));
  // the records are the state: a restarted gateway reads back those of the verdict window, and reports the same verdicts
  if (settings.log) {
    const since = isoTime(Date.now() - durationMs(settings.readyWindow));
    const read = readBack(
      { file: settings.log.file, keep: settings.log.keep, since, perRoute: ledger.keep },
      (record) => ledger.ingest(record),
    );
    if (read.files > 0) deps.log.info({ file: settings.log.file, since, ...read }, 'shadow records read back');
  }

  const sides = createSides(deps);
  const isolation = createIsolation({
    sides,
    gauge: (name, help, read) => metrics.gauge(name, help, read),
    log: deps.log,
  });

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

  function comparison(
    ex: Exchange,
    method: CompareMethod,
    primary: Answer,
    candidate: Answer | null,
    differences: Difference[],
    note?: string,
    notComparable?: string[],
  ) {
    const record = comparisonRecord(ex, method, primary, candidate, differences, note, notComparable);
    const matched = ledger.matches(record);
    emit(matched ? record : withHeaders(record, ex));
    // a validation is no evidence of answers matching: counted apart, so Prometheus's verdict is the report's
    compared.inc({ route: ex.route, outcome: !matched ? 'mismatch' : method === 'validate' ? 'validated' : 'match' });
  }

  function skip(ex: Pick<Exchange, 'route' | 'requestId'>, reason: string): void {
    emit(skippedRecord(ex, reason));
    skipped.inc({ route: ex.route, reason });
  }

  // a percentage canary's requests by the side that answered: counted for Prometheus at once, and
  // written as a record every few seconds (and before a report), so the report gives the share served
  const canaryServed = metrics.counter(
    'paybridge_canary_requests_total',
    'Requests of percentage-canary routes (canary:N%), by route id and the side that answered them (translation, legacy).',
    ['route', 'served'],
  );
  // from the start at 0, as the comparisons: a series first scraped at 16 would show Prometheus no increase, and the share 0/0
  for (const route of new Set(translator.routes.mappings.map((m) => m.mapping.route)))
    for (const served of ['translation', 'legacy']) canaryServed.inc({ route, served }, 0);
  const servedSince = new Map<string, Pick<ServedRecord, 'percent' | 'translation' | 'legacy'>>();
  function flushServed(): void {
    const time = isoTime();
    for (const [route, counts] of servedSince) emit({ type: 'served', time, route, ...counts });
    servedSince.clear();
  }
  const servedTimer = setInterval(flushServed, SERVED_FLUSH_MS).unref();

  const writeOrder = new WriteOrder();
  const writes = createWriteComparisons({
    settings,
    translator,
    callCurrent: deps.callCurrent,
    sides,
    isolation,
    comparison,
    skip,
    order: writeOrder,
  });

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
      return {
        path: '$translation',
        primary: `accepted (${ex.primary.status})`,
        candidate: `refused: ${verdict.refused.code}: ${verdict.refused.detail}`,
      };
    const error = ex.primary.body as { errorCode?: unknown; detail?: unknown } | undefined;
    if (!verdict.refused && ex.primary.status === 400 && error?.errorCode === 'invalid_request')
      return {
        path: '$translation',
        primary: `refused: invalid_request: ${typeof error.detail === 'string' ? error.detail : JSON.stringify(error.detail ?? '')}`,
        candidate: 'accepted',
      };
    return null;
  }

  async function run(ex: Exchange): Promise<void> {
    const { mapping } = ex.compiled;
    const verdict = await translation(ex);
    const mismatch = translationMismatch(ex, verdict);
    if (mismatch) return comparison(ex, 'translate', ex.primary, null, [mismatch]);
    if (isWriteRoute(mapping)) await writes.compareWrite(ex, verdict.current);
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
    /** The report of this gateway's comparisons, the canary shares served until now included. */
    report() {
      flushServed();
      return ledger.report();
    },
    /** A percentage canary's request answered by `side` (the route configured to `percent`). */
    served(route: string, side: 'translation' | 'legacy', percent: number): void {
      canaryServed.inc({ route, served: side });
      let counts = servedSince.get(route);
      if (!counts) servedSince.set(route, (counts = { percent, translation: 0, legacy: 0 }));
      counts.percent = percent;
      counts[side]++;
    },
    /**
     * A sampled exchange whose primary failed (the upstream 502/504, or refused before it was sent):
     * recorded as such and counted, so a route never reads as matching while clients got errors.
     */
    primaryFailed(route: string, requestId: string, error: PaybridgeError): void {
      skip({ route, requestId }, `primary failed: ${error.code} (${error.status})`);
    },
    /** This gateway's name in its records (shadow.instance, or host and pid). */
    instance,
    /** An operator's acceptance of one difference (route, path, both values), recorded and applied to this replica's comparisons. */
    accept: acceptDifference({ ledger, emit, counted: readiness.accepted, log: deps.log }),
    /** The order of the shadowed writes the gateway forwarded, per resource: a write's comparison tells a race by it. */
    writes: writeOrder,
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
      clearInterval(servedTimer);
      flushServed();
      closed = true;
      await recorder.close();
      return unfinished.length;
    },
  };
}

export type Shadow = ReturnType<typeof createShadow>;

/** How often a percentage canary's served counts are written as a record. */
const SERVED_FLUSH_MS = 10_000;
