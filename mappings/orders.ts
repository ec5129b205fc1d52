import { z } from 'zod';
import {
  amountInt,
  blankable,
  countryCode,
  currencyCode,
  email,
  legacyCount,
  legacyReference,
  longText,
  metadata,
  phone,
  shortText,
} from '../src/contract/zod-helpers.js';
import { orderResponse as currentOrder } from '../src/contract/current-responses.js';
import { bareOrderRead, payByLinkRead, wrappedOrderRead } from './reads.js';
import {
  checkWrite,
  defineMapping,
  readAnswer,
  stringAt,
  toHeader,
  toPath,
  unlike,
  type WriteOutcome,
} from '../src/translate/define.js';
import {
  alias,
  compileShape,
  flatten,
  money,
  moved,
  rename,
  unwrap,
  verbatim,
  type Obj,
  type ShapeSpec,
} from '../src/translate/shape.js';
import { BILLING, LEGACY_ORDER, legacyMoney, ORDER_ITEM, SHIPPING } from './shapes.js';
import { ok, ORDER_ANSWER } from './answers.js';

const blankAddress = z.object({
  line1: blankable(shortText),
  line2: blankable(shortText),
  city: blankable(shortText),
  state: blankable(shortText),
  postalCode: blankable(z.string().max(16)),
  country: blankable(countryCode),
});

/**
 * The create-order body deployed legacy plugins send (legacy-api.md sections 0 and 4, L1/L2): optional
 * fields may be null or "", quantities may be written as decimals, and the .NET SDK adds `orderType`
 * and `shipping.{carrier, phone, trackingNumber}`.
 */
export const createOrderBody = z.object({
  internalOrderId: legacyReference,
  paymentAmount: legacyMoney(1),
  description: longText,
  customerEmail: blankable(email),
  phoneNo: blankable(phone),
  items: blankable(
    z
      .array(
        z.object({
          description: shortText,
          quantity: legacyCount(1, 100_000),
          amount: amountInt(0),
          currency: currencyCode,
          sku: blankable(shortText),
          imageUrl: blankable(z.string().max(2048)),
        }),
      )
      .max(500),
  ),
  discount: blankable(z.object({ amount: amountInt(0) })),
  shipping: blankable(
    z.object({
      amount: blankable(amountInt(0)),
      address: blankable(blankAddress),
      name: blankable(shortText),
      phone: blankable(phone),
      carrier: blankable(shortText),
      trackingNumber: blankable(shortText),
    }),
  ),
  billing: z.object({
    address: blankable(blankAddress),
    name: blankable(shortText),
    email: blankable(email),
    phone: blankable(phone),
  }),
  metadata: blankable(metadata),
  // named by the current action (CreateOnlineOrder); accepted and dropped
  orderType: blankable(z.string().max(64)),
});

/** Legacy create-order body -> CreateOnlineOrder; absent fields stay absent, metadata is carried as is. */
export const ORDER_REQUEST: ShapeSpec = {
  internalOrderId: 'referenceOrderId',
  paymentAmount: money('amount'),
  customerEmail: 'customerEmailAddress',
  phoneNo: 'customerPhoneNumber',
  items: rename('items', ORDER_ITEM),
  discount: unwrap('discountAmount', 'amount'),
  shipping: rename('shipping', SHIPPING),
  billing: rename('billing', BILLING),
  metadata: verbatim(),
  orderType: moved(),
};

const compiledOrder = compileShape(LEGACY_ORDER);
/** Legacy fields a current order may not carry: null in the legacy answer (legacy-api.md section 4), never missing. */
const NULL_WHEN_ABSENT = [
  'platformId',
  'marketplaceId',
  'customerEmail',
  'phoneNo',
  'description',
  'items',
  'discount',
  'shipping',
  'billing',
  'metadata',
] as const;
const legacyOrder = {
  backward(order: Obj): Obj {
    const legacy = compiledOrder.backward(order);
    for (const key of NULL_WHEN_ABSENT) legacy[key] ??= null;
    // an order that names no type is what CreateOnlineOrder makes (current-api.md has no orderType)
    legacy.type ??= 'online';
    return legacy;
  },
};
/**
 * The legacy order from either form of a current order answer: wrapped in `OnlineOrder {order}`
 * (current-api.md; Get and Create) or bare (the reference's Update and Cancel); the gateway reads both.
 */
