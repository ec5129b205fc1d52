/** The legacy route table of legacy-api.md section 3: what every mapping must match, one mapping per route. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface LegacyRoute {
  id: string;
  tier: 1 | 2;
  method: HttpMethod;
  /** Path with `{param}` segments. */
  path: string;
  /** The current call, as legacy-api.md names it. */
  current: string;
}

const r = (id: string, tier: 1 | 2, call: string, current: string): LegacyRoute => {
  const [method, path] = call.split(' ') as [HttpMethod, string];
  return { id, tier, method, path, current };
};

export const LEGACY_ROUTES: readonly LegacyRoute[] = [
  r('L1', 1, 'POST /orders', 'POST /orders'),
  r('L2', 1, 'POST /platforms/{platformId}/merchants/{merchantId}/orders', 'POST /orders'),
  r('L3', 1, 'GET /orders/{merchantOrderId}', 'GET /orders/{orderId}'),
  r('L4', 1, 'POST /orders/{merchantOrderId}/pay', 'POST /orders/{orderId}/pay'),
  r('L5', 1, 'POST /platforms/{platformId}/merchants/{merchantId}/orders/{merchantOrderId}/pay', 'POST /orders/{orderId}/pay'),
  r('L6', 1, 'GET /transactions/{transactionId}', 'GET /transactions/{transactionId}'),
  r('L7', 1, 'POST /refunds', 'PATCH /transactions/{transactionId}'),
  r('L8', 1, 'POST /platforms/{platformId}/refunds', 'PATCH /transactions/{transactionId}'),
  r('L9', 1, 'POST /transactions/{transactionId}/authorisation:capture', 'PATCH /transactions/{transactionId}'),
  r('L10', 1, 'DELETE /transactions/{transactionId}/authorisation', 'PATCH /transactions/{transactionId}'),
  r('L11', 1, 'PUT /orders/{merchantOrderId}/internalOrderId', 'PATCH /orders/{orderId}'),
  r('L12', 1, 'DELETE /orders/{merchantOrderId}', 'DELETE /orders/{orderId}'),
  r('L13', 1, 'POST /customers/consumer', 'POST /customers'),
  r('L14', 1, 'GET /merchants/{merchantId}/customers', 'GET /customers'),
  r('L15', 1, 'GET /merchants/{merchantId}/customers/{customerId}/payments/sources', 'GET /sources'),
  r('L16', 1, 'DELETE /merchants/{merchantId}/payments/sources/card/{customerId}/{cardPaymentSourceId}', 'DELETE /sources/{sourceId}'),
  r('L17', 1, 'GET /transactions', 'GET /transactions'),
  r('L18', 2, 'POST /customers/organisation', 'POST /customers'),
  r('L19', 1, 'POST /payments/saved-card', 'POST /tokens'),
  r('L20', 2, 'POST /payments/plan/eligibility-max', 'POST /payplans/max'),
  r('L21', 2, 'POST /marketplaces/onboarding', 'POST /merchants'),
  r('L22', 2, 'GET /platforms/{platformId}/merchants/{merchantId}', 'GET /merchants/{merchantId}'),
  r('L23', 2, 'PUT /platforms/{platformId}/merchants/{merchantId}/businessProfile', 'PATCH /merchants/{merchantId}'),
  r('L24', 2, 'POST /platforms/{platformId}/merchants/{merchantId}/bankAccounts', 'PATCH /merchants/{merchantId}'),
  r('L25', 2, 'PUT /platforms/{platformId}/merchants/{merchantId}/bankAccounts/{bankAccountId}/primary', 'PATCH /merchants/{merchantId}'),
  r('L26', 2, 'POST /transactions/{transactionId}/transfers', 'PATCH /transactions/{transactionId}'),
  r('L27', 2, 'POST /transactions/{transactionId}/transfers/{transferId}/reversal', 'PATCH /transactions/{transactionId}'),
  r('L28', 1, 'POST /customers/plugin', 'POST /customers'),
  r('L29', 1, 'POST /authn/tenants/accounts:signinCustomerWithCustomerId', 'POST /auth/signin'),
  r('L30', 1, 'PATCH /orders/{merchantOrderId}', 'PATCH /orders/{orderId}'),
  r('L31', 2, 'POST /orders/invoices', 'POST /orders'),
];
