/**
 * The legacy route table compiled from mappings/. Compiling checks every mapping the way Cadwyn checks
 * version changes: a description is required, one mapping per legacy route, and each mapping must be
 * a route of legacy-api.md on one side and an operation of the current API on the other, checked as
 * mapping-checks.ts says. A failed check stops start-up with a message naming the file and mapping.
 */
import { z } from 'zod';
import type { IdKind } from '../contract/ids.js';
import type { Mapping, ParamTarget } from './define.js';
import { ROUTE_ID, type HttpMethod } from './legacy-routes.js';
import { compileShape, moved, type CompiledShape, type ShapeSpec } from './shape.js';
import { isReadSchema, legacyProbe } from './current-keys.js';
import {
  checkCurrentCall,
  checkCurrentKeys,
  checkCurrentReads,
  checkReadStaysRead,
  MappingError,
  splitCall,
} from './mapping-checks.js';
import { keyTree, type KeyTree } from './unknown-fields.js';

interface Segment {
  literal?: string;
  param?: string;
}

export interface CompiledMapping {
  mapping: Mapping;
  method: HttpMethod;
  segments: Segment[];
  /** Path params in path order with their targets. */
  params: { name: string; target: ParamTarget }[];
  currentMethod: string;
  currentPath: string[];
  /** The legacy body and query schemas, compiled ahead of time by zod (same answers, faster). */
  bodySchema: z.ZodType | undefined;
  querySchema: z.ZodType | undefined;
  bodyTree: KeyTree | undefined;
  queryTree: KeyTree | undefined;
  /** Request shape(s) per wrapper name ('' when unwrapped), with moved fields removed. */
  requestShapes: Map<string, CompiledShape>;
  responseShape: CompiledShape | undefined;
  /** The answer map's read schemas as one parser, when they are read schemas (tolerant): the answer is parsed once at the edge. */
  readParser: z.ZodType | undefined;
  /** The path of the response shape's object in the current answer (`at`, split once). */
  responseAt: string[];
  preflight: { method: string; path: string[] } | undefined;
  /** The translation used instead when the path parameter at `index` holds an id of `kind`. */
  alternate: { index: number; kind: IdKind; compiled: CompiledMapping } | undefined;
}

const LEGACY_METHODS: ReadonlySet<string> = new Set<HttpMethod>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

function segmentsOf(path: string): Segment[] {
  return path
    .split('/')
    .slice(1)
    .map((s) => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : { literal: s }));
}

