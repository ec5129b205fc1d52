/**
 * The two generations as a comparison calls them: each call timed, and answered (an upstream failure
 * of the legacy side becomes its legacy error answer) rather than thrown.
 */
import { legacyErrorBody, PaybridgeError } from '../errors.js';
import type {
  CurrentRequest,
  CurrentResponse,
  LegacyRequest,
  TranslatedRequest,
  Translator,
} from '../translate/index.js';
import type { Corpus } from './corpus.js';
import type { Answer, Exchange } from './exchange.js';

export interface SidesDeps {
  translator: Translator;
  /** One current call (translated request) to the upstream of its credential's environment. */
  callCurrent: (current: CurrentRequest, requestId: string) => Promise<CurrentResponse>;
  /** One legacy call, unchanged, to the legacy upstream of its credential's environment. */
  callLegacy: (request: LegacyRequest) => Promise<CurrentResponse>;
  /** The replay corpus (shadow.corpus), when one is kept: each translated side's calls. */
  corpus?: Corpus | undefined;
}

// written to a tenth of a millisecond by the record (records.ts), as the served primary's latency is
const elapsed = (start: number) => performance.now() - start;

export function createSides(deps: SidesDeps) {
  /** The translated side; `done` is the translation of this very request when the job already made it. */
  async function translated(request: LegacyRequest, done?: TranslatedRequest): Promise<Answer> {
    const start = performance.now();
    const calls = deps.corpus?.sampled() ? ([] as { request: CurrentRequest; answer: CurrentResponse }[]) : undefined;
    const send = (current: CurrentRequest) =>
      calls
        ? deps
            .callCurrent(current, request.requestId ?? '')
            .then((got) => (calls.push({ request: current, answer: got }), got))
        : deps.callCurrent(current, request.requestId ?? '');
    const answer = done ? await deps.translator.complete(done, send) : await deps.translator.execute(request, send);
    if (calls) {
      const route =
        done?.context.routeId ??
        deps.translator.routes.match(request.method, request.path.split('?')[0]!)?.compiled.mapping.route ??
        'unmapped';
      deps.corpus!.write(route, request, answer, calls);
    }
    return { status: answer.status, body: answer.body, latencyMs: elapsed(start) };
  }

  async function legacy(request: LegacyRequest): Promise<Answer> {
    const start = performance.now();
    try {
      const answer = await deps.callLegacy(request);
      return { status: answer.status, body: answer.body, latencyMs: elapsed(start) };
    } catch (err) {
      const e = err instanceof PaybridgeError ? err : new PaybridgeError('upstream_error', 'the legacy call failed');
      return {
        status: e.status,
        body: legacyErrorBody(e.code, e.detail, request.requestId ?? ''),
        latencyMs: elapsed(start),
      };
    }
  }

  return {
    translated,
    legacy,
    /** The generation that answered the client. */
    primary: (ex: Exchange) => (ex.mode === 'shadow' ? legacy : translated),
    /** The other generation. */
    candidate: (ex: Exchange) => (ex.mode === 'shadow' ? translated : legacy),
  };
}

export type Sides = ReturnType<typeof createSides>;
