/**
 * Shadow and canary comparisons, off the hot path. The client has its answer before a job is queued;
 * a full queue drops the comparison (counted), never the request. A write is never sent to the
 * other generation unless the route's write safety is `send` and the candidate is an isolated
 * sandbox: otherwise the affected order or transaction is read back through both generations, or the
 * translated request is only validated.
 */
import { hostname } from 'node:os';
import type { Config } from '../config.js';
import { parseJsonBody } from '../contract/json.js';
import { legacyErrorBody, PaybridgeError } from '../errors.js';
import type { Metrics } from '../observability/metrics.js';
import { redactAt, redactValue, scrub } from '../observability/redact.js';
import type { CurrentRequest, CurrentResponse, LegacyRequest, TranslatedRequest, Translator } from '../translate/index.js';
import { answerBody } from '../translate/answers.js';
import type { CompiledMapping } from '../translate/router.js';
import { LEGACY_CREDENTIAL_HEADERS } from '../translate/credentials.js';
import { compareAnswers, type Difference } from './diff.js';
import { ShadowLedger, type CompareMethod, type ComparisonRecord, type ShadowRecord } from './ledger.js';
import { builtinNoise } from './noise.js';
import { createComparisonQueue } from './queue.js';
import { createRecorder } from './recorder.js';
import { validateCurrentRequest } from './validate.js';

export interface Answer {
  status: number;
  body: unknown;
  latencyMs: number;
}

/** One served exchange, handed over after the client got its answer. */
export interface Exchange {
  mode: 'shadow' | 'canary';
  route: string;
  requestId: string;
  compiled: CompiledMapping;
  params: Record<string, string>;
  /** The legacy request as received (header names in lower case, body as text). */
  request: { method: string; path: string; headers: Record<string, string | string[]>; body?: string };
  /** What the client got: from the legacy upstream (shadow) or the translated current call (canary). */
  primary: Answer;
  /** Size of the bodies the exchange holds (request and answer), for the queue's byte bound. */
  bytes: number;
}

/** A legacy answer as it came: parsed only when its comparison runs (a dropped one never is). */
export interface RawAnswer {
  status: number;
  text: string;
  contentType: unknown;
  latencyMs: number;
}

/** An exchange as queued: a shadow primary's body may still be text. */
export type QueuedExchange = Omit<Exchange, 'primary'> & { primary: Answer | RawAnswer };

const parsed = (ex: QueuedExchange): Exchange =>
  'text' in ex.primary
    ? { ...ex, primary: { status: ex.primary.status, body: answerBody(ex.primary.text, ex.primary.contentType), latencyMs: ex.primary.latencyMs } }
    : (ex as Exchange);

export interface ShadowDeps {
  config: Config;
  translator: Translator;
  metrics: Metrics;
  /** One current call (translated request) to the upstream of its credential's environment. */
  callCurrent: (current: CurrentRequest, requestId: string) => Promise<CurrentResponse>;
  /** One legacy call, unchanged, to the legacy upstream of its credential's environment. */
  callLegacy: (request: LegacyRequest) => Promise<CurrentResponse>;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** A write that went through: 2xx, or the legacy 403 of a 3DS challenge (the first step of a pay). */
function succeeded(answer: Answer): boolean {
  if (answer.status < 300) return true;
  const body = answer.body as { paymentActionRequired?: unknown } | undefined;
  return answer.status === 403 && typeof body === 'object' && body !== null && body.paymentActionRequired !== undefined;
}

/** The tracer an upstream put in its error answer: the id a customer quotes. */
function tracerOf(side: 'primary' | 'candidate', answer: Answer | null): Record<string, string> {
  const tracer = (answer?.body as { tracer?: unknown } | undefined)?.tracer;
  return typeof tracer === 'string' ? { [side]: tracer } : {};
}

const now = () => performance.now();
const elapsed = (start: number) => Math.round((performance.now() - start) * 10) / 10;

/** A request body as JSON for records and readbacks; as text when it is not JSON (or too deep). */
function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return parseJsonBody(text);
  } catch {
    return text;
  }
}