function placeholders(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

function compile(mapping: Mapping): CompiledMapping {
  if (typeof mapping.description !== 'string' || mapping.description.trim() === '')
    throw new MappingError(mapping, 'a description is required');
  if (!ROUTE_ID.test(mapping.route))
    throw new MappingError(mapping, `route ${mapping.route}: expected a route id such as L7`);
  const [method, path] = splitCall(mapping.legacy);
  if (!LEGACY_METHODS.has(method) || !path.startsWith('/'))
    throw new MappingError(
      mapping,
      `legacy ${mapping.legacy}: expected METHOD /path (GET, POST, PUT, PATCH or DELETE)`,
    );
  const segments = segmentsOf(path);
  const declared = mapping.params ?? {};
  const params = segments
    .flatMap((s) => (s.param ? [s.param] : []))
    .map((name) => {
      const target = declared[name];
      if (!target) throw new MappingError(mapping, `path parameter ${name} has no target`);
      return { name, target };
    });
  const [currentMethod, currentPath] = splitCall(mapping.current);
  const provided = new Set(
    [...params.map((p) => p.target), ...Object.values(mapping.request?.move ?? {})]
      .filter((t) => t.to === 'path')
      .map((t) => t.name),
  );
  for (const name of placeholders(currentPath))
    if (!provided.has(name)) throw new MappingError(mapping, `current path parameter ${name} is never filled`);
  const movedSpec: ShapeSpec = Object.fromEntries(Object.keys(mapping.request?.move ?? {}).map((k) => [k, moved()]));
  const requestShapes = new Map<string, CompiledShape>();
  const shape = mapping.request?.shape;
  if (typeof mapping.request?.wrap === 'function') {
    for (const [wrap, spec] of Object.entries((shape ?? {}) as Record<string, ShapeSpec>))
      requestShapes.set(wrap, compileShape({ ...spec, ...movedSpec }));
  } else {
    requestShapes.set(mapping.request?.wrap ?? '', compileShape({ ...(shape ?? {}), ...movedSpec }));
  }
  // the actions its body is wrapped in: the request shapes' keys ('' is an unwrapped body)
  const operation = checkCurrentCall(
    mapping,
    mapping.current,
    [...requestShapes.keys()].filter((wrap) => wrap !== ''),
  );
  // the legacy schemas' key trees, computed once: the translation's unknown-field reports and the checks
  const bodyTree = mapping.body ? keyTree(mapping.body) : undefined;
  const queryTree = mapping.query ? keyTree(mapping.query.schema) : undefined;
  const probe = legacyProbe(bodyTree);
  checkCurrentKeys(mapping, operation, requestShapes, params, probe, queryTree);
  const preflightOperation = mapping.preflight ? checkCurrentCall(mapping, mapping.preflight.current, []) : undefined;
  if (mapping.preflight && !(preflightOperation!.answers ?? []).includes(mapping.preflight.reads))
    throw new MappingError(
      mapping,
      `its preflight reads a form ${mapping.preflight.current} does not answer with (src/contract/current-routes.ts)`,
    );
  checkReadStaysRead(mapping, method, operation, preflightOperation);
  const response = mapping.response;
  const responseShape = 'shape' in response ? compileShape(response.shape) : undefined;
  checkCurrentReads(mapping, operation, responseShape, probe);
  let preflight: CompiledMapping['preflight'];
  if (mapping.preflight) {
    const [m, p] = splitCall(mapping.preflight.current);
    preflight = { method: m, path: p.split(/(\{\w+\})/) };
  }
  let alternate: CompiledMapping['alternate'];
  if (mapping.byIdKind) {
    const index = params.findIndex((p) => p.name === mapping.byIdKind!.param);
    if (index < 0)
      throw new MappingError(mapping, `byIdKind names ${mapping.byIdKind.param}, which is not a path parameter`);
    const other = mapping.byIdKind.mapping as Mapping;
    if (other.route !== mapping.route || other.legacy !== mapping.legacy)
      throw new MappingError(mapping, 'byIdKind must translate the same legacy route');
    alternate = { index, kind: mapping.byIdKind.kind, compiled: compile(other) };
  }
  return {
    mapping,
    alternate,
    method: method as HttpMethod,
    segments,
    params,
    currentMethod,
    currentPath: currentPath.split(/(\{\w+\})/),
    bodySchema: mapping.body ? z.compile(mapping.body) : undefined,
    querySchema: mapping.query ? z.compile(mapping.query.schema) : undefined,
    bodyTree,
    queryTree,
    requestShapes,
    responseShape,
    readParser:
      'map' in response && response.reads.length > 0 && response.reads.every(isReadSchema)
        ? z.compile(
            response.reads.length === 1
              ? response.reads[0]!
              : z.union(response.reads as [z.ZodType, z.ZodType, ...z.ZodType[]]),
          )
        : undefined,
    responseAt: 'at' in response && response.at ? response.at.split('.') : [],
    preflight,
  };
}

export interface RouteMatch {
  compiled: CompiledMapping;
  /** Raw (still percent-encoded) path parameter values by name. */
  values: string[];
}

export interface Router {
  readonly mappings: readonly CompiledMapping[];
  match(method: string, pathname: string): RouteMatch | undefined;
}

/** Compiles and checks the mappings; throws a MappingError naming the file and the mapping. */
export function compileRouter(mappings: readonly Mapping[]): Router {
  const byRoute = new Map<string, Mapping>();
  for (const mapping of mappings) {
    const previous = byRoute.get(mapping.route);
    if (previous) throw new MappingError(mapping, `route ${mapping.route} is already mapped in ${previous.source}`);
    byRoute.set(mapping.route, mapping);
  }
  const compiled = mappings.map(compile);
  // a mapping's other legacy forms are compiled as themselves, with that form as their legacy call
  const alsoAt = mappings.flatMap((mapping) =>
    (mapping.alsoAt ?? []).map((legacy) => compile(Object.freeze({ ...mapping, legacy, alsoAt: [] }))),
  );
  // method -> segment count -> candidates: found without building a key string or splitting the path
  const buckets = new Map<string, CompiledMapping[][]>();
  for (const c of [...compiled, ...alsoAt]) {
    const byLength = buckets.get(c.method) ?? [];
    const list = (byLength[c.segments.length] ??= []);
    list.push(c);
    // literal-heavy routes first, so /sources/blockedcards-like literals win over params
    list.sort((a, b) => b.segments.filter((s) => s.literal).length - a.segments.filter((s) => s.literal).length);
    buckets.set(c.method, byLength);
  }
  return {
    mappings: compiled,
    match(method, pathname) {
      // the path's segments are walked in place (pathname.split on every request cost a runtime call)
      let count = 0;
      for (let i = pathname.indexOf('/'); i >= 0; i = pathname.indexOf('/', i + 1)) count++;
      const candidates = (buckets.get(method) ?? buckets.get(method.toUpperCase()))?.[count];
      if (!candidates || pathname.charCodeAt(0) !== 47) return undefined;
      outer: for (const c of candidates) {
        const values: string[] = [];
        let start = 1;
        for (let i = 0; i < c.segments.length; i++) {
          const seg = c.segments[i]!;
          let end = pathname.indexOf('/', start);
          if (end < 0) end = pathname.length;
          if (seg.literal !== undefined) {
            if (end - start !== seg.literal.length || !pathname.startsWith(seg.literal, start)) continue outer;
          } else {
            if (end === start) continue outer;
            values.push(pathname.slice(start, end));
          }
          start = end + 1;
        }
        return { compiled: c, values };
      }
      return undefined;
    },
  };
}
