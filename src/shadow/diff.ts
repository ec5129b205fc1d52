import { ExactNumber } from '../contract/json.js';
import { isObj } from '../translate/shape.js';

/** Field-by-field comparison of two legacy answers, by JSON path (`refunds[1].amount`, `$status`). */
export interface Difference {
  path: string;
  /** Absent when the primary answer has no value at the path. */
  primary?: unknown;
  candidate?: unknown;
  /**
   * In a record: the built-in noise verdict (builtinNoise), taken on the values before they were
   * redacted. A masked value no longer shows the id or timestamp it was.
   */
  noise?: 'id' | 'timestamp';
}

const join = (base: string, key: string) => (base ? `${base}.${key}` : key);

/** The same keys in the same order. */
function sameKeys(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Every JSON path at which the two values differ; objects and arrays are walked, leaves compared.
 * Equal leaves are skipped before their path is built: most of two matching answers is equal leaves.
 */
export function diff(primary: unknown, candidate: unknown, path = '', out: Difference[] = []): Difference[] {
  if (primary === candidate) return out;
  // a number a double cannot hold is a leaf: equal when its digits are
  if (primary instanceof ExactNumber || candidate instanceof ExactNumber) {
    const same =
      primary instanceof ExactNumber && candidate instanceof ExactNumber && primary.value === candidate.value;
    if (!same) out.push({ path: path || '$body', primary, candidate });
    return out;
  }
  if (Array.isArray(primary) && Array.isArray(candidate)) {
    const n = Math.max(primary.length, candidate.length);
    for (let i = 0; i < n; i++) {
      if (i < primary.length && i < candidate.length && primary[i] === candidate[i]) continue;
      const at = `${path}[${i}]`;
      if (i >= primary.length) out.push({ path: at, candidate: candidate[i] });
      else if (i >= candidate.length) out.push({ path: at, primary: primary[i] });
      else diff(primary[i], candidate[i], at, out);
    }
    return out;
  }
  if (isObj(primary) && isObj(candidate)) {
    const keys = Object.keys(primary);
    const candidateKeys = Object.keys(candidate);
    if (sameKeys(keys, candidateKeys)) {
      // the usual pair (two answers of one shape): values side by side, none looked up by its key
      const values = Object.values(primary);
      const others = Object.values(candidate);
      for (let i = 0; i < values.length; i++)
        if (values[i] !== others[i]) diff(values[i], others[i], join(path, keys[i]!), out);
      return out;
    }
    // keys of the candidate not in the primary are looked for only when the candidate has more keys
    // than the primary keys it holds
    let shared = 0;
    for (const key of keys) {
      const value = primary[key];
      if (!Object.hasOwn(candidate, key)) out.push({ path: join(path, key), primary: value });
      else {
        shared++;
        const other = candidate[key];
        if (value !== other) diff(value, other, join(path, key), out);
      }
    }
    if (candidateKeys.length > shared)
      for (const key of candidateKeys)
        if (!Object.hasOwn(primary, key)) out.push({ path: join(path, key), candidate: candidate[key] });
    return out;
  }
  out.push({ path: path || '$body', primary, candidate });
  return out;
}

/** The answers' statuses and bodies compared; `$status` when the statuses differ. */
export function compareAnswers(
  primary: { status: number; body?: unknown },
  candidate: { status: number; body?: unknown },
): Difference[] {
  const out: Difference[] = [];
  if (primary.status !== candidate.status)
    out.push({ path: '$status', primary: primary.status, candidate: candidate.status });
  return diff(primary.body, candidate.body, '', out);
}

/** A path with array indexes generalised: `refunds[3].amount` -> `refunds[*].amount`. */
export const generalise = (path: string): string => path.replace(/\[\d+\]/g, '[*]');