/** The legacy credential header of a request, alone: what a readback sends. */
function credentialHeaders(headers: Record<string, string | string[]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = { accept: 'application/json' };
  for (const name of LEGACY_CREDENTIAL_HEADERS.keys()) if (headers[name] !== undefined) out[name] = headers[name]!;
  return out;
}

function credentialValue(headers: Record<string, string | string[]>): string {
  for (const name of LEGACY_CREDENTIAL_HEADERS.keys()) {
    const v = headers[name];
    if (typeof v === 'string') return v;
  }
  return '';
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

  let sendState: 'unproven' | 'proven' | 'stopped' = 'unproven';
  let sendStopped = 0;
  metrics.gauge('paybridge_shadow_send_stopped', 'Whether shadow send stopped for good because the candidate was found sharing the primary\'s store (1) or not (0).', () => sendStopped);

  const safetyOf = (route: string) => settings.writeSafety[route] ?? settings.writeSafety['*'] ?? 'readback';

  function emit(record: ShadowRecord): void {
    const stamped = { ...record, instance };
    recorder.write(stamped);
    ledger.ingest(stamped);
  }

  function comparison(ex: Exchange, method: CompareMethod, primary: Answer, candidate: Answer | null, differences: Difference[], note?: string) {
    const tracers = { ...tracerOf('primary', primary), ...tracerOf('candidate', candidate) };
    const record: ComparisonRecord = {
      type: 'comparison',
      time: new Date().toISOString(),
      route: ex.route,
      requestId: ex.requestId,
      mode: ex.mode,
      method,
      primary: { status: primary.status, latencyMs: primary.latencyMs },
      candidate: candidate && { status: candidate.status, latencyMs: candidate.latencyMs },
      differences: differences.map((d) => redactAt(d)),
      request: {
        method: ex.request.method,
        path: scrub(ex.request.path),
        headers: redactValue(ex.request.headers) as Record<string, unknown>,
        ...(ex.request.body !== undefined ? { body: redactValue(parseJson(ex.request.body)) } : {}),
      },
      ...(Object.keys(tracers).length ? { tracers } : {}),
      ...(note ? { note } : {}),
    };
    emit(record);
    compared.inc({ route: ex.route, outcome: ledger.matches(record) ? 'match' : 'mismatch' });
  }

  function skip(ex: Exchange, reason: string): void {
    emit({ type: 'skipped', time: new Date().toISOString(), route: ex.route, requestId: ex.requestId, reason });
    skipped.inc({ route: ex.route, reason });
  }

  /** The translated side; `done` is the translation of this very request when the job already made it. */
  async function translated(request: LegacyRequest, done?: TranslatedRequest): Promise<Answer> {
    const start = now();
    const send = (current: CurrentRequest) => deps.callCurrent(current, request.requestId ?? '');
    const answer = done ? await translator.complete(done, send) : await translator.execute(request, send);
    return { status: answer.status, body: answer.body, latencyMs: elapsed(start) };
  }

  async function legacy(request: LegacyRequest): Promise<Answer> {
    const start = now();
    try {
      const answer = await deps.callLegacy(request);
      return { status: answer.status, body: answer.body, latencyMs: elapsed(start) };
    } catch (err) {
      const e = err instanceof PaybridgeError ? err : new PaybridgeError('upstream_error', 'the legacy call failed');
      return { status: e.status, body: legacyErrorBody(e.code, e.detail, request.requestId ?? ''), latencyMs: elapsed(start) };
    }
  }

  /** The generation that answered the client, and the other one. */
  const primarySide = (ex: Exchange) => (ex.mode === 'shadow' ? legacy : translated);
  const candidateSide = (ex: Exchange) => (ex.mode === 'shadow' ? translated : legacy);

  const asLegacyRequest = (ex: Exchange, suffix: string, request = ex.request): LegacyRequest => ({
    method: request.method,
    path: request.path,
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
    requestId: `${ex.requestId}:${suffix}`,
  });

  async function compareRead(ex: Exchange, current: TranslatedRequest | undefined): Promise<void> {
    const request = asLegacyRequest(ex, 'candidate');
    const candidate = ex.mode === 'shadow' ? await translated(request, current) : await legacy(request);
    comparison(ex, 'compare', ex.primary, candidate, compareAnswers(ex.primary, candidate));
    if (Math.random() < settings.learnSample) {
      const again = await primarySide(ex)(asLegacyRequest(ex, 'noise'));
      const differences = compareAnswers(ex.primary, again).filter((d) => builtinNoise(d) === null);
      const time = new Date().toISOString();
      for (const noise of ledger.noise.learn(ex.route, differences, ex.requestId, time)) {
        const values = redactAt({ path: noise.path, primary: noise.evidence.first, candidate: noise.evidence.second });
        emit({ type: 'noise', time, ...noise, evidence: { ...noise.evidence, first: values.primary, second: values.candidate } });
        deps.log.info({ route: ex.route, path: noise.path }, 'shadow learned a noisy path');
      }
    }
  }

  /**
   * Before the first write is sent to the candidate, the candidate must prove it is isolated: a
   * resource the primary just created must not be readable there. If it is, sending stops for good.
   */
  async function isolation(ex: Exchange): Promise<'proven' | 'stopped' | 'unproven'> {
    if (sendState !== 'unproven') return sendState;
    const path = ex.compiled.mapping.readback?.({ params: ex.params, body: parseJson(ex.request.body), answer: ex.primary.body });
    if (!path) return 'unproven';
    const probe = await candidateSide(ex)(asLegacyRequest(ex, 'isolation', { method: 'GET', path, headers: credentialHeaders(ex.request.headers) }));
    if (sendState !== 'unproven') return sendState;
    if (probe.status < 300) {
      sendState = 'stopped';
      sendStopped = 1;
      deps.log.error(
        { route: ex.route, requestId: ex.requestId, probe: path.replace(/\/[^/]+$/, '/{id}') },
        'shadow send stopped for good: a resource the primary just created is readable from the candidate, so it is not isolated',
      );
    } else if (probe.status === 404) sendState = 'proven';
    return sendState;
  }

  async function compareWrite(ex: Exchange, current: CurrentRequest | undefined): Promise<void> {
    const { mapping } = ex.compiled;
    const safety = safetyOf(ex.route);
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
      else if ((await isolation(ex)) === 'proven') {
        const candidate = await candidateSide(ex)(asLegacyRequest(ex, 'candidate'));
        return comparison(ex, 'send', ex.primary, candidate, compareAnswers(ex.primary, candidate));
      } else note = sendState === 'stopped' ? 'send stopped: the candidate shares the primary\'s store' : 'send waits: the candidate\'s isolation is not proven yet';
    }
    const path =
      safety === 'validate' ? undefined : mapping.readback?.({ params: ex.params, body: parseJson(ex.request.body), answer: ex.primary.body });
    if (path) {
      const read = { method: 'GET', path, headers: credentialHeaders(ex.request.headers) };
      const [primary, candidate] = await Promise.all([
        primarySide(ex)(asLegacyRequest(ex, 'readback-primary', read)),
        candidateSide(ex)(asLegacyRequest(ex, 'readback-candidate', read)),
      ]);
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
    onError: (err, ex) => deps.log.warn({ err, route: ex.route, requestId: ex.requestId }, 'shadow comparison failed'),
    onDrop: () => ledger.dropped++,
  });

  return {
    ledger,
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
    async close(): Promise<void> {
      await this.idle();
      await recorder.close();
    },
  };
}

export type Shadow = ReturnType<typeof createShadow>;
