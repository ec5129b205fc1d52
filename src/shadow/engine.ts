/**
 * Shadow and canary comparisons, off the hot path. The client has its answer before a job is queued;
 * a full queue drops the comparison (counted), never the request. A write is never sent to the
 * other generation unless the route's write safety is `send` and the candidate is an isolated
 * sandbox: otherwise the affected order or transaction is read back through both generations, or the
 * translated request is only validated.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Config } from '../config.js';
import { legacyErrorBody, PaybridgeError } from '../errors.js';
import { isoTime } from '../observability/clock.js';
import type { Metrics } from '../observability/metrics.js';
import { stringAt, type WriteCheck } from '../translate/define.js';
import type { CurrentResponse, LegacyRequest, TranslatedRequest } from '../translate/index.js';
import { compareAnswers, type Difference } from './diff.js';
import { asLegacyRequest, credentialHeaders, credentialValue, parseJson, parsed, succeeded, type Answer, type Exchange, type QueuedExchange } from './exchange.js';
import { createIsolation } from './isolation.js';
import { parseRecordLine, ShadowLedger, type CompareMethod, type ShadowRecord } from './ledger.js';
import { builtinNoise, RESOURCE_IDS, sameKindIds } from './noise.js';
import { LRUCache } from 'lru-cache';
import { createComparisonQueue } from './queue.js';
import { createRecorder } from './recorder.js';
import { comparisonRecord, noiseRecord, skippedRecord, withHeaders } from './records.js';
import { createSides, type SidesDeps } from './sides.js';
import { validateCurrentRequest } from './validate.js';

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

  const safetyOf = (route: string) => settings.writeSafety[route] ?? settings.writeSafety['*'] ?? 'readback';

  /** Send mode: the isolated candidate's ids, by the primary's id each stands for (the creates that minted them). */
  const candidateIds = new LRUCache<string, string>({ max: 10_000 });

  /** The request with every primary id the candidate knows under its own replaced, in the path and the body. */
  function withCandidateIds(request: LegacyRequest): LegacyRequest {
    const swap = (text: string) => text.replace(RESOURCE_IDS, (id) => candidateIds.get(id) ?? id);
    return Object.assign({}, request, { path: swap(request.path), body: typeof request.body === 'string' ? swap(request.body) : request.body });
  }

  /**
   * A send's id differences: an id this exchange minted (absent from its request) pairs with the
   * candidate's, as does an id already paired with that same candidate id; both are then the same
   * resource (noise `id`). Any other id difference stays a mismatch.
   */
  function pairIds(ex: Exchange, differences: Difference[]): void {
    const asked = `${ex.request.path} ${ex.request.body ?? ''}`;
    for (const d of differences) {
      if (!sameKindIds(d.primary, d.candidate)) continue;
      const known = candidateIds.get(d.primary);
      if (known === d.candidate || (known === undefined && !asked.includes(d.primary))) {
        candidateIds.set(d.primary, d.candidate as string);
        d.noise = 'id';
      }
    }
  }

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

  /**
   * A write the legacy upstream served, checked on the store both generations front: the state it
   * left read through the current API, what the translated request asks of that state (the effect),
   * and the answer the mapping gives for it against the answer the client got (ids compared as ids).
   * Nothing is written: one current read at most.
   */
  async function checkWriteOutcome(ex: Exchange, check: WriteCheck, current: TranslatedRequest): Promise<void> {
    const outcome = { params: ex.params, body: parseJson(ex.request.body), answer: ex.primary.body };
    const answerFor = (view: CurrentResponse, before?: unknown): Answer => {
      const context = Object.assign({}, current.context, { preflightAnswer: before });
      const legacy = translator.toLegacy(view, context);
      return { status: legacy.status, body: legacy.body, latencyMs: 0 };
    };
    if (!succeeded(ex.primary)) {
      // the write failed where it was served: the same error through the mapping, as a client would get it after cut-over
      const candidate = answerFor({ status: ex.primary.status, body: ex.primary.body });
      return comparison(ex, 'write', ex.primary, candidate, compareAnswers(ex.primary, candidate), 'the legacy error through the mapping');
    }
    const path = check.state(outcome);
    let state: unknown;
    let latencyMs = 0;
    if (path) {
      const start = performance.now();
      const { 'content-type': _type, ...headers } = current.headers;
      const read = await deps.callCurrent({ method: 'GET', path, headers }, `${ex.requestId}:state`);
      latencyMs = performance.now() - start;
      if (check.removes) {
        // the write removed the resource: the current API must no longer show it
        if (read.status !== 404)
          return comparison(ex, 'write', ex.primary, null, [{ path: '$effect.removed', primary: 'removed by the legacy write', candidate: `GET ${path}: ${read.status}` }], `state ${path}`);
      } else if (read.status >= 300)
        return comparison(ex, 'write', ex.primary, null, [{ path: '$state', primary: 'the write succeeded', candidate: `GET ${path}: ${read.status}` }], `state ${path}`);
      else {
        state = read.body;
        if (check.raced(state as never, outcome)) return skip(ex, 'raced: the state shows a later write of the same resource');
      }
    }
    const view = check.answer(state as never, outcome);
    const candidate = { ...answerFor(view, view.before), latencyMs };
    const differences = compareAnswers(ex.primary, candidate);
    if (state !== undefined)
      for (const m of check.effect((current.context.bodyFields ?? {}) as never, state as never, outcome))
        differences.push({ path: `$effect.${m.field}`, primary: m.found, candidate: m.asked });
    // what a preflight would have added (L27's transfer) before the request is checked against the current schema
    const completion = state !== undefined ? check.completes?.(state as never, outcome) : undefined;
    if (completion && current.context.bodyFields) Object.assign(current.context.bodyFields, completion);
    const problem = validateCurrentRequest(ex.compiled.mapping.current, current);
    if (problem) differences.push({ path: '$validation', candidate: problem });
    return comparison(ex, 'write', ex.primary, candidate, differences, path ? `state ${path}` : 'no current state yet: the answer compared alone');
  }

  async function compareWrite(ex: Exchange, current: TranslatedRequest | undefined): Promise<void> {
    const { mapping } = ex.compiled;
    const safety = safetyOf(ex.route);
    if (ex.mode === 'shadow' && safety === 'readback' && mapping.writeCheck && current) return checkWriteOutcome(ex, mapping.writeCheck, current);
    if (!succeeded(ex.primary)) {
      // The write failed where it was served. It is never repeated; a translation that refuses the
      // same request is still a comparison of the two error answers.
      if (ex.mode === 'canary') return skip(ex, 'primary write failed');
      try {
        await translator.toCurrent(asLegacyRequest(ex, 'validate'));
        return skip(ex, 'primary write failed');
      } catch (err) {
        if (!(err instanceof PaybridgeError)) throw err;
        const candidate = { status: err.status, body: legacyErrorBody(err.code, err.detail, ex.requestId), latencyMs: 0 };
        return comparison(ex, 'validate', ex.primary, candidate, compareAnswers(ex.primary, candidate));
      }
    }
    let note: string | undefined;
    if (safety === 'send') {
      if (!settings.candidateIsolated || !credentialValue(ex.request.headers).startsWith('sandbox_'))
        note = 'send refused: only sandbox_ credentials are sent to an isolated candidate';
      else if ((await isolation.check(ex)) === 'proven') {
        const candidate = await sides.candidate(ex)(withCandidateIds(asLegacyRequest(ex, 'candidate')));
        const differences = compareAnswers(ex.primary, candidate);
        pairIds(ex, differences);
        return comparison(ex, 'send', ex.primary, candidate, differences);
      } else note = isolation.state === 'stopped' ? 'send stopped: the candidate shares the primary\'s store' : 'send waits: the candidate\'s isolation is not proven yet';
    }
    const path =
      safety === 'validate' ? undefined : mapping.readback?.({ params: ex.params, body: parseJson(ex.request.body), answer: ex.primary.body });
    if (path) {
      const read = { method: 'GET', path, headers: credentialHeaders(ex.request.headers) };
      const [primary, candidate] = await Promise.all([
        sides.primary(ex)(asLegacyRequest(ex, 'readback-primary', read)),
        sides.candidate(ex)(asLegacyRequest(ex, 'readback-candidate', read)),
      ]);
      // a read that shows a later write than the one compared (the client's next call) is timing, not a mismatch
      const written = updatedAt(ex.primary.body);
      const seen = [updatedAt(primary.body), updatedAt(candidate.body)];
      if ((written && seen.some((t) => t !== undefined && t > written)) || (seen[0] && seen[1] && seen[0] !== seen[1]))
        return skip(ex, 'raced: the read back shows a later write of the same resource');
      // the write itself is also checked against the current API's request schema, as `validate` does
      const problem = current ? validateCurrentRequest(mapping.current, current) : null;
      const differences = compareAnswers(primary, candidate);
      if (problem) differences.push({ path: '$validation', candidate: problem });
      return comparison(ex, 'readback', primary, candidate, differences, note ?? `read back ${path}`);
    }
    if (ex.mode === 'canary') return skip(ex, 'no readback for this write');
    try {
      const current = await translator.toCurrent(asLegacyRequest(ex, 'validate'));
      const problem = validateCurrentRequest(mapping.current, current);
      return comparison(ex, 'validate', ex.primary, null, problem ? [{ path: '$validation', candidate: problem }] : [], note);
    } catch (err) {
      if (!(err instanceof PaybridgeError)) throw err;
      return comparison(ex, 'validate', ex.primary, null, [{ path: '$translation', candidate: `${err.code}: ${err.detail}` }], note);
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
    const write = !mapping.legacy.startsWith('GET ') && mapping.readOnly !== true;
    if (write) await compareWrite(ex, verdict.current);
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

/** The `updatedAt` of a legacy answer (an order, a transaction, or one wrapped under `order`). */
function updatedAt(body: unknown): string | undefined {
  return stringAt(body, 'updatedAt') ?? stringAt(body, 'order.updatedAt');
}

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
