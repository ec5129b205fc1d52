/**
 * An independent legacy upstream for shadow tests, written here from legacy-api.md (section 4), not
 * from mappings/ nor the sandbox's legacy face: the legacy routes the deployed clients use for a
 * payment (L1, L3, L4, L6, L7) and the plugins' customer (L28), each served by hand over the sandbox's current face, so both
 * generations front one store. Its answers are what a legacy client gets today.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, any>;

/** The legacy order of legacy-api.md (L1-L3): the current order with the legacy names, money flat. */
function legacyOrder(o: Json): Json {
  const rename = (from: Json | null, names: Record<string, string>) => {
    if (!from) return null;
    const out: Json = {};
    for (const [k, v] of Object.entries(from)) out[names[k] ?? k] = v;
    return out;
  };
  return {
    merchantOrderId: o.orderId, merchantId: o.merchantId, platformId: o.marketplaceId, marketplaceId: o.marketplaceId,
    internalOrderId: o.referenceOrderId, amount: o.amount.minorCurrencyUnits, currency: o.amount.currency,
    // section 4: nothing for these where the current order has nothing; amountPaid from the status
    paymentTypeAmounts: null, amountPaid: o.status === 'paid' ? o.amount.minorCurrencyUnits : 0, invoiceLineItems: null, taxIncluded: null,
    taxIncludedAmountOverride: null, request3DSOnPayment: null, emailCustomerReceipt: null,
    customerEmail: o.customerEmailAddress, phoneNo: o.customerPhoneNumber, type: o.orderType, description: o.description,
    items: o.items && o.items.map((i: Json) => { const { amount, ...rest } = i; return { ...rest, amount: amount.minorCurrencyUnits, currency: amount.currency }; }),
    discount: o.discountAmount === null ? null : { amount: o.discountAmount },
    shipping: rename(o.shipping, { phoneNumber: 'phone' }), billing: rename(o.billing, { emailAddress: 'email', phoneNumber: 'phone' }),
    metadata: o.metadata, status: o.status, createdAt: o.createdAt, updatedAt: o.updatedAt,
  };
}

/** The legacy transaction of legacy-api.md (L6): flat money, the payment named by its kind, refunds from the timeline. */
function legacyTransaction(t: Json): Json {
  const p = t.purchaseDetails;
  return {
    _id: p.transactionId, merchantId: p.merchantId, marketplaceId: p.marketplaceId ?? null, customerId: t.customerDetails?.customerId ?? null,
    merchantOrderId: p.orderId, internalOrderId: p.referenceOrderId, amount: p.amount.minorCurrencyUnits, currency: p.amount.currency,
    surchargeAmount: p.surchargeAmount, refundedAmount: p.refundedAmount, fee: t.serviceFees?.totalAmount, status: p.status,
    transactionPayType: { payCardId: `card_${String(p.transactionId).slice('tran_'.length)}` },
    statusBeforeDispute: null, lastChargeId: null, payoutId: null,
    refunds: t.timelines.filter((e: Json) => e.eventType === 'PaymentRefunded').map((e: Json) => ({ refundId: e.identifier, amount: e.amount, createdAt: e.eventTime })),
    transfers: t.transfers, metadata: p.orderMetadata, paidOn: p.paidOn, createdAt: p.createdAt, updatedAt: p.updatedAt,
  };
}

/** A legacy L1 body as the current CreateOnlineOrder (blank optional values absent, as the legacy service took them). */
function createOrder(b: Json): Json {
  const present = (v: unknown) => v !== undefined && v !== null && v !== '';
  const rename = (from: Json | undefined, names: Record<string, string>) => {
    if (!from) return undefined;
    const out: Json = {};
    for (const [k, v] of Object.entries(from)) if (present(v)) out[names[k] ?? k] = v;
    return out;
  };
  const order: Json = {
    referenceOrderId: String(b.internalOrderId), amount: { minorCurrencyUnits: b.paymentAmount.amount, currency: b.paymentAmount.currency },
    customerEmailAddress: b.customerEmail, customerPhoneNumber: b.phoneNo, description: b.description,
    items: b.items?.map((i: Json) => { const { amount, currency, ...rest } = i; return { ...rest, amount: { minorCurrencyUnits: amount, currency } }; }),
    discountAmount: b.discount?.amount, shipping: rename(b.shipping, { phone: 'phoneNumber' }), billing: rename(b.billing, { email: 'emailAddress', phone: 'phoneNumber' }), metadata: b.metadata,
  };
  for (const k of Object.keys(order)) if (!present(order[k])) delete order[k];
  return { CreateOnlineOrder: order };
}

