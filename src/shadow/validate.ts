/**
 * `validate` write safety: translate the legacy write and check the current request against the
 * current API's own request schema, sending nothing.
 */
import type { z } from 'zod';
import {
  createOrderRequest, createTokenRequest, customerActionRequest, merchantCreateRequest, merchantUpdateRequest, payOrderRequest,
  payPlanMaxRequest, transactionActionRequest, updateOrderRequest, upsertCustomerRequest,
} from '../contract/current-requests.js';
import { describeIssues } from '../contract/zod-helpers.js';
import type { CurrentRequest } from '../translate/engine.js';

/** Current call (method + path template of the mapping) -> request body schema. */
const SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  'POST /orders': createOrderRequest,
  'POST /orders/{orderId}/pay': payOrderRequest,
  'PATCH /orders/{orderId}': updateOrderRequest,
  'PATCH /transactions/{transactionId}': transactionActionRequest,
  'POST /customers': upsertCustomerRequest,
  'PATCH /customers/{customerId}': customerActionRequest,
  'POST /tokens': createTokenRequest,
  'POST /payplans/max': payPlanMaxRequest,
  'POST /merchants': merchantCreateRequest,
  'PATCH /merchants/{merchantId}': merchantUpdateRequest,
};

/** Null when the current request is valid for the current API; else the problem, naming the field. */
export function validateCurrentRequest(currentCall: string, request: CurrentRequest): string | null {
  const schema = SCHEMAS[currentCall];
  if (!schema) return request.body === undefined ? null : `${currentCall} takes no body`;
  const result = schema.safeParse(request.body);
  return result.success ? null : describeIssues(result.error);
}
