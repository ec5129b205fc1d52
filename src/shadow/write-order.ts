/**
 * The order of the writes the gateway forwarded, per resource: a write's comparison is raced only
 * when another write of the same resource (named on its path or in its body) ran with
 * or after it and had started before the comparison's state read finished. Timing is told from this
 * order, never guessed from the state: a wrong id or amount in the state is a mismatch, not a race.
 */
import { LRUCache } from 'lru-cache';
import { RESOURCE_IDS } from './noise.js';

export interface WriteTicket {
  readonly seq: number;
  /** When the write was forwarded, and when its answer came (Infinity while in flight). */
  readonly begin: number;
  end: number;
  /** The legacy body (kept to its first bytes), for a later call that does not repeat what it asked. */
  readonly body: string | undefined;
}

/** Writes kept per resource, the newest. */
const PER_RESOURCE = 32;
/** Bytes of a write's body kept. */
const BODY_BYTES = 4096;

const idsIn = (text: string | undefined): string[] => (text ? (text.match(RESOURCE_IDS) ?? []) : []);

export class WriteOrder {
  private seq = 0;
  private readonly byResource = new LRUCache<string, WriteTicket[]>({ max: 20_000 });

  private add(id: string, ticket: WriteTicket): void {
    const list = this.byResource.get(id) ?? [];
    if (list.includes(ticket)) return;
    list.push(ticket);
    if (list.length > PER_RESOURCE) list.shift();
    this.byResource.set(id, list);
  }

  /** A write forwarded now, filed under the resources its path and body name. */
  begins(path: string, body: string | undefined): WriteTicket {
    const ticket: WriteTicket = {
      seq: ++this.seq,
      begin: performance.now(),
      end: Number.POSITIVE_INFINITY,
      body: body && body.length > BODY_BYTES ? body.slice(0, BODY_BYTES) : body,
    };
    for (const id of new Set([...idsIn(path.split('?')[0]), ...idsIn(body)])) this.add(id, ticket);
    return ticket;
  }

  /** Its answer came (or its call failed): from now on it is wholly before any write forwarded later. */
  ends(ticket: WriteTicket): void {
    ticket.end = performance.now();
  }

  /**
   * The other writes of the resources named in `path` that ran with or after `ticket` (not wholly
   * before it) and had started by `until` (the state read's end): what the state read may show.
   */
  racing(ticket: WriteTicket, path: string, until: number): WriteTicket[] {
    const out = new Set<WriteTicket>();
    for (const id of idsIn(path))
      for (const other of this.byResource.get(id) ?? [])
        if (other !== ticket && other.end > ticket.begin && other.begin < until) out.add(other);
    return [...out];
  }

  /** The legacy bodies of the writes of the resources named in `path` that ended before `ticket` began, oldest first. */
  earlier(ticket: WriteTicket, path: string): unknown[] {
    const out = new Set<WriteTicket>();
    for (const id of idsIn(path))
      for (const other of this.byResource.get(id) ?? []) if (other.end <= ticket.begin) out.add(other);
    return [...out].sort((a, b) => a.seq - b.seq).map((t) => parseOrText(t.body));
  }
}

function parseOrText(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