export async function startLegacyUpstream(currentUrl: string) {
  const current = async (method: string, path: string, key: string, body?: unknown) => {
    const res = await fetch(`${currentUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : undefined };
  };
  let calls = 0;
  const handle = async (req: IncomingMessage, raw: string): Promise<[number, unknown]> => {
    const key = String(req.headers['limepay-secretkey'] ?? '');
    const url = new URL(req.url!, 'http://legacy');
    const body = raw ? (JSON.parse(raw) as Json) : {};
    const path = url.pathname;
    let m: RegExpExecArray | null;
    const fail = (r: { status: number; body?: unknown }): [number, unknown] => [r.status, r.body];
    if (req.method === 'POST' && path === '/orders') {
      const r = await current('POST', '/orders', key, createOrder(body));
      return r.status === 200 ? [200, legacyOrder(r.body!.OnlineOrder.order)] : fail(r);
    }
    if (req.method === 'GET' && (m = /^\/orders\/([^/]+)$/.exec(path))) {
      const r = await current('GET', `/orders/${m[1]}`, key);
      return r.status === 200 ? [200, legacyOrder(r.body!.OnlineOrder.order)] : fail(r);
    }
    if (req.method === 'POST' && (m = /^\/orders\/([^/]+)\/pay$/.exec(path))) {
      const action = body.paymentActionRequired
        ? { Confirm3DSComplete: { paymentTokenId: body.paymentToken, threeDSResponse: { threeDSAuthorisationId: body.paymentActionRequired.threeDSAuthorisationId }, ...(body.authoriseOnly ? { authoriseOnly: true } : {}) } }
        : { PayByCard: { paymentTokenId: body.paymentToken, ...(body.authoriseOnly ? { authoriseOnly: true } : {}) } };
      const r = await current('POST', `/orders/${m[1]}/pay`, key, action);
      if (r.status !== 200) return fail(r);
      const challenge = r.body!.ThreeDSAuthorisationRequired;
      if (challenge) return [403, { paymentToken: body.paymentToken, paymentActionRequired: { threeDSAuthorisationId: challenge.threeDSAuthorisationId, redirectURL: challenge.redirectUrl } }];
      // the current card answer is wrapped in PayOrderComplete (current-api-decisions.md, client)
      const paid = r.body!.PayOrderComplete ?? r.body!;
      return [200, { transactionId: paid.transactionId, transactionStatus: paid.transactionStatus, amount: paid.amount, currency: paid.currency, surchargeAmount: paid.surchargeAmount ?? 0, type: 'paycard' }];
    }
    if (req.method === 'GET' && (m = /^\/transactions\/([^/]+)$/.exec(path))) {
      const r = await current('GET', `/transactions/${m[1]}`, key);
      return r.status === 200 ? [200, legacyTransaction(r.body!)] : fail(r);
    }
    if (req.method === 'POST' && path === '/refunds') {
      const before = await current('GET', `/transactions/${body.transactionId}`, key);
      if (before.status !== 200) return fail(before);
      const r = await current('PATCH', `/transactions/${body.transactionId}`, key, { CreateRefund: { refundAmount: body.refundAmount.amount } });
      if (r.status !== 200) return fail(r);
      const known = new Set(before.body!.purchaseDetails.refundIds);
      return [200, { refundId: r.body!.purchaseDetails.refundIds.find((id: string) => !known.has(id)) ?? null }];
    }
    if (req.method === 'POST' && path === '/customers/plugin') {
      // L28 (observed): the body in current names already, internalCustomerId the reference
      const { internalCustomerId, ...fields } = body;
      const upsert = { ...fields, ...(internalCustomerId ? { referenceCustomerId: String(internalCustomerId) } : {}) };
      const r = await current('POST', '/customers', key, { UpsertConsumerCustomer: upsert });
      return r.status === 200 ? [200, { customerId: r.body!.customerId }] : fail(r);
    }
    return [404, { statusCode: 404, errorCode: 'route_not_found', message: 'no such legacy route', detail: `${req.method} ${path}`, tracer: 'legacy-upstream' }];
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls++;
      handle(req, Buffer.concat(chunks).toString('utf8')).then(
        ([status, body]) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
        (err: Error) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 500, errorCode: 'legacy_upstream_bug', message: err.message })),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: () => calls, close: () => new Promise((r) => server.close(r)) };
}
