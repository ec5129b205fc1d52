/**
 * An independent legacy upstream for shadow tests, written here from legacy-api.md (sections 0 and 4)
 * and current-api-decisions.md, not from mappings/, src/contract/ nor the sandbox's legacy face (it
 * imports nothing from src/): every route the deployed clients use (L1, L3, L4, L6 by transaction or
 * by order, L7, L9, L10, L12, L19, L28, L29, L30, L31), the platform's L2, L5 and L8, and the customer
 * upserts L13 and L18, each served
 * by hand over the sandbox's current face, so both generations front one store. Its answers are what a
 * legacy client gets today.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Json = Record<string, any>;

/**
 * The legacy order of legacy-api.md (L1-L3): the current order with the legacy names, money flat.
 * Without the seven fields legacy-api-changes.md item 29 added (`paymentTypeAmounts`, `amountPaid`, ...):
 * neither the mappings nor the sandbox's legacy face give them yet, and they must come to all three at once.
 */
function legacyOrder(o: Json): Json {
  const rename = (from: Json | null, names: Record<string, string>) => {
    if (!from) return null;
    const out: Json = {};
    for (const [k, v] of Object.entries(from)) out[names[k] ?? k] = v;
    return out;
  };
  return {
    merchantOrderId: o.orderId,
    merchantId: o.merchantId,
    platformId: o.marketplaceId,
    marketplaceId: o.marketplaceId,
    internalOrderId: o.referenceOrderId,
    amount: o.amount.minorCurrencyUnits,
    currency: o.amount.currency,
    // section 4: nothing for these where the current order has nothing; amountPaid from the status
    paymentTypeAmounts: null,
    amountPaid: o.status === 'paid' ? o.amount.minorCurrencyUnits : 0,
    invoiceLineItems: null,
    taxIncluded: null,
    taxIncludedAmountOverride: null,
    request3DSOnPayment: null,
    emailCustomerReceipt: null,
    customerEmail: o.customerEmailAddress,
    phoneNo: o.customerPhoneNumber,
    type: o.orderType,
    description: o.description,
    items:
      o.items &&
      o.items.map((i: Json) => {
        const { amount, ...rest } = i;
        return { ...rest, amount: amount.minorCurrencyUnits, currency: amount.currency };
      }),
    discount: o.discountAmount === null ? null : { amount: o.discountAmount },
    shipping: rename(o.shipping, { phoneNumber: 'phone' }),
    billing: rename(o.billing, { emailAddress: 'email', phoneNumber: 'phone' }),
    metadata: o.metadata,
    status: o.status,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
}

/** The legacy words for the current transaction statuses (legacy-api.md section 4: `authorised` is `not_captured`). */
const legacyStatus = (status: string) => (status === 'authorised' ? 'not_captured' : status);

/** `card_` and the opaque part of a current id after its prefix (legacy-api.md section 4, the card payment's id). */
const cardIdOf = (id: string) => `card_${id.slice(id.indexOf('_') + 1)}`;

/** The legacy transaction of legacy-api.md (L6): flat money, the payment named by its kind, refunds from the timeline. */
function legacyTransaction(t: Json): Json {
  const p = t.purchaseDetails;
  // the payment named by its kind: a card's payment id, PayTo's bank transfer (the transaction itself), a pay plan's id
  const payType =
    t.paymentMethod?.paymentMethodType === 'PayTo'
      ? { bankTransferId: p.transactionId }
      : p.payPlanId
        ? { PayPlanId: p.payPlanId }
        : { payCardId: cardIdOf(p.transactionId) };
  return {
    _id: p.transactionId,
    merchantId: p.merchantId,
    marketplaceId: p.marketplaceId ?? null,
    customerId: t.customerDetails?.customerId ?? null,
    merchantOrderId: p.orderId,
    internalOrderId: p.referenceOrderId,
    amount: p.amount.minorCurrencyUnits,
    currency: p.amount.currency,
    surchargeAmount: p.surchargeAmount,
    refundedAmount: p.refundedAmount,
    fee: t.serviceFees?.totalAmount,
    status: legacyStatus(p.status),
    transactionPayType: payType,
    statusBeforeDispute: null,
    lastChargeId: null,
    payoutId: null,
    refunds: t.timelines
      .filter((e: Json) => e.eventType === 'PaymentRefunded')
      .map((e: Json) => ({ refundId: e.identifier, amount: e.amount, createdAt: e.eventTime })),
    transfers: t.transfers,
    metadata: p.orderMetadata,
    paidOn: p.paidOn,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

/** The order of any current order answer: `OnlineOrder {order}` (current-api.md), or bare (the reference's Update and Cancel). */
const orderOf = (b: Json): Json => b.OnlineOrder?.order ?? b.order ?? b;

/** A legacy L1 body as the fields of the current CreateOnlineOrder (blank optional values absent, as the legacy service took them). */
function orderFields(b: Json): Json {
  const present = (v: unknown) => v !== undefined && v !== null && v !== '';
  const rename = (from: Json | undefined, names: Record<string, string>) => {
    if (!from) return undefined;
    const out: Json = {};
    for (const [k, v] of Object.entries(from)) if (present(v)) out[names[k] ?? k] = v;
    return out;
  };
  const order: Json = {
    referenceOrderId: String(b.internalOrderId),
    amount: { minorCurrencyUnits: b.paymentAmount.amount, currency: b.paymentAmount.currency },
    customerEmailAddress: b.customerEmail,
    customerPhoneNumber: b.phoneNo,
    description: b.description,
    items: b.items?.map((i: Json) => {
      const { amount, currency, ...rest } = i;
      return { ...rest, amount: { minorCurrencyUnits: amount, currency } };
    }),
    discountAmount: b.discount?.amount,
    shipping: rename(b.shipping, { phone: 'phoneNumber' }),
    billing: rename(b.billing, { email: 'emailAddress', phone: 'phoneNumber' }),
    metadata: b.metadata,
  };
  for (const k of Object.keys(order)) if (!present(order[k])) delete order[k];
  return order;
}

/** The fields with a value (the legacy service took null and "" as absent). */
const present = (fields: Json): Json =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null && v !== ''));

/** A legacy error of the legacy shape (legacy-api.md section 5), for what this service refuses itself. */
const refused = (status: number, errorCode: string, detail: string): [number, Json] => [
  status,
  { statusCode: status, errorCode, message: detail, detail, tracer: 'legacy-upstream' },
];

/** A legacy service that departs from the contract on purpose: the answer it gives instead, for a request it picks. */
export type Quirk = (method: string, path: string) => [number, unknown] | undefined;

export async function startLegacyUpstream(currentUrl: string, quirk?: Quirk) {
  const current = async (
    method: string,
    path: string,
    key: string,
    body?: unknown,
    context: Record<string, string> = {},
  ) => {
    const res = await fetch(`${currentUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/json',
        ...context,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : undefined };
  };
  /**
   * A current action under the name current-api-decisions.md gives it now, or, when the service answers
   * that it knows no such action, under the name the same file gave it before (the sandbox may be behind).
   */
  const action = async (
    method: string,
    path: string,
    key: string,
    fields: Json,
    names: [string, string],
    context?: Record<string, string>,
  ) => {
    const r = await current(method, path, key, { [names[0]]: fields }, context);
    const unknown =
      r.status === 400 && typeof r.body?.detail === 'string' && r.body.detail.includes(`unknown action "${names[0]}"`);
    return unknown ? current(method, path, key, { [names[1]]: fields }, context) : r;
  };
  const fail = (r: { status: number; body?: unknown }): [number, unknown] => [r.status, r.body];
  const ok = (r: { status: number; body?: Json }, answer: (body: Json) => unknown, status = 200): [number, unknown] =>
    r.status === 200 ? [status, answer(r.body!)] : fail(r);

  /** L4/L5 (legacy-api.md section 4): PayByCard, or Confirm3DSComplete with the 3DS action; a challenge is a 403. */
  const pay = async (
    key: string,
    order: string,
    body: Json,
    context?: Record<string, string>,
  ): Promise<[number, unknown]> => {
    const authoriseOnly = body.authoriseOnly ? { authoriseOnly: true } : {};
    const action = body.paymentActionRequired
      ? {
          Confirm3DSComplete: {
            paymentTokenId: body.paymentToken,
            threeDSResponse: { threeDSAuthorisationId: body.paymentActionRequired.threeDSAuthorisationId },
            ...authoriseOnly,
          },
        }
      : {
          PayByCard: {
            paymentTokenId: body.paymentToken,
            ...(body.request3DS ? { request3DS: true } : {}),
            ...authoriseOnly,
          },
        };
    const r = await current('POST', `/orders/${order}/pay`, key, action, context);
    if (r.status !== 200) return fail(r);
    const challenge = r.body!.ThreeDSAuthorisationRequired;
    if (challenge)
      return [
        403,
        {
          paymentToken: body.paymentToken,
          paymentActionRequired: {
            threeDSAuthorisationId: challenge.threeDSAuthorisationId,
            redirectURL: challenge.redirectUrl,
          },
        },
      ];
    // flat (current-api.md), or inside PayOrderComplete with its figures flat or in transactionDetails (the guide, the reference)
    const paid = r.body!.PayOrderComplete ?? r.body!;
    const details = paid.transactionDetails?.purchaseDetails;
    const payType = paid.payType ?? paid.type ?? details?.payType;
    return [
      200,
      {
        transactionId: paid.transactionId,
        transactionStatus: legacyStatus(paid.transactionStatus ?? details?.status),
        amount: paid.amount ?? details?.amount.minorCurrencyUnits,
        currency: paid.currency ?? details?.amount.currency,
        surchargeAmount: paid.surchargeAmount ?? details?.surchargeAmount ?? 0,
        type: String(payType).toLowerCase() === 'payinfull' ? 'paycard' : 'payplan',
      },
    ];
  };
  /**
   * L7/L8, one refund of a transaction at a time (legacy-api.md: the id answered is never one another
   * call can also have been answered with).
   */
  const refunding = new Map<string, Promise<unknown>>();
  const refund = (key: string, body: Json, context?: Record<string, string>): Promise<[number, unknown]> => {
    const transaction = String(body.transactionId);
    const done = (refunding.get(transaction) ?? Promise.resolve()).then(() => refundOnce(key, body, context));
    const settled = done.catch(() => undefined);
    refunding.set(transaction, settled);
    void settled.then(() => refunding.get(transaction) === settled && refunding.delete(transaction));
    return done;
  };
  /** L7/L8: the currency checked against the transaction first, the refund's id the one new in the answer. */
  const refundOnce = async (key: string, body: Json, context?: Record<string, string>): Promise<[number, unknown]> => {
    const before = await current('GET', `/transactions/${body.transactionId}`, key, undefined, context);
    if (before.status !== 200) return fail(before);
    if (before.body!.purchaseDetails.amount.currency !== body.refundAmount.currency)
      return refused(
        400,
        'currency_mismatch',
        `refundAmount.currency: the transaction is in ${before.body!.purchaseDetails.amount.currency}`,
      );
    const r = await current(
      'PATCH',
      `/transactions/${body.transactionId}`,
      key,
      { CreateRefund: { refundAmount: body.refundAmount.amount } },
      context,
    );
    if (r.status !== 200) return fail(r);
    const known = new Set(before.body!.purchaseDetails.refundIds);
    return [200, { refundId: r.body!.purchaseDetails.refundIds.find((id: string) => !known.has(id)) ?? null }];
  };
  /** L6 given an order id: the order's most recent transaction, every page read, an item kept only if it is the order's. */
  const transactionOfOrder = async (key: string, order: string): Promise<[number, unknown]> => {
    const mine: Json[] = [];
    for (let page = 1; ; page++) {
      const r = await current('GET', `/transactions?orderId=${order}&limit=100&page=${page}`, key);
      if (r.status !== 200) return fail(r);
      const items = r.body as unknown as Json[];
      mine.push(...items.filter((t) => t.purchaseDetails?.orderId === order));
      if (items.length < 100) break;
    }
    const latest = mine.sort((a, b) => (a.purchaseDetails.createdAt < b.purchaseDetails.createdAt ? 1 : -1))[0];
    return latest
      ? [200, legacyTransaction(latest)]
      : refused(404, 'not_found', `${order}: the order has no transaction`);
  };
  /** L9: captureAmount an integer, a money object (its currency checked first) or absent (the whole authorisation). */
  const capture = async (key: string, transaction: string, body: Json): Promise<[number, unknown]> => {
    const asked = body.captureAmount;
    if (typeof asked === 'object' && asked !== null) {
      const before = await current('GET', `/transactions/${transaction}`, key);
      if (before.status !== 200) return fail(before);
      if (before.body!.purchaseDetails.amount.currency !== asked.currency)
        return refused(
          400,
          'currency_mismatch',
          `captureAmount.currency: the transaction is in ${before.body!.purchaseDetails.amount.currency}`,
        );
    }
    const amount = typeof asked === 'object' && asked !== null ? asked.amount : asked;
    return ok(
      await current('PATCH', `/transactions/${transaction}`, key, {
        CaptureFunds: amount === undefined || amount === null ? {} : { amount },
      }),
      legacyTransaction,
    );
  };

  type Handler = (m: RegExpExecArray, body: Json, key: string) => Promise<[number, unknown]>;
  const platform = (m: RegExpExecArray) => ({ 'Marketplace-Id': m[1]!, 'Merchant-Id': m[2]! });
  const ROUTES: [string, RegExp, Handler][] = [
    // L1, L2
    [
      'POST',
      /^\/orders$/,
      async (_m, b, key) =>
        ok(await current('POST', '/orders', key, { CreateOnlineOrder: orderFields(b) }), (o) =>
          legacyOrder(orderOf(o)),
        ),
    ],
    [
      'POST',
      /^\/platforms\/([^/]+)\/merchants\/([^/]+)\/orders$/,
      async (m, b, key) =>
        ok(await current('POST', '/orders', key, { CreateOnlineOrder: orderFields(b) }, platform(m)), (o) =>
          legacyOrder(orderOf(o)),
        ),
    ],
    // L3, L12 (the reference's Cancel Order), L30 (Update Order)
    [
      'GET',
      /^\/orders\/([^/]+)$/,
      async (m, _b, key) => ok(await current('GET', `/orders/${m[1]}`, key), (o) => legacyOrder(orderOf(o))),
    ],
    [
      'DELETE',
      /^\/orders\/([^/]+)$/,
      async (m, _b, key) => ok(await current('DELETE', `/orders/${m[1]}`, key), (o) => legacyOrder(orderOf(o))),
    ],
    [
      'PATCH',
      /^\/orders\/([^/]+)$/,
      async (m, b, key) =>
        ok(
          await current('PATCH', `/orders/${m[1]}`, key, {
            UpdateReferenceOrderId: { referenceOrderId: String(b.internalOrderId) },
          }),
          (o) => legacyOrder(orderOf(o)),
        ),
    ],
    // L4, L5
    ['POST', /^\/orders\/([^/]+)\/pay$/, (m, b, key) => pay(key, m[1]!, b)],
    [
      'POST',
      /^\/platforms\/([^/]+)\/merchants\/([^/]+)\/orders\/([^/]+)\/pay$/,
      (m, b, key) => pay(key, m[3]!, b, platform(m)),
    ],
    // L6: a transaction, or an order's (the .NET SDK's tests)
    [
      'GET',
      /^\/transactions\/([^/]+)$/,
      async (m, _b, key) =>
        m[1]!.startsWith('ordr_')
          ? transactionOfOrder(key, m[1]!)
          : ok(await current('GET', `/transactions/${m[1]}`, key), legacyTransaction),
    ],
    // L7, L8
    ['POST', /^\/refunds$/, (_m, b, key) => refund(key, b)],
    ['POST', /^\/platforms\/([^/]+)\/refunds$/, (m, b, key) => refund(key, b, { 'Marketplace-Id': m[1]! })],
    // L9, L10
    ['POST', /^\/transactions\/([^/]+)\/authorisation:capture$/, (m, b, key) => capture(key, m[1]!, b)],
    [
      'DELETE',
      /^\/transactions\/([^/]+)\/authorisation$/,
      async (m, _b, key) =>
        ok(await current('PATCH', `/transactions/${m[1]}`, key, { CancelAuthorisation: {} }), legacyTransaction),
    ],
    // L19: a token from a saved card, 201 {paymentTokenId, payCardId}
    [
      'POST',
      /^\/payments\/saved-card$/,
      async (_m, b, key) => {
        const fields = {
          paymentSourceId: b.cardPaymentSourceId,
          amount: { minorCurrencyUnits: b.paymentAmount.amount, currency: b.paymentAmount.currency },
        };
        const r = await action(
          'POST',
          '/tokens',
          key,
          fields,
          ['CreateSavedPaymentSourceToken', 'CardPaymentSourceId'],
          b.customerId ? { 'Customer-Id': b.customerId } : {},
        );
        return ok(
          r,
          (t) => {
            const token = (t.SavedPaymentSourceToken ?? t.CardToken ?? t).paymentTokenId as string;
            return { paymentTokenId: token, payCardId: cardIdOf(token) };
          },
          201,
        );
      },
    ],
    // L28 (observed): the body in current names already, internalCustomerId the reference
    [
      'POST',
      /^\/customers\/plugin$/,
      async (_m, b, key) => {
        const { internalCustomerId, ...fields } = b;
        const upsert = {
          ...fields,
          ...(internalCustomerId ? { referenceCustomerId: String(internalCustomerId) } : {}),
        };
        return ok(await current('POST', '/customers', key, { UpsertConsumerCustomer: upsert }), (c) => ({
          customerId: c.customerId,
        }));
      },
    ],
    // L13: a consumer, in the reference's names or the older ones (the reference's winning); the current
    // consumer upsert has no address and no isVerified: not sent. Answered with the bare id string.
    [
      'POST',
      /^\/customers\/consumer$/,
      async (_m, b, key) => {
        const fields: Json = {
          referenceCustomerId: b.internalCustomerId === undefined ? undefined : String(b.internalCustomerId),
          emailAddress: b.emailAddress ?? b.email,
          phoneNumber: b.phoneNumber ?? b.phoneno,
          givenName: b.givenName ?? b.firstName,
          middleName: b.middleName,
          familyName: b.familyName ?? b.lastName,
        };
        return ok(
          await current('POST', '/customers', key, { UpsertConsumerCustomer: present(fields) }),
          (c) => c.customerId,
        );
      },
    ],
    // L18: an organisation: businessName from organisationName, abn from taxId (or the older businessName, abn, email)
    [
      'POST',
      /^\/customers\/organisation$/,
      async (_m, b, key) => {
        const fields: Json = {
          referenceCustomerId: b.internalCustomerId === undefined ? undefined : String(b.internalCustomerId),
          businessName: b.organisationName ?? b.businessName,
          abn: b.taxId ?? b.abn,
          emailAddress: b.emailAddress ?? b.email,
        };
        return ok(
          await current('POST', '/customers', key, { UpsertOrganisationCustomer: present(fields) }),
          (c) => c.customerId,
        );
      },
    ],
    // L29: the reference's sign-in, answered {customToken}
    [
      'POST',
      /^\/authn\/tenants\/accounts:signinCustomerWithCustomerId$/,
      async (_m, b, key) =>
        ok(await current('POST', '/auth/signin', key, { SignInConsumer: { customerId: b.customerId } }), (s) => ({
          customToken: s.customToken,
        })),
    ],
    // L31: a pay-by-link order; `sendEmail` wins over the .NET SDK's `SendEmail`
    [
      'POST',
      /^\/orders\/invoices$/,
      async (_m, b, key) => {
        const sendEmail = b.sendEmail ?? b.SendEmail;
        const fields = {
          ...orderFields(b.orderRequest),
          ...(b.sendSms === undefined ? {} : { sendSms: b.sendSms }),
          ...(sendEmail === undefined ? {} : { sendEmail }),
        };
        const r = await action('POST', '/orders', key, fields, ['CreatePayByLink', 'CreatePayByLinkOrder']);
        return ok(r, (o) => {
          const link = o.PayByLinkOrder ?? o;
          return { order: legacyOrder(link.order), token: link.token, magicLink: link.magicLink };
        });
      },
    ],
  ];

  /** Which legacy routes were served, "METHOD path" as the clients call them (path ids as sent), in order. */
  const served: string[] = [];
  const handle = async (req: IncomingMessage, raw: string): Promise<[number, unknown]> => {
    const key = String(
      req.headers['limepay-secretkey'] ?? req.headers['limepay-token'] ?? req.headers['limepay-publickey'] ?? '',
    );
    const path = new URL(req.url!, 'http://legacy').pathname;
    const body = raw ? (JSON.parse(raw) as Json) : {};
    const instead = quirk?.(req.method!, path);
    if (instead) return instead;
    for (const [method, pattern, handler] of ROUTES) {
      const m = req.method === method ? pattern.exec(path) : null;
      if (!m) continue;
      served.push(`${method} ${path}`);
      return handler(m, body, key);
    }
    return [
      404,
      {
        statusCode: 404,
        errorCode: 'route_not_found',
        message: 'no such legacy route',
        detail: `${req.method} ${path}`,
        tracer: 'legacy-upstream',
      },
    ];
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, Buffer.concat(chunks).toString('utf8')).then(
        ([status, body]) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
        (err: Error) =>
          res
            .writeHead(500, { 'content-type': 'application/json' })
            .end(JSON.stringify({ statusCode: 500, errorCode: 'legacy_upstream_bug', message: err.message })),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    close: () => new Promise((r) => server.close(r)),
  };
}
