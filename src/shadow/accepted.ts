/**
 * Differences an operator accepted as not mattering: an audited decision, scoped to one route, one
 * JSON path and the two values seen (never a whole route or a whole path), taken on one replica. A
 * comparison is explained by an acceptance its own replica took: the merged report and each replica's
 * metrics then give one verdict (a replica that did not take it keeps the route at mismatch).
 */
import { generalise, type Difference } from './diff.js';

/** What an operator accepts: the route, the path (`$status`, `refunds[*].amount`) and the legacy and translated values. */
export interface Acceptance {
  route: string;
  path: string;
  /** The legacy side's value as the records show it (absent: the legacy answer had none). */
  primary?: unknown;
  candidate?: unknown;
}

/** An acceptance as recorded: who took it, when, on which replica, and why. */
export interface AcceptedRecord extends Acceptance {
  type: 'accepted';
  time: string;
  /** The operator token's name. */
  by: string;
  note?: string;
  instance?: string;
}

/** One text per value (absent apart from null). */
const text = (v: unknown, present: boolean) => (present ? (JSON.stringify(v) ?? 'undefined') : '(absent)');

const signature = (a: { path: string; primary?: unknown; candidate?: unknown }) =>
  `${generalise(a.path)}\u0000${text(a.primary, 'primary' in a)}\u0000${text(a.candidate, 'candidate' in a)}`;

export class Acceptances {
  /** route -> replica -> signatures accepted there */
  private readonly taken = new Map<string, Map<string | undefined, Set<string>>>();
  private readonly records: AcceptedRecord[] = [];

  add(record: AcceptedRecord): void {
    const byReplica = this.taken.get(record.route) ?? new Map<string | undefined, Set<string>>();
    this.taken.set(record.route, byReplica);
    const set = byReplica.get(record.instance) ?? new Set<string>();
    byReplica.set(record.instance, set);
    if (set.has(signature(record))) return;
    set.add(signature(record));
    this.records.push(record);
  }

  /** Whether the replica that made a comparison of `route` accepted this difference. */
  explains(route: string, d: Difference, instance: string | undefined): boolean {
    return this.taken.get(route)?.get(instance)?.has(signature(d)) ?? false;
  }

  /** The acceptances of a route, oldest first. */
  forRoute(route: string): AcceptedRecord[] {
    return this.records.filter((r) => r.route === route);
  }
}
