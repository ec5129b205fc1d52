/**
 * Every upstream call of the gateway: one keep-alive undici Pool per origin, each exchange dispatched
 * with a handler that collects the answer as one buffer (no stream objects, no per-call timers), under
 * the request's deadline. A failure is a PaybridgeError (502 upstream_error, 504 upstream_timeout).
 * Nothing is ever sent twice except a GET whose connection was reset, retried once.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Pool, type Dispatcher } from 'undici';
import { stringifyJson } from '../contract/json.js';
import { fromUpstreamError, PaybridgeError } from '../errors.js';
import { answerBody } from '../translate/answers.js';
import { endToEnd, headerList } from './headers.js';
import type { CurrentRequest, CurrentResponse } from '../translate/messages.js';

export interface UpstreamOptions {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
  /** Deadline of one whole exchange (headers and body). */
  requestMs: number;
  /** Largest upstream answer read, in bytes. */
  maxResponseBytes?: number;
  /** Connections per upstream origin at most; a call beyond them waits for one (default 512). */
  connections?: number;
}

const RESET_CODES = new Set(['ECONNRESET', 'UND_ERR_SOCKET']);

interface Base {
  pool: Pool;
  path: string;
}

/** One request as it goes upstream; headers by name, or as a flat [name, value, ...] list. */
export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[]> | string[];
  body?: string | Buffer | undefined;
}

/** One whole upstream answer. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The same, the body as text and the hop-by-hop headers removed (a shadow exchange's primary). */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  text: string;
}

const EMPTY = Buffer.alloc(0);

/**
 * Collects one exchange. Its timeouts are watched by the upstream's sweep (one timer for all calls):
 * no answer headers within headersMs of sending, a pause in the body longer than bodyMs, or the
 * request's deadline passed however slowly the answer trickles in: the exchange is aborted.
 */
class Collector implements Dispatcher.DispatchHandler {
  controller: Dispatcher.DispatchController | undefined;
  status = 0;
  headers: IncomingHttpHeaders = {};
  chunks: Buffer[] = [];
  size = 0;
  started = false;
  finished = false;
  /**
   * Something happened since the last sweep (the call was sent, its headers came, a body chunk): the
   * sweep then moves lastActivity to its own time. A flag, not a clock read per callback: the timeouts
   * are only looked at by the sweep, so an activity's time is known to the sweep's interval either way.
   */
  active = false;
  /** Neighbours in the list of calls in flight (see InFlight). */
  prev: Collector | undefined;
  next: Collector | undefined;

  constructor(
    readonly deadline: number,
    /** When the sweep last saw activity, or the call was made (epoch ms). */
    public lastActivity: number,
    private readonly limit: number,
    private readonly done: (err: Error | null, collector: Collector) => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    this.active = true;
    // past its deadline while it waited for a connection: never sent
    if (this.finished) controller.abort(new Error('the request deadline passed before the call was sent'));
  }

  onResponseStart(controller: Dispatcher.DispatchController, status: number, headers: IncomingHttpHeaders): void {
    if (status < 200) return;
    this.started = true;
    this.active = true;
    this.status = status;
    this.headers = headers;
    if (Number(headers['content-length'] ?? 0) > this.limit) controller.abort(tooLarge(this.limit));
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.active = true;
    this.size += chunk.length;
    if (this.size > this.limit) controller.abort(tooLarge(this.limit));
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.finish(null);
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.finish(err);
  }

  /** Ends the exchange once; later callbacks (an abort after the deadline) are ignored. */
  finish(err: Error | null): void {
    if (this.finished) return;
    this.finished = true;
    this.done(err, this);
    // the dispatcher may hold the handler a while: let the answer go now
    this.chunks = [];
    this.headers = {};
  }

  body(): Buffer {
    return this.chunks.length === 1
      ? this.chunks[0]!
      : this.chunks.length === 0
        ? EMPTY
        : Buffer.concat(this.chunks, this.size);
  }
}

