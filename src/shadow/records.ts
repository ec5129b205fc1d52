/** The records a comparison leaves, redacted: no secret of the request or the answers is written. */
import { isoTime } from '../observability/clock.js';
import { redactAt, redactValue, scrub } from '../observability/redact.js';
import type { Difference } from './diff.js';
import { parseJson, type Answer, type Exchange } from './exchange.js';
import type { CompareMethod, ComparisonRecord, NoiseRecord, SkippedRecord } from './ledger.js';
import { builtinNoise, type LearnedNoise } from './noise.js';
import { kindOf } from './verdict.js';

/** The tracer an upstream put in its error answer: the id a customer quotes. */
function tracerOf(answer: Answer | null): string | undefined {
  const tracer = (answer?.body as { tracer?: unknown } | undefined)?.tracer;
  return typeof tracer === 'string' ? tracer : undefined;
}

/** Milliseconds to a tenth, as every latency in a record is written. */
const tenth = (ms: number): number => Math.round(ms * 10) / 10;

export function comparisonRecord(
  ex: Exchange,
  method: CompareMethod,
  primary: Answer,
  candidate: Answer | null,
  differences: Difference[],
  note?: string,
  notComparable?: string[],
): ComparisonRecord {
  const tracers = { primary: tracerOf(primary), candidate: tracerOf(candidate) };
  // one literal of fixed keys (a spread in a literal defines the keys after it at run time); a member
  // left undefined is not written (JSON)
  return {
    type: 'comparison',
    time: isoTime(),
    route: ex.route,
    requestId: ex.requestId,
    mode: ex.mode,
    method,
    primary: { status: primary.status, latencyMs: tenth(primary.latencyMs) },
    candidate: candidate && { status: candidate.status, latencyMs: tenth(candidate.latencyMs) },
    differences: differences.map((d) => {
      // ids and timestamps told apart on the values compared: redaction can mask one (a token, a tracer)
      const out = redactAt(d);
      const noise = builtinNoise(d);
      if (noise) out.noise = noise;
      return out;
    }),
    // the headers are added to a record that did not match (withHeaders): what a match needs is the request line
    request: {
      method: ex.request.method,
      path: scrub(ex.request.path),
      headers: undefined,
      body: ex.request.body !== undefined ? redactValue(parseJson(ex.request.body)) : undefined,
    },
    tracers: tracers.primary === undefined && tracers.candidate === undefined ? undefined : tracers,
    note: note || undefined,
    notComparable: notComparable?.length ? notComparable : undefined,
    merchant: ex.merchant,
    client: ex.client,
    kind: kindOf(primary.status, (primary.body as { errorCode?: unknown } | undefined)?.errorCode),
  };
}

/** The record with the exchange's request headers, redacted: kept where there is something to look into. */
export function withHeaders(record: ComparisonRecord, ex: Pick<Exchange, 'request'>): ComparisonRecord {
  record.request.headers = redactValue(ex.request.headers) as Record<string, unknown>;
  return record;
}

export const skippedRecord = (ex: Pick<Exchange, 'route' | 'requestId'>, reason: string): SkippedRecord => ({
  type: 'skipped',
  time: isoTime(),
  route: ex.route,
  requestId: ex.requestId,
  reason,
});

/** A path learned as noisy, with its two differing values redacted like a comparison's. */
export function noiseRecord(noise: LearnedNoise, time: string): NoiseRecord {
  const values = redactAt({ path: noise.path, primary: noise.evidence.first, candidate: noise.evidence.second });
  return {
    type: 'noise',
    time,
    ...noise,
    evidence: { ...noise.evidence, first: values.primary, second: values.candidate },
  };
}
