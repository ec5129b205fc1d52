/**
 * Differences that are not mismatches: built-in (ids and timestamps that two executions are expected
 * to mint differently), configured (route + JSON-path glob), and learned (paths that differ between
 * two identical reads of the primary).
 */
import { ID_PREFIX } from '../contract/ids.js';
import { generalise, type Difference } from './diff.js';

export type NoiseReason = 'id' | 'timestamp' | 'rule' | 'learned';

/** The suffixes the gateway itself adds to a request id (`<id>:candidate`, `<id>:readback-primary`, ...). */
const SUFFIX = '(?::[a-z][a-z-]*)?';
/** The id prefixes of the contract, the sandbox's checkout tokens (chk_) and legacy card ids (card_). */
const ID_KINDS = [...Object.values(ID_PREFIX).map((p) => p.slice(0, -1)), 'chk', 'card'].join('|');
const ID = new RegExp(`^(${ID_KINDS})_[A-Za-z0-9_-]+${SUFFIX}$`);
const UUID = new RegExp(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}${SUFFIX}$`, 'i');
/** A request id as the gateway accepts one from a client (x-request-id), with a gateway suffix. */
const REQUEST_ID = new RegExp(`^[A-Za-z0-9._-]{8,128}${SUFFIX}$`);
/** Fields that name the call, not the money: every call has its own. */
const TRACER_PATH = /(^|\.)tracer$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2}))?$/;

/** A timestamp's format: its digits as `d`, a sign as `±` (`dddd±dd±ddTdd:dd:dd.dddZ`): a date only is another format. */
const formatOf = (timestamp: string): string => timestamp.replace(/\d/g, 'd').replace(/[+-]/g, '±');

/**
 * Two request ids or tracers (whatever suffix the gateway added), or two timestamps of one format
 * (a date answered for a date and time is a mismatch): expected to differ. Nothing else by its shape. Never the ids of resources: on the store both generations front one resource has one id,
 * so two different ids of the same order or refund are a mismatch, as is an id of another kind or on
 * one side only. Where the candidate is isolated (`send`), its ids are paired with the primary's by
 * the creates that minted them (the shadow engine's `pairIds`), never ignored wholesale.
 */
export function builtinNoise(d: Difference): 'id' | 'timestamp' | null {
  const { primary: a, candidate: b } = d;
  if (typeof a !== 'string' || typeof b !== 'string') return null;
  if (TRACER_PATH.test(d.path) && REQUEST_ID.test(a) && REQUEST_ID.test(b)) return 'id';
  if (TIMESTAMP.test(a) && TIMESTAMP.test(b) && formatOf(a) === formatOf(b)) return 'timestamp';
  return null;
}

/** Two resource ids of one kind (two `ordr_`, two UUIDs): what an isolated candidate may have minted for the primary's. */
export function sameKindIds(a: unknown, b: unknown): a is string {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  if (UUID.test(a) && UUID.test(b)) return true;
  return ID.test(a) && ID.test(b) && a.slice(0, a.indexOf('_')) === b.slice(0, b.indexOf('_'));
}

/** Every resource id in a text (a path, a body), for pairing. */
export const RESOURCE_IDS = new RegExp(
  `\\b(?:${ID_KINDS})_[A-Za-z0-9_-]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`,
  'gi',
);

/** Paths learning never takes as noise: the status, amounts, currencies and ids, which a race with a write changes. */
const NEVER_LEARNED = /^\$status$|(^|\.)(_id|\w*[Ii]d|\w*[Aa]mount|\w*[Cc]urrency|status)$/;

/** Whether a difference between two reads of the primary may be learned as noise. */
export function learnable(d: Difference): boolean {
  if (NEVER_LEARNED.test(generalise(d.path))) return false;
  for (const v of [d.primary, d.candidate]) if (typeof v === 'string' && ID.test(v)) return false;
  return true;
}

/** `refunds[*].createdAt`, `**.updatedAt`, `metadata.*`: `*` one segment, `**` any, `[*]` any index. */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (glob.startsWith('**', i)) {
      out += '.*';
      i++;
    } else if (glob.startsWith('[*]', i)) {
      out += '\\[\\d+\\]';
      i += 2;
    } else if (c === '*') out += '[^.\\[\\]]*';
    else out += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

export interface IgnoreRule {
  route: string;
  path: string;
}

export interface LearnedNoise {
  route: string;
  path: string;
  evidence: { requestId: string; time: string; first?: unknown; second?: unknown };
}

export class NoiseRules {
  private readonly rules: { route: string; path: RegExp }[];
  /** route -> generalised path -> evidence */
  private readonly learned = new Map<string, Map<string, LearnedNoise>>();

  constructor(rules: readonly IgnoreRule[] = []) {
    this.rules = rules.map((r) => ({ route: r.route, path: globToRegExp(r.path) }));
  }

  /** Records paths that differed between two identical primary reads; returns the new ones. */
  learn(route: string, differences: readonly Difference[], requestId: string, time: string): LearnedNoise[] {
    const known = this.learned.get(route) ?? new Map<string, LearnedNoise>();
    this.learned.set(route, known);
    const added: LearnedNoise[] = [];
    for (const d of differences) {
      const path = generalise(d.path);
      if (known.has(path) || !learnable(d)) continue;
      const noise = { route, path, evidence: { requestId, time, first: d.primary, second: d.candidate } };
      known.set(path, noise);
      added.push(noise);
    }
    return added;
  }

  /** Adds noise learned elsewhere (another gateway instance's records). */
  remember(noise: LearnedNoise): void {
    const known = this.learned.get(noise.route) ?? new Map<string, LearnedNoise>();
    if (!known.has(noise.path)) known.set(noise.path, noise);
    this.learned.set(noise.route, known);
  }

  learnedFor(route: string): LearnedNoise[] {
    return [...(this.learned.get(route)?.values() ?? [])];
  }

  /** Why a difference is not a mismatch, or null when it is one. */
  explain(route: string, d: Difference): NoiseReason | null {
    const builtin = d.noise ?? builtinNoise(d);
    if (builtin) return builtin;
    for (const rule of this.rules)
      if ((rule.route === '*' || rule.route === route) && rule.path.test(d.path)) return 'rule';
    if (this.learned.get(route)?.has(generalise(d.path))) return 'learned';
    return null;
  }
}
