/**
 * A corpus entry run again through a translator (this build's, or one under test), offline: the
 * current requests it would send now against the recorded ones, and the legacy answer it would give
 * now for the recorded current answers against the recorded legacy answer. Nothing is sent anywhere.
 */
import { newRequestId } from '../contract/ids.js';
import { parseJsonValue, stringifyJson } from '../contract/json.js';
import { PaybridgeError } from '../errors.js';
import type { CurrentRequest, CurrentResponse, LegacyResponse, Translator } from '../translate/index.js';
import type { CorpusEntry } from './corpus.js';
import { diff, type Difference } from './diff.js';
import type { NoiseRules } from './noise.js';

export interface ReplayDifference extends Difference {
  /** Which part of the exchange differs: `current[0].request`, `legacy.answer`. */
  at: string;
}

/** Headers the gateway's upstream call sets itself (the translator never does): not part of a translation. */
const CALL_HEADERS = new Set(['x-request-id', 'traceparent', 'tracestate']);

/** A value as the corpus holds it: written as JSON and read back (absent keys, exact numbers). */
const asWritten = (value: unknown): unknown => (value === undefined ? undefined : parseJsonValue(stringifyJson(value)));

const requestOf = (current: CurrentRequest) =>
  asWritten({
    method: current.method,
    path: current.path,
    headers: Object.fromEntries(Object.entries(current.headers).filter(([name]) => !CALL_HEADERS.has(name))),
    body: current.body,
  });

/** The differences of one entry replayed: none when this translator does exactly what the recorded one did. */
export async function replayEntry(translator: Translator, entry: CorpusEntry): Promise<ReplayDifference[]> {
  const out: ReplayDifference[] = [];
  let call = 0;
  const send = async (current: CurrentRequest): Promise<CurrentResponse> => {
    const recorded = entry.current[call];
    const at = `current[${call}]`;
    call++;
    if (!recorded) {
      out.push({ at, path: '$call', candidate: `${current.method} ${current.path}` });
      throw new PaybridgeError('upstream_error', 'replay: a call the recorded exchange did not make');
    }
    const recordedRequest = {
      ...recorded.request,
      headers: Object.fromEntries(Object.entries(recorded.request.headers).filter(([name]) => !CALL_HEADERS.has(name))),
    };
    for (const d of diff(recordedRequest, requestOf(current))) out.push({ ...d, at: `${at}.request` });
    return { status: recorded.answer.status, body: recorded.answer.body };
  };
  // the request as the gateway had it: the body as text (JSON as JSON text), under the recorded
  // request id, so the errors the translation makes itself carry the tracer they carried then
  const { method, path, headers, body, text } = entry.legacy.request;
  const asText = text === true || (entry.requestId === undefined && typeof body === 'string');
  const requestId = entry.requestId ?? newRequestId();
  let answer: LegacyResponse;
  try {
    answer = await translator.execute(
      {
        method,
        path,
        headers: headers as Record<string, string>,
        body: body === undefined || asText ? body : stringifyJson(body),
        requestId,
      },
      send,
    );
  } catch (err) {
    const e = err instanceof PaybridgeError ? err : new PaybridgeError('internal_error', String(err));
    answer = { status: e.status, body: { errorCode: e.code, detail: e.detail } };
  }
  for (let missing = call; missing < entry.current.length; missing++)
    out.push({
      at: `current[${missing}]`,
      path: '$call',
      primary: `${entry.current[missing]!.request.method} ${entry.current[missing]!.request.path}`,
    });
  if (answer.status !== entry.legacy.answer.status)
    out.push({ at: 'legacy.answer', path: '$status', primary: entry.legacy.answer.status, candidate: answer.status });
  for (const d of diff(entry.legacy.answer.body, asWritten(answer.body))) {
    // an entry of a corpus written before request ids were kept: the tracer the gateway minted then
    // and the one minted now are two fresh ids, compared as such (an upstream's tracer still compares)
    if (entry.requestId === undefined && d.path === 'tracer' && d.candidate === requestId) continue;
    out.push({ ...d, at: 'legacy.answer' });
  }
  return out;
}

/** Differences not allowed by the configured ignore rules (route id or `*`, a JSON-path glob). */
export function unexplained(
  route: string,
  differences: readonly ReplayDifference[],
  rules: NoiseRules,
): ReplayDifference[] {
  return differences.filter((d) => rules.explain(route, { path: d.path }) === null);
}