const orderResponse = readAnswer([wrappedOrderRead, bareOrderRead], (body) => {
  const wrapped = (body as Partial<z.output<typeof wrappedOrderRead>>).OnlineOrder;
  return legacyOrder.backward(wrapped ? wrapped.order : body);
});
const orderAnswer = ok(ORDER_ANSWER);

/** Shadow readback of a created order: read it back by the id the answer carries. */
const readOrderAt =
  (path: string) =>
  ({ answer }: WriteOutcome) => {
    const id = stringAt(answer, path);
    return id ? `/orders/${id}` : undefined;
  };
const readOrder = readOrderAt('merchantOrderId');

type CurrentOrderAnswer = z.output<typeof currentOrder>;

/** The order is at a later version than the one the legacy answer shows (the client's next write of it). */
const orderMoved = (state: CurrentOrderAnswer, { answer }: WriteOutcome) => {
  const seen = stringAt(answer, 'updatedAt') ?? stringAt(answer, 'order.updatedAt');
  return seen === undefined || state.OnlineOrder.order.updatedAt > seen;
};

/** The order the state read shows, holding the fields an order action sets under their own names. */
const theOrder = (state: CurrentOrderAnswer) => state.OnlineOrder.order;

/** Shadow's check of an order's create: the order read by the id the legacy answer carries (the create answers as Get does). */
const checkCreateOrder = checkWrite({
  state: readOrder,
  reads: currentOrder,
  answer: (state) => ({ status: 200, body: state }),
  // every field the translated create sets, and none it does not (issue 55: derived, not listed)
  effect: { at: theOrder, unset: 'absent' },
  moved: orderMoved,
});

/** Shadow's check of an order action (L11, L12, L30): the order on the path, answered bare (the reference). */
const checkOrderAction = (also?: (order: CurrentOrderAnswer['OnlineOrder']['order']) => ReturnType<typeof unlike>) =>
  checkWrite({
    state: ({ params }) => `/orders/${params.merchantOrderId}`,
    reads: currentOrder,
    answer: (state) => ({ status: 200, body: state?.OnlineOrder.order }),
    effect: {
      at: theOrder,
      unset: 'kept',
      ...(also ? { also: (state: CurrentOrderAnswer) => also(state.OnlineOrder.order) } : {}),
    },
    moved: orderMoved,
  });

export const createOrder = defineMapping({
  route: 'L1',
  description:
    'Create an order with the merchant secret key: the legacy body becomes CreateOnlineOrder (internalOrderId -> referenceOrderId, paymentAmount -> amount {minorCurrencyUnits}, discount.amount -> discountAmount).',
  legacy: 'POST /orders',
  current: 'POST /orders',
  body: createOrderBody,
  request: { wrap: 'CreateOnlineOrder', shape: ORDER_REQUEST },
  response: orderResponse,
  answers: orderAnswer,
  readback: readOrder,
  writeCheck: checkCreateOrder,
});

export const createPlatformOrder = defineMapping({
  route: 'L2',
  description:
    'Create an order for a sub-merchant with the platform API key: platformId and merchantId leave the path for Marketplace-Id and Merchant-Id.',
  legacy: 'POST /platforms/{platformId}/merchants/{merchantId}/orders',
  current: 'POST /orders',
  params: { platformId: toHeader('Marketplace-Id', 'marketplace'), merchantId: toHeader('Merchant-Id', 'merchant') },
  body: createOrderBody,
  request: { wrap: 'CreateOnlineOrder', shape: ORDER_REQUEST },
  response: orderResponse,
  answers: orderAnswer,
  readback: readOrder,
  writeCheck: checkCreateOrder,
});

export const getOrder = defineMapping({
  route: 'L3',
  description:
    'Read an order: merchantOrderId is the current orderId; the answer is rebuilt in the legacy order shape.',
  legacy: 'GET /orders/{merchantOrderId}',
  current: 'GET /orders/{orderId}',
  params: { merchantOrderId: toPath('orderId', 'order') },
  response: orderResponse,
  answers: orderAnswer,
});

