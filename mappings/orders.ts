import { z } from 'zod';
import { address, amountInt, currencyCode, email, longText, metadata, phone, shortText } from '../src/contract/zod-helpers.js';
import { defineMapping, toHeader, toPath, type WriteOutcome } from '../src/translate/define.js';
import { money, rename, unwrap, verbatim, type ShapeSpec } from '../src/translate/shape.js';
import { BILLING, LEGACY_ORDER, legacyMoney, ORDER_ITEM } from './shapes.js';

/** The create-order body deployed legacy plugins send (legacy-api.md section 4, L1/L2). */
const createOrderBody = z.object({
  internalOrderId: z.string().min(1).max(255),
  paymentAmount: legacyMoney(1),
  description: longText,
  customerEmail: email.optional(),
  phoneNo: phone.optional(),
  items: z
    .array(
      z.object({
        description: shortText,
        quantity: z.int().min(1).max(100_000),
        amount: amountInt(0),
        currency: currencyCode,
        sku: shortText.optional(),
        imageUrl: z.string().max(2048).optional(),
      }),
    )
    .max(500)
    .optional(),
  discount: z.object({ amount: amountInt(0) }).optional(),
  shipping: z.object({ amount: amountInt(0).optional(), address: address.strip().optional(), name: shortText.optional() }).optional(),
  billing: z.object({
    address: address.strip().optional(),
    name: shortText.optional(),
    email: email.optional(),
    phone: phone.optional(),
  }),
  metadata: metadata.optional(),
});

/** Legacy create-order body -> CreateOnlineOrder; absent fields stay absent, metadata is carried as is. */
export const ORDER_REQUEST: ShapeSpec = {
  internalOrderId: 'referenceOrderId',
  paymentAmount: money('amount'),
  customerEmail: 'customerEmailAddress',
  phoneNo: 'customerPhoneNumber',
  items: rename('items', ORDER_ITEM),
  discount: unwrap('discountAmount', 'amount'),
  billing: rename('billing', BILLING),
  metadata: verbatim(),
};

const orderResponse = { at: 'OnlineOrder.order', shape: LEGACY_ORDER } as const;

/** Shadow readback of a created order: read it back by the id the answer carries. */
const readOrder = ({ answer }: WriteOutcome) => (answer?.merchantOrderId ? `/orders/${answer.merchantOrderId}` : undefined);

export const createOrder = defineMapping({
  route: 'L1',
  description: 'Create an order with the merchant secret key: the legacy body becomes CreateOnlineOrder (internalOrderId -> referenceOrderId, paymentAmount -> amount {minorCurrencyUnits}, discount.amount -> discountAmount).',
  legacy: 'POST /orders',
  current: 'POST /orders',
  body: createOrderBody,
  request: { wrap: 'CreateOnlineOrder', shape: ORDER_REQUEST },
  response: orderResponse,
  readback: readOrder,
});

export const createPlatformOrder = defineMapping({
  route: 'L2',
  description: 'Create an order for a sub-merchant with the platform API key: platformId and merchantId leave the path for Marketplace-Id and Merchant-Id.',
  legacy: 'POST /platforms/{platformId}/merchants/{merchantId}/orders',
  current: 'POST /orders',
  params: { platformId: toHeader('Marketplace-Id', 'marketplace'), merchantId: toHeader('Merchant-Id', 'merchant') },
  body: createOrderBody,
  request: { wrap: 'CreateOnlineOrder', shape: ORDER_REQUEST },
  response: orderResponse,
  readback: readOrder,
});

export const getOrder = defineMapping({
  route: 'L3',
  description: 'Read an order: merchantOrderId is the current orderId; the answer is rebuilt in the legacy order shape.',
  legacy: 'GET /orders/{merchantOrderId}',
  current: 'GET /orders/{orderId}',
  params: { merchantOrderId: toPath('orderId', 'order') },
  response: orderResponse,
});

export const updateInternalOrderId = defineMapping({
  route: 'L11',
  description: 'Change internalOrderId: a PATCH on the order with the UpdateReferenceOrderId action.',
  legacy: 'PUT /orders/{merchantOrderId}/internalOrderId',
  current: 'PATCH /orders/{orderId}',
  params: { merchantOrderId: toPath('orderId', 'order') },
  body: z.object({ internalOrderId: z.string().min(1).max(255) }),
  request: { wrap: 'UpdateReferenceOrderId' },
  response: orderResponse,
  readback: ({ params }) => `/orders/${params.merchantOrderId}`,
});

export const cancelOrder = defineMapping({
  route: 'L12',
  description: 'Cancel an order: DELETE becomes a PATCH on the order with the CancelOrder action.',
  legacy: 'DELETE /orders/{merchantOrderId}',
  current: 'PATCH /orders/{orderId}',
  params: { merchantOrderId: toPath('orderId', 'order') },
  request: { wrap: 'CancelOrder' },
  response: orderResponse,
  readback: ({ params }) => `/orders/${params.merchantOrderId}`,
});