/**
 * The calls in flight, as a linked list through the collectors: adding and removing are two pointer
 * writes. A Set churned by ten thousand adds and deletes a second keeps deleted entries until it
 * rehashes, and everything they reference survived young-generation collections (measured: 1.7 MB
 * promoted per scavenge, five times the scavenge time).
 */
class InFlight {
  private head: Collector | undefined;
  /** How many calls are in flight (the gateway's paybridge_upstream_in_flight gauge). */
  size = 0;

  add(c: Collector): void {
    this.size++;
    c.next = this.head;
    if (this.head) this.head.prev = c;
    this.head = c;
  }

  delete(c: Collector): void {
    this.size--;
    if (c.prev) c.prev.next = c.next;
    else if (this.head === c) this.head = c.next;
    if (c.next) c.next.prev = c.prev;
    c.prev = c.next = undefined;
  }

  *[Symbol.iterator](): IterableIterator<Collector> {
    for (let c = this.head; c;) {
      const next = c.next;
      yield c;
      c = next;
    }
  }
}

function tooLarge(limit: number): PaybridgeError {
  return new PaybridgeError('upstream_error', `the upstream answer exceeds ${limit} bytes`);
}

export function createUpstream(options: UpstreamOptions) {
  const maxBytes = options.maxResponseBytes ?? 16 * 1024 * 1024;
  const pools = new Map<string, Pool>();
  const bases = new Map<string, Base>();
  const baseOf = (url: string): Base => {
    let base = bases.get(url);
    if (!base) {
      const parsed = new URL(url);
      let pool = pools.get(parsed.origin);
      if (!pool) {
        pool = new Pool(parsed.origin, {
          connect: { timeout: options.connectMs },
          // watched by the sweep below: undici's own timers make two timer objects per request
          headersTimeout: 0,
          bodyTimeout: 0,
          keepAliveTimeout: 30_000,
          connections: options.connections ?? 512,
        });
        pools.set(parsed.origin, pool);
      }
      base = { pool, path: parsed.pathname.replace(/\/+$/, '') };
      bases.set(url, base);
    }
    return base;
  };

  // One sweep for every call in flight: a call past a timeout is aborted and answered 504.
  const inFlight = new InFlight();
  const deadlineError = () =>
    new PaybridgeError(
      'upstream_timeout',
      `the upstream did not answer within the request deadline (${options.requestMs} ms)`,
    );
  const timedOut = (collector: Collector, now: number): PaybridgeError | undefined => {
    if (collector.deadline <= now) return deadlineError();
    if (!collector.started && now - collector.lastActivity > options.headersMs)
      return new PaybridgeError(
        'upstream_timeout',
        `the upstream sent no answer headers within ${options.headersMs} ms`,
      );
    if (collector.started && now - collector.lastActivity > options.bodyMs)
      return new PaybridgeError(
        'upstream_timeout',
        `the upstream answer body stalled for more than ${options.bodyMs} ms`,
      );
    return undefined;
  };
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const collector of inFlight) {
        if (collector.active) {
          collector.active = false;
          collector.lastActivity = now;
        }
        const error = timedOut(collector, now);
        if (!error) continue;
        collector.finish(error);
        collector.controller?.abort(error);
      }
    },
    Math.min(250, Math.max(10, Math.floor(Math.min(options.requestMs, options.headersMs, options.bodyMs) / 20))),
  );
  sweep.unref();

  /** Sends one exchange; `done` is called once, with the whole answer or the failure. */
  function once(
    base: Base,
    request: RawRequest,
    deadline: number,
    done: (err: Error | null, collector: Collector) => void,
  ): void {
    const now = Date.now();
    const collector = new Collector(deadline, now, maxBytes, (err, c) => {
      inFlight.delete(c);
      done(err, c);
    });
    if (deadline <= now) return collector.finish(deadlineError());
    inFlight.add(collector);
    base.pool.dispatch(
      { path: base.path + request.path, method: request.method, headers: request.headers, body: request.body ?? null },
      collector,
    );
  }

  /**
   * One exchange, the answer whole, handed to `read` (which must not throw; default: as it came). A GET whose connection
   * was reset before an answer is sent once more; nothing else is ever sent twice. One promise per
   * exchange: the retry and the reading happen in the collector's callback. It never throws: a call
   * that fails as it starts (an unusable base URL, a dispatch refused) is a rejection like one that fails later.
   */
  function exchange(baseUrl: string, request: RawRequest, deadline: number): Promise<Answer>;
  function exchange<T>(baseUrl: string, request: RawRequest, deadline: number, read: (answer: Answer) => T): Promise<T>;
  function exchange<T>(
    baseUrl: string,
    request: RawRequest,
    deadline: number,
    read: (answer: Answer) => T = wholeAnswer as (answer: Answer) => T,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const base = baseOf(baseUrl);
      let retried = false;
      const done = (err: Error | null, c: Collector): void => {
        if (!err) return resolve(read({ status: c.status, headers: c.headers, body: c.body() }));
        if (
          !retried &&
          request.method === 'GET' &&
          !(err instanceof PaybridgeError) &&
          RESET_CODES.has((err as { code?: string }).code ?? '')
        ) {
          retried = true;
          return once(base, request, deadline, done);
        }
        reject(fromUpstreamError(err));
      };
      once(base, request, deadline, done);
    });
  }

  /**
   * One current call; throws PaybridgeError on failure. `deadline` (epoch ms) is the request's, shared
   * by every call it makes (a refund's preflight read and the refund); default: requestMs from now.
   * `extraHeaders` (forwarding, trace context) go beside the translated ones.
   */
  function call(
    baseUrl: string,
    current: CurrentRequest,
    requestId: string,
    deadline = Date.now() + options.requestMs,
    extraHeaders?: Record<string, string>,
  ): Promise<CurrentResponse> {
    const headers = headerList(current.headers, extraHeaders, requestId);
    const request: RawRequest = {
      method: current.method,
      path: current.path,
      headers,
      body: current.body === undefined ? undefined : stringifyJson(current.body),
    };
    return exchange(baseUrl, request, deadline, readCurrent);
  }

  /**
   * One request forwarded as it came (method, path, headers, body) with `x-request-id` set, the whole
   * answer buffered: the primary call of a sampled shadow exchange, whose answer is both served and compared.
   */
  function forward(
    baseUrl: string,
    request: RawRequest & { headers: Record<string, string | string[]> },
    requestId: string,
    deadline = Date.now() + options.requestMs,
    extraHeaders?: Record<string, string>,
  ): Promise<RawAnswer> {
    const headers = headerList(request.headers, extraHeaders, requestId);
    return exchange(
      baseUrl,
      { method: request.method, path: request.path, headers, body: request.body },
      deadline,
      readRaw,
    );
  }

  /** Closes every connection once its calls are answered; `abandon`: at once, calls in flight cut off (their outcome no longer waited for). */
  async function close(abandon = false): Promise<void> {
    clearInterval(sweep);
    await Promise.all([...pools.values()].map((pool) => (abandon ? pool.destroy() : pool.close())));
  }

  /** Calls sent (or waiting for a connection) and not yet answered or failed. */
  const inFlightCount = () => inFlight.size;

  return { call, forward, exchange, close, inFlight: inFlightCount };
}

/** A current answer: the body parsed when it is JSON. */
const readCurrent = (answer: Answer): CurrentResponse => ({
  status: answer.status,
  body: answerBody(answer.body.toString('utf8'), answer.headers['content-type']),
});

/** A forwarded answer as text, hop-by-hop headers removed. */
const readRaw = (answer: Answer): RawAnswer => ({
  status: answer.status,
  headers: endToEnd(answer.headers),
  text: answer.body.toString('utf8'),
});

const wholeAnswer = (answer: Answer): Answer => answer;

export type Upstream = ReturnType<typeof createUpstream>;