/** L11 and L30: a new internalOrderId for the order on the path, as the UpdateReferenceOrderId action. */
const updateReference = {
  current: 'PATCH /orders/{orderId}',
  params: { merchantOrderId: toPath('orderId', 'order') },
  body: z.object({ internalOrderId: legacyReference }),
  request: { wrap: 'UpdateReferenceOrderId' },
  response: orderResponse,
  answers: orderAnswer,
  readback: ({ params }: WriteOutcome) => `/orders/${params.merchantOrderId}`,
  writeCheck: checkOrderAction(),
} as const;

export const updateInternalOrderId = defineMapping({
  route: 'L11',
  description: 'Change internalOrderId: a PATCH on the order with the UpdateReferenceOrderId action.',
  legacy: 'PUT /orders/{merchantOrderId}/internalOrderId',
  ...updateReference,
});

export const patchInternalOrderId = defineMapping({
  route: 'L30',
  description:
    'Change internalOrderId as the .NET SDK does (PATCH on the order): the UpdateReferenceOrderId action, as L11.',
  legacy: 'PATCH /orders/{merchantOrderId}',
  ...updateReference,
});

export const createInvoiceOrder = defineMapping({
  route: 'L31',
  tier: 2,
  description:
    "Create a pay-by-link order (invoice): the orderRequest (an L1 body) becomes CreatePayByLink (the send-invoice guide's name) with sendSms and sendEmail (the .NET SDK's SendEmail also taken, sendEmail winning when both come); answered {order, token, magicLink}.",
  legacy: 'POST /orders/invoices',
  current: 'POST /orders',
  body: z.object({
    orderRequest: createOrderBody,
    sendSms: blankable(z.boolean()),
    sendEmail: blankable(z.boolean()),
    SendEmail: blankable(z.boolean()),
  }),
  request: { wrap: 'CreatePayByLink', shape: { orderRequest: flatten(ORDER_REQUEST), SendEmail: alias('sendEmail') } },
  response: readAnswer([payByLinkRead], ({ PayByLinkOrder: link }) => ({
    order: legacyOrder.backward(link.order),
    token: link.token,
    magicLink: link.magicLink,
  })),
  answers: ok(
    z.object({
      order: ORDER_ANSWER,
      token: z.string().describe('a checkout auth token for the order'),
      magicLink: z.string().describe('the pay page, carrying the token'),
    }),
  ),
  readback: readOrderAt('order.merchantOrderId'),
  // the order as a create checks it; the token and link the current API shows nowhere else are the legacy answer's own
  writeCheck: checkWrite({
    state: readOrderAt('order.merchantOrderId'),
    reads: currentOrder,
    answer: (state, { answer }) => ({
      status: 200,
      body: state && {
        PayByLinkOrder: {
          order: state.OnlineOrder.order,
          token: stringAt(answer, 'token'),
          magicLink: stringAt(answer, 'magicLink'),
        },
      },
    }),
    effect: {
      at: theOrder,
      unset: 'absent',
      // the current API shows no message sent: what the client asked is held to what the translation asks, and named
      fields: { sendSms: 'the current API shows no SMS sent', sendEmail: 'the current API shows no e-mail sent' },
    },
    moved: orderMoved,
  }),
});

export const cancelOrder = defineMapping({
  route: 'L12',
  description: 'Cancel an order: DELETE /orders/{orderId} (the current reference), answered with the cancelled order.',
  legacy: 'DELETE /orders/{merchantOrderId}',
  current: 'DELETE /orders/{orderId}',
  params: { merchantOrderId: toPath('orderId', 'order') },
  response: orderResponse,
  answers: orderAnswer,
  // an answer without the order: the order read
  completion: { path: (_answer, { orderId }) => `/orders/${encodeURIComponent(orderId!)}` },
  readback: ({ params }) => `/orders/${params.merchantOrderId}`,
  writeCheck: checkOrderAction((order) => unlike({ status: ['cancelled', order.status] })),
});
