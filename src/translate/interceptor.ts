/**
 * Library mode over undici: an interceptor that sends legacy calls to the current API in-process.
 * `fetch(legacyUrl, { dispatcher: new Agent().compose(bridgeInterceptor({ currentUrl })) })`
 */
import { stringifyJson } from '../contract/json.js';
import { randomUUID } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { fromUpstreamError, PaybridgeError } from '../errors.js';
import { isLegacyRequest, type Headers } from './credentials.js';
import { answerBody, errorResponse } from './answers.js';
import { headerRecord } from './headers.js';
import type { CurrentRequest, CurrentResponse, LegacyResponse } from './messages.js';
import { createTranslator, type Translator, type TranslatorOptions } from './index.js';

export interface BridgeOptions extends TranslatorOptions {
  /** Base URL of the current API the legacy calls are translated to. */
  currentUrl: string;
  /** A translator to share; default: one made from these options. */
  translator?: Translator;
}

/** undici's request headers (a flat list, pairs, or an object of values and lists) as one flat name-value list. */
function headerList(headers: Dispatcher.DispatchOptions['headers']): string[] {
  if (!headers) return [];
  if (Array.isArray(headers)) return headers.map(String);
  const list: string[] = [];
  if (typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [k, v] of headers as Iterable<[string, string]>) list.push(k, String(v));
  } else {
    for (const [k, v] of Object.entries(headers as Record<string, string | string[] | undefined>))
      if (v !== undefined) for (const one of Array.isArray(v) ? v : [v]) list.push(k, String(one));
  }
  return list;
}

async function bodyText(body: unknown): Promise<string | undefined> {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  const chunks: Buffer[] = [];
  if (
    typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function' ||
    typeof (body as Iterable<unknown>)[Symbol.iterator] === 'function'
  ) {
    for await (const chunk of body as AsyncIterable<string | Uint8Array>) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks).toString('utf8');
  }
  throw new PaybridgeError('invalid_request', 'body: unsupported body type for a legacy call');
}

/** undici's handler of one current call: collects the answer whole, then settles with it (parsed JSON when it is JSON) or with the failure as a PaybridgeError. */
class BufferingHandler implements Dispatcher.DispatchHandler {
  private status = 0;
  private type = '';
  private readonly chunks: Buffer[] = [];

  constructor(
    private readonly resolve: (answer: CurrentResponse) => void,
    private readonly reject: (err: PaybridgeError) => void,
  ) {}

  onRequestStart(): void {}

  onResponseStart(
    _c: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    this.status = statusCode;
    this.type = String(headers['content-type'] ?? '');
  }

  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.resolve({ status: this.status, body: answerBody(Buffer.concat(this.chunks).toString('utf8'), this.type) });
  }

  onResponseError(_c: Dispatcher.DispatchController, error: Error): void {
    this.reject(fromUpstreamError(error));
  }
}

/** One request through `dispatch`, the whole answer buffered: parsed JSON when it is JSON. */
function dispatchBuffered(dispatch: Dispatcher.Dispatch, opts: Dispatcher.DispatchOptions): Promise<CurrentResponse> {
  return new Promise((resolve, reject) => {
    dispatch(opts, new BufferingHandler(resolve, reject));
  });
}

function controller() {
  let aborted: Error | null = null;
  return {
    /** The answer's header lines as undici hands them over (Node 26's fetch reads them from here). */
    rawHeaders: [] as Buffer[],
    get aborted() {
      return aborted !== null;
    },
    get paused() {
      return false;
    },
    get reason() {
      return aborted;
    },
    abort(reason: Error) {
      aborted = reason;
    },
    pause() {},
    resume() {},
  };
}

function deliver(
  handler: Dispatcher.DispatchHandler,
  ctl: ReturnType<typeof controller>,
  answer: LegacyResponse,
): void {
  if (ctl.aborted) {
    handler.onResponseError?.(ctl, ctl.reason!);
    return;
  }
  const payload = answer.body === undefined ? undefined : Buffer.from(stringifyJson(answer.body));
  const headers: Record<string, string> = payload
    ? { 'content-type': 'application/json; charset=utf-8', 'content-length': String(payload.length) }
    : {};
  ctl.rawHeaders = Object.entries(headers).flatMap(([name, value]) => [
    Buffer.from(name, 'latin1'),
    Buffer.from(value, 'latin1'),
  ]);
  handler.onResponseStart?.(ctl, answer.status, headers, '');
  if (payload) handler.onResponseData?.(ctl, payload);
  handler.onResponseEnd?.(ctl, {});
}

/**
 * An undici interceptor: a request carrying a legacy credential header is translated and sent to
 * `currentUrl`, and its answer translated back; any other request passes through unchanged.
 * @example
 * const dispatcher = new Agent().compose(bridgeInterceptor({ currentUrl: 'https://api.example' }));
 * await fetch('https://legacy.example/orders/ordr_1', { headers: { 'Limepay-SecretKey': key }, dispatcher });
 */
export function bridgeInterceptor(options: BridgeOptions): Dispatcher.DispatcherComposeInterceptor {
  const translator = options.translator ?? createTranslator(options);
  const target = new URL(options.currentUrl);
  const basePath = target.pathname.replace(/\/+$/, '');
  return (dispatch) => (opts, handler) => {
    const headers: Headers = headerRecord(headerList(opts.headers));
    if (!isLegacyRequest(headers)) return dispatch(opts, handler);
    const ctl = controller();
    handler.onRequestStart?.(ctl, {});
    const send = (current: CurrentRequest) =>
      dispatchBuffered(dispatch, {
        origin: target.origin,
        path: `${basePath}${current.path}`,
        method: current.method,
        headers: current.headers,
        body: current.body === undefined ? null : stringifyJson(current.body),
      });
    bodyText(opts.body)
      .then((body) =>
        translator.execute(
          { method: opts.method, path: opts.path, headers, ...(body !== undefined ? { body } : {}) },
          send,
        ),
      )
      .catch((err: unknown) => errorResponse(err, randomUUID()))
      .then(
        (answer) => deliver(handler, ctl, answer),
        (err: Error) => handler.onResponseError?.(ctl, err),
      );
    return true;
  };
}
