/**
 * The one definition of a route's readiness, on the ledger that the report, the live page and the
 * replicas' readiness gauges share: the window up to the newest comparison, every path kind in it,
 * and an operator's acceptance scoped to a route, a path, two values and the replica that took it.
 */
import { describe, expect, it } from 'vitest';
import type { AcceptedRecord } from '../../src/shadow/accepted.js';
import { ShadowLedger, type ComparisonRecord } from '../../src/shadow/ledger.js';

const T0 = Date.parse('2026-11-27T10:00:00.000Z');
let seq = 0;
/** A comparison of `route` at minute `minute`, the legacy answer `status` (`errorCode`), with these differences. */
function comparison(
  route: string,
  minute: number,
  differences: ComparisonRecord['differences'] = [],
  status = 200,
  errorCode?: string,
  instance = 'a',
): ComparisonRecord {
  return {
    type: 'comparison',
    time: new Date(T0 + minute * 60_000).toISOString(),
    route,
    requestId: `req-${++seq}`,
    mode: 'shadow',
    method: 'compare',
    primary: { status, latencyMs: 1 },
    candidate: { status: (differences.find((d) => d.path === '$status')?.candidate as number) ?? status, latencyMs: 1 },
    differences,
    request: { method: 'GET', path: '/x' },
    instance,
    ...(errorCode ? { kind: `${Math.floor(status / 100)}xx ${errorCode}` } : {}),
  };
}
const NOT_FOUND_AS_400 = [{ path: '$status', primary: 404, candidate: 400 }];
const accepted = (over: Partial<AcceptedRecord> = {}): AcceptedRecord => ({
  type: 'accepted',
  time: new Date(T0).toISOString(),
  route: 'L6',
  path: '$status',
  primary: 404,
  candidate: 400,
  by: 'ops',
  instance: 'a',
  ...over,
});

function routeOf(records: (ComparisonRecord | AcceptedRecord)[], readyAfter = 3) {
  const ledger = new ShadowLedger({ readyAfter, readyWindow: '1h' });
  for (const r of records) ledger.ingest(r);
  return { route: ledger.report().routes.find((r) => r.route === 'L6')!, readiness: ledger.readiness().get('L6') };
}

describe('a route is ready only with no unexplained difference anywhere in its window', () => {
  it('a difference once on a rarer path kind, followed by more than readyAfter matches, keeps the route at mismatch and names the kind', () => {
    const { route, readiness } = routeOf([
      comparison('L6', 0, NOT_FOUND_AS_400, 404, 'not_found'),
      ...[1, 2, 3, 4, 5].map((m) => comparison('L6', m)),
    ]);
    expect(route.state).toBe('mismatch');
    expect(route.window.kinds).toEqual({
      '4xx not_found': { compared: 1, unexplained: 1, paths: ['$status'] },
      '2xx': { compared: 5, unexplained: 0, paths: [] },
    });
    expect(route.verdict).toBe(
      'mismatch: 1 unexplained in the 1h up to the last comparison (4xx not_found: 1 at $status); the route stays so until the window passes them or an operator accepts them',
    );
    // what the replica exports for Prometheus: its newest comparison, and its newest unexplained one by kind
    expect(readiness).toEqual({ last: T0 + 5 * 60_000, unexplained: new Map([['4xx not_found', T0]]) });
  });

  it('the window passes a difference only when newer comparisons push it out, not while the route is quiet', () => {
    const before = [
      comparison('L6', 0, NOT_FOUND_AS_400, 404, 'not_found'),
      ...[1, 2, 3].map((m) => comparison('L6', m)),
    ];
    // quiet for days: the window ends at the newest comparison, the verdict holds
    expect(routeOf(before).route.state).toBe('mismatch');
    // comparisons go on past the hour: the difference is out of the window
    const after = routeOf([...before, ...[30, 59, 61].map((m) => comparison('L6', m))]).route;
    expect(after.state).toBe('ready');
    expect(after.window).toMatchObject({ compared: 5, answered: 5, unexplained: 0 }); // minutes 2, 3, 30, 59 and 61
  });

  it('too few in the window is collecting, whatever came before it', () => {
    expect(routeOf([...[0, 1, 2].map((m) => comparison('L6', m)), comparison('L6', 90)]).route.state).toBe(
      'collecting',
    );
  });
});

describe("an operator's acceptance", () => {
  it('explains exactly that route, path and pair of values, on the replica that took it', () => {
    const records = [
      comparison('L6', 0, NOT_FOUND_AS_400, 404, 'not_found'),
      ...[1, 2, 3].map((m) => comparison('L6', m)),
    ];
    expect(routeOf([...records, accepted()]).route.state).toBe('ready');
    expect(routeOf([...records, accepted()]).route.accepted).toEqual([accepted()]);
    for (const other of [
      accepted({ candidate: 500 }),
      accepted({ path: 'errorCode' }),
      accepted({ route: 'L3' }),
      accepted({ instance: 'b' }),
    ])
      expect(routeOf([...records, other]).route.state, JSON.stringify(other)).toBe('mismatch');
    // another difference in the same comparisons is not explained by it
    const more = [
      comparison(
        'L6',
        0,
        [...NOT_FOUND_AS_400, { path: 'errorCode', primary: 'not_found', candidate: 'invalid_request' }],
        404,
        'not_found',
      ),
      ...[1, 2, 3].map((m) => comparison('L6', m)),
    ];
    expect(routeOf([...more, accepted()]).route.state).toBe('mismatch');
    // and the readiness gauges drop the accepted one
    expect(routeOf([...records, accepted()]).readiness!.unexplained.size).toBe(0);
  });
});

describe('the operator path that accepts a difference', () => {
  it('refuses a body that is not one scoped difference, naming the field, and takes a generalised path', async () => {
    const { acceptDifference } = await import('../../src/shadow/acceptance.js');
    const ledger = new ShadowLedger({ readyAfter: 1, instance: 'a' });
    const lines: object[] = [];
    // the engine stamps each record with its replica's name
    const accept = acceptDifference({
      ledger,
      emit: (r) => ledger.ingest({ ...r, instance: 'a' }),
      counted: () => {},
      log: { info: (obj) => lines.push(obj) },
    });
    const refused = (body: unknown) => {
      try {
        accept(body, 'ops');
      } catch (err) {
        return `${(err as { code: string }).code}: ${(err as { detail: string }).detail}`;
      }
      return 'accepted';
    };
    expect(refused({ route: 'L6', path: '$status' })).toMatch(/^invalid_request: primary, candidate:/);
    expect(refused({ route: '*', path: '$status', primary: 404, candidate: 400 })).toMatch(/^invalid_request: route:/);
    expect(refused({ route: 'L6', path: '**.amount', primary: 1, candidate: 2 })).toMatch(/^invalid_request: path:/);
    expect(refused({ route: 'L6', path: 'x', primary: 1, candidate: 2, scope: 'all' })).toMatch(
      /^invalid_request: scope: unknown field/,
    );
    expect(lines).toEqual([]);
    ledger.ingest(comparison('L6', 0, [{ path: 'refunds[1].amount', primary: 100, candidate: 10_000 }]));
    expect(accept({ route: 'L6', path: 'refunds[*].amount', primary: 100, candidate: 10_000 }, 'ops').explains).toBe(1);
    expect(lines).toEqual([
      expect.objectContaining({
        audit: 'accepted',
        by: 'ops',
        route: 'L6',
        path: 'refunds[*].amount',
        primary: 100,
        candidate: 10_000,
      }),
    ]);
    expect(ledger.report().routes[0]!.state).toBe('ready');
  });
});
