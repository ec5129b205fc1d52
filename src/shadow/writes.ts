/**
 * How a shadow or canary write is compared without being done twice on the store both generations
 * front: its outcome checked on that store (the state read through the current API, the translated
 * request's effect on it, the answer the mapping gives for it), a readback of both generations, a send
 * to an isolated candidate (its ids paired with the primary's), or a validation of the translation.
 */
import { LRUCache } from 'lru-cache';
import type { Config } from '../config.js';
import { legacyErrorBody, PaybridgeError } from '../errors.js';
import { stringAt, type WriteCheck, type WriteOutcome } from '../translate/define.js';
import type { CurrentResponse, LegacyRequest, TranslatedRequest, Translator } from '../translate/index.js';
import { compareAnswers, type Difference } from './diff.js';
import {
  asLegacyRequest,
  credentialHeaders,
  credentialValue,
  parseJson,
  succeeded,
  type Answer,
  type Exchange,
} from './exchange.js';
import type { createIsolation } from './isolation.js';
import type { CompareMethod } from './ledger.js';
import { RESOURCE_IDS, sameKindIds } from './noise.js';
import type { Sides, SidesDeps } from './sides.js';
import { validateCurrentRequest } from './validate.js';
import { judgeEffect } from './effect.js';
import type { WriteOrder } from './write-order.js';

export interface WriteComparisonDeps {
  settings: Config['shadow'];
  translator: Translator;
  callCurrent: SidesDeps['callCurrent'];
  sides: Sides;
  isolation: ReturnType<typeof createIsolation>;
  /** Records a comparison (and counts it). */
  comparison: (
    ex: Exchange,
    method: CompareMethod,
    primary: Answer,
    candidate: Answer | null,
    differences: Difference[],
    note?: string,
    notComparable?: string[],
  ) => void;
  /** The order of the writes forwarded, per resource. */
  order: WriteOrder;
  /** Records a sampled exchange not compared, and why. */
  skip: (ex: Pick<Exchange, 'route' | 'requestId'>, reason: string) => void;
}

