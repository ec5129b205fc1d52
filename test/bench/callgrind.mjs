// Instructions by function from one callgrind dump (self costs, the calls into chosen functions, V8's
// runtime calls), JavaScript frames named from the perf map that `node --perf-basic-prof` writes
// (/tmp/perf-<pid>.map): callgrind itself only sees addresses in V8's generated code. Used by
// instructions.mjs (PROFILE=n, CALLS=pattern, and the runtime-call line of every run).
import { existsSync, readFileSync } from 'node:fs';

/** address -> name of the JIT code ranges in a perf map, as a lookup function (null when not in one). */
function perfMap(file) {
  const ranges = [];
  if (file && existsSync(file))
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
      if (m) ranges.push([parseInt(m[1], 16), parseInt(m[1], 16) + parseInt(m[2], 16), m[3]]);
    }
  ranges.sort((a, b) => a[0] - b[0]);
  return (address) => {
    let lo = 0;
    let hi = ranges.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ranges[mid][0] <= address) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return best >= 0 && address < ranges[best][1] ? ranges[best][2] : null;
  };
}

/**
 * Reads a callgrind dump: `onSelf(fn, cost)` for each cost line under a `fn=`, `onCall(fn, callee, cost)`
 * for each inclusive line that follows a `calls=`. Names are compressed in the file (`(12) name` once,
 * `(12)` after), and a function callgrind could not name is its address.
 */
function walk(dumpFile, onSelf, onCall) {
  const names = new Map();
  const name = (text) => {
    const m = /^\((\d+)\)(?: (.*))?$/.exec(text);
    if (!m) return text;
    if (m[2] !== undefined) names.set(m[1], m[2]);
    return names.get(m[1]);
  };
  let fn = '?';
  let callee = '?';
  let events = 1;
  let inclusiveNext = false;
  for (const line of readFileSync(dumpFile, 'utf8').split('\n')) {
    if (line.startsWith('positions:')) events = line.slice(10).trim().split(/\s+/).length;
    else if (line.startsWith('fn=')) fn = name(line.slice(3));
    else if (line.startsWith('cfn=')) callee = name(line.slice(4));
    else if (line.startsWith('calls=')) inclusiveNext = true;
    else if (/^[0-9+\-*]/.test(line)) {
      const cost = Number(line.split(' ')[events] ?? 0);
      if (inclusiveNext) {
        inclusiveNext = false;
        onCall(fn, callee, cost);
      } else onSelf(fn, cost);
    }
  }
}

/**
 * A function's name: callgrind's, or for an address in generated code the perf map's (its tier mark
 * `*` optimised, `^` baseline, `~` interpreted kept when `tiers`).
 */
function namer(mapFile, tiers = false) {
  const lookup = perfMap(mapFile);
  return (f) => {
    const address = /^0x([0-9a-f]+)$/i.exec(f ?? '');
    const label = address ? (lookup(parseInt(address[1], 16)) ?? 'JIT code (unnamed)') : (f ?? '?');
    return tiers ? label.replace(/^JS:/, '') : label.replace(/^JS:[*~^+-]?/, '');
  };
}

/** The self cost (instructions) of every function of a callgrind dump, summed by name. */
export function selfCosts(dumpFile, mapFile) {
  const name = namer(mapFile);
  const byName = new Map();
  walk(
    dumpFile,
    (fn, cost) => {
      const label = name(fn);
      byName.set(label, (byName.get(label) ?? 0) + cost);
    },
    () => {},
  );
  return [...byName].sort((a, b) => b[1] - a[1]);
}

/**
 * The calls into every function whose name matches `pattern`, as `caller -> callee` with the callee's
 * inclusive instructions, summed by pair; JavaScript names keep their tier mark (`*nextTick`).
 */
export function callsInto(dumpFile, mapFile, pattern) {
  const name = namer(mapFile, true);
  const pairs = new Map();
  walk(
    dumpFile,
    () => {},
    (fn, callee, cost) => {
      const to = name(callee);
      if (!pattern.test(to)) return;
      const key = `${name(fn)} -> ${to}`;
      pairs.set(key, (pairs.get(key) ?? 0) + cost);
    },
  );
  return [...pairs].sort((a, b) => b[1] - a[1]);
}

/**
 * The instructions spent in V8's runtime functions (its C++ slow paths, entered through a CEntry
 * builtin), everything they call included, by function. Optimised code that calls one on every
 * request where another run of the same server does not shows how V8 compiled the code, not what the
 * server does: one run of the gateway's L6 spent 42k instructions a request in
 * Runtime_DefineKeyedOwnPropertyInLiteral (node's nextTick, optimised in that run with the call
 * on its path; why V8 compiled it so there was not found) and the next none, while a native `perf`
 * profile shows none.
 */
export function runtimeCosts(dumpFile) {
  const costs = new Map();
  walk(
    dumpFile,
    () => {},
    (fn, callee, cost) => {
      if (/^Builtins_CEntry/.test(fn ?? '') && /^v8::internal::Runtime_/.test(callee ?? '')) {
        const label = callee.replace(/^v8::internal::(Runtime_\w+).*$/, '$1');
        costs.set(label, (costs.get(label) ?? 0) + cost);
      }
    },
  );
  return [...costs].sort((a, b) => b[1] - a[1]);
}