export function createWriteComparisons(deps: WriteComparisonDeps) {
  const { settings, translator, sides, isolation, comparison, skip } = deps;

  const safetyOf = (route: string) => settings.writeSafety[route] ?? settings.writeSafety['*'] ?? 'readback';

  /** Send mode: the isolated candidate's ids, by the primary's id each stands for (the creates that minted them). */
  const candidateIds = new LRUCache<string, string>({ max: 10_000 });

  /** The request with every primary id the candidate knows under its own replaced, in the path and the body. */
  function withCandidateIds(request: LegacyRequest): LegacyRequest {
    const swap = (text: string) => text.replace(RESOURCE_IDS, (id) => candidateIds.get(id) ?? id);
    return Object.assign({}, request, {
      path: swap(request.path),
      body: typeof request.body === 'string' ? swap(request.body) : request.body,
    });
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

  /**
   * A write the legacy upstream served, checked on the store both generations front: the state it
   * left read through the current API, what the translated request asks of that state (the effect),
   * and the answer the mapping gives for it against the answer the client got (ids compared as ids).
   * Nothing is written: one current read at most.
   */
  async function checkWriteOutcome(ex: Exchange, check: WriteCheck, current: TranslatedRequest): Promise<void> {
    const outcome: WriteOutcome = { params: ex.params, body: parseJson(ex.request.body), answer: ex.primary.body };
    if (ex.ticket) outcome.earlier = deps.order.earlier(ex.ticket, ex.request.path);
    const answerFor = (view: CurrentResponse, before?: unknown): Answer => {
      const context = Object.assign({}, current.context, { preflightAnswer: before });
      const legacy = translator.toLegacy(view, context);
      return { status: legacy.status, body: legacy.body, latencyMs: 0 };
    };
    if (!succeeded(ex.primary)) {
      // the write failed where it was served: the same error through the mapping, as a client would get it after cut-over
      const candidate = answerFor({ status: ex.primary.status, body: ex.primary.body });
      return comparison(
        ex,
        'write',
        ex.primary,
        candidate,
        compareAnswers(ex.primary, candidate),
        'the legacy error through the mapping',
      );
    }
    const path = check.state(outcome);
    let state: unknown;
    let latencyMs = 0;
    if (path) {
      const start = performance.now();
      const { 'content-type': _type, ...headers } = current.headers;
      // a state read the current API refuses to a merchant key (Query Customers) is made as the gateway makes it
      const read = await translator.sendScoped((request) => deps.callCurrent(request, `${ex.requestId}:state`))({
        method: 'GET',
        path,
        headers,
      });
      latencyMs = performance.now() - start;
      // a later write of the same resource, forwarded before the state was read and shown by it: timing, told by order
      const racing = check.isolated || !ex.ticket ? [] : deps.order.racing(ex.ticket, path, performance.now());
      // not judged, and counted with why: the route's report says how many it could not judge
      if (racing.length > 0 && (read.status >= 300 || !check.moved || check.moved(read.body as never, outcome)))
        return skip(ex, RACED);
      if (check.removes) {
        // the write removed the resource: the current API must no longer show it
        if (read.status !== 404)
          return comparison(
            ex,
            'write',
            ex.primary,
            null,
            [
              {
                path: '$effect.removed',
                primary: 'removed by the legacy write',
                candidate: `GET ${path}: ${read.status}`,
              },
            ],
            `state ${path}`,
          );
      } else if (read.status >= 300)
        return comparison(
          ex,
          'write',
          ex.primary,
          null,
          [{ path: '$state', primary: 'the write succeeded', candidate: `GET ${path}: ${read.status}` }],
          `state ${path}`,
        );
      else state = read.body;
    }
    const view = check.answer(state as never, outcome);
    const candidate = { ...answerFor(view, view.before), latencyMs };
    const differences = compareAnswers(ex.primary, candidate);
    // what a preflight would have added (L27's transfer) before the request is judged and checked against the current schema
    const completion = state !== undefined ? check.completes?.(state as never, outcome) : undefined;
    if (completion && current.context.bodyFields) Object.assign(current.context.bodyFields, completion);
    const effect = judgeEffect(
      check,
      ex.compiled.mapping.current,
      current.body,
      current.context.bodyFields,
      state,
      outcome,
      current.context.droppedFields,
    );
    for (const m of effect.mismatches)
      differences.push({
        path: `${m.request ? '$asked' : '$effect'}.${m.field}`,
        primary: m.found,
        candidate: m.asked,
      });
    const problem = validateCurrentRequest(ex.compiled.mapping.current, current);
    if (problem) differences.push({ path: '$validation', candidate: problem });
    return comparison(
      ex,
      'write',
      ex.primary,
      candidate,
      differences,
      path ? `state ${path}` : 'no current state yet: the answer compared alone',
      effect.notComparable,
    );
  }

  /** The resource a write touched, read through both generations and compared (the write's answer and effect are not). */
  async function readBack(
    ex: Exchange,
    path: string,
    current: TranslatedRequest | undefined,
    note?: string,
  ): Promise<void> {
    const { mapping } = ex.compiled;
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

  async function compareWrite(ex: Exchange, current: TranslatedRequest | undefined): Promise<void> {
    const { mapping } = ex.compiled;
    const safety = safetyOf(ex.route);
    if (ex.mode === 'shadow' && safety === 'readback' && mapping.writeCheck && current)
      return checkWriteOutcome(ex, mapping.writeCheck, current);
    if (!succeeded(ex.primary)) {
      // The write failed where it was served. It is never repeated; a translation that refuses the
      // same request is still a comparison of the two error answers.
      if (ex.mode === 'canary') return skip(ex, 'primary write failed');
      try {
        await translator.toCurrent(asLegacyRequest(ex, 'validate'));
        return skip(ex, 'primary write failed');
      } catch (err) {
        if (!(err instanceof PaybridgeError)) throw err;
        const candidate = {
          status: err.status,
          body: legacyErrorBody(err.code, err.detail, ex.requestId),
          latencyMs: 0,
        };
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
      } else
        note =
          isolation.state === 'stopped'
            ? "send stopped: the candidate shares the primary's store"
            : "send waits: the candidate's isolation is not proven yet";
    }
    const path =
      safety === 'validate'
        ? undefined
        : mapping.readback?.({ params: ex.params, body: parseJson(ex.request.body), answer: ex.primary.body });
    if (path) return readBack(ex, path, current, note);
    if (ex.mode === 'canary') return skip(ex, 'no readback for this write');
    try {
      const current = await translator.toCurrent(asLegacyRequest(ex, 'validate'));
      const problem = validateCurrentRequest(mapping.current, current);
      return comparison(
        ex,
        'validate',
        ex.primary,
        null,
        problem ? [{ path: '$validation', candidate: problem }] : [],
        note,
      );
    } catch (err) {
      if (!(err instanceof PaybridgeError)) throw err;
      return comparison(
        ex,
        'validate',
        ex.primary,
        null,
        [{ path: '$translation', candidate: `${err.code}: ${err.detail}` }],
        note,
      );
    }
  }

  return { compareWrite };
}

const RACED = 'raced: a later write of the same resource was forwarded before the state was read';

/** The `updatedAt` of a legacy answer (an order, a transaction, or one wrapped under `order`). */
function updatedAt(body: unknown): string | undefined {
  return stringAt(body, 'updatedAt') ?? stringAt(body, 'order.updatedAt');
}
