/**
 * The current API's operations as data: method, path, what they take and answer, as the sandbox's
 * current face serves them. The OpenAPI document of the current generation is derived from it.
 */
import type { z } from 'zod';
import * as req from './current-requests.js';
import * as res from './current-responses.js';

export interface CurrentRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** With `{param}` segments. */
  path: string;
  summary: string;
  /** The OpenAPI operation id, where the summary's camelCase would not read as one. */
  operationId?: string;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Answer schemas (HTTP 200 unless `noContent`), several when the action decides. */
  answers?: z.ZodType[];
  noContent?: true;
  /**
   * The reference's security list leaves out merchant keys (Query Customers: no merchant secret key; Get
   * Payment Source: only a marketplace API key or a customer's credential): the sandbox refuses them, and
   * the gateway makes such a call with the operator's marketplace key (current-api-decisions.md).
   */
  refusesMerchantKeys?: true;
}

export const CURRENT_ROUTES: readonly CurrentRoute[] = [
  {
    method: 'POST',
    path: '/payto/agreement',
    summary: 'Create a PayTo agreement',
    body: req.agreementRequest,
    answers: [res.agreementCreated],
  },
  {
    method: 'GET',
    path: '/payto/agreement',
    summary: 'Poll a PayTo agreement',
    query: req.agreementQuery,
    answers: [res.agreementStatusResponse],
  },
  {
    method: 'POST',
    path: '/tokens',
    summary: 'Create a payment token (PayTo, saved card, raw card capture)',
    body: req.createTokenRequest,
    answers: [res.payToTokenResponse, res.cardTokenResponse, res.savedSourceTokenResponse],
  },
  {
    method: 'POST',
    path: '/orders',
    summary: 'Create an order (online or pay-by-link)',
    body: req.createOrderRequest,
    answers: [res.orderResponse, res.payByLinkOrderResponse, res.bareOrder],
  },
  { method: 'GET', path: '/orders/{orderId}', summary: 'Get an order', answers: [res.orderResponse, res.bareOrder] },
  {
    method: 'PATCH',
    path: '/orders/{orderId}',
    operationId: 'updateOrder',
    summary: 'Update an order (the bare order answers)',
    body: req.updateOrderRequest,
    answers: [res.bareOrder, res.orderResponse],
  },
  {
    method: 'DELETE',
    path: '/orders/{orderId}',
    operationId: 'cancelOrder',
    summary: 'Cancel an order: no longer payable (the bare order answers)',
    answers: [res.bareOrder, res.orderResponse],
  },
  {
    method: 'POST',
    path: '/orders/{orderId}/pay',
    summary: 'Pay an order (card, PayTo, 3DS completion)',
    body: req.payOrderRequest,
    answers: [
      res.cardPayResponse,
      res.threeDSRequiredResponse,
      res.payToPayResponse,
      res.referencePayOrderComplete,
      res.guidePayOrderComplete,
      res.flatCardPayResponse,
    ],
  },
  {
    method: 'GET',
    path: '/transactions/{transactionId}',
    summary: 'Get a transaction',
    answers: [res.transactionDetail],
  },
  {
    method: 'GET',
    path: '/transactions',
    summary: 'Query transactions',
    query: req.transactionQuery,
    answers: [res.transactionList],
  },
  {
    method: 'PATCH',
    path: '/transactions/{transactionId}',
    operationId: 'updateTransaction',
    summary: 'Refund, capture, cancel an authorisation, transfer or reverse a transfer',
    body: req.transactionActionRequest,
    answers: [res.transactionDetail],
  },
  {
    method: 'POST',
    path: '/surcharges',
    summary: 'Calculate a surcharge',
    body: req.surchargeRequest,
    answers: [res.surchargeResponse],
  },
  {
    method: 'POST',
    path: '/sources',
    summary: 'Save a payment source',
    body: req.createSourceRequest,
    answers: [res.paymentSource],
  },
  {
    method: 'GET',
    path: '/sources',
    summary: 'List payment sources',
    query: req.sourceQuery,
    answers: [res.paymentSourceList],
  },
  {
    method: 'GET',
    path: '/sources/{sourceId}',
    summary: 'Get a payment source',
    answers: [res.savedSource],
    refusesMerchantKeys: true,
  },
  { method: 'DELETE', path: '/sources/{sourceId}', summary: 'Delete a payment source', noContent: true },
  {
    method: 'GET',
    path: '/sources/blockedcards',
    summary: 'List blocked cards',
    query: req.pageQuery,
    answers: [res.blockedCardList],
  },
  {
    method: 'PATCH',
    path: '/sources/blockedcards/{cardBlockId}',
    summary: 'Unblock a card',
    body: req.blockedCardUpdateRequest,
    answers: [res.blockedCard],
  },
  {
    method: 'POST',
    path: '/customers',
    operationId: 'upsertCustomer',
    summary: 'Upsert a customer (a consumer by e-mail address, an organisation by reference, per merchant)',
    body: req.upsertCustomerRequest,
    answers: [res.customerCreated, res.pluginCustomerCreated],
  },
  {
    method: 'POST',
    path: '/customers/kyc',
    operationId: 'kycCustomer',
    summary: 'KYC a customer (the customer in the body or Customer-Id)',
    body: req.customerActionRequest,
    answers: [res.kycResponse],
  },
  {
    method: 'PATCH',
    path: '/customers/{customerId}',
    operationId: 'updateCustomer',
    summary: 'KYC a customer (the earlier path, an alias)',
    body: req.customerActionRequest,
    answers: [res.kycResponse],
  },
  {
    method: 'POST',
    path: '/auth/signin',
    operationId: 'signInCustomer',
    summary: 'Sign a customer (or an organisation delegate) in: a checkout auth token',
    body: req.signInRequest,
    answers: [res.signedIn],
  },
  {
    method: 'GET',
    path: '/customers',
    summary: 'Query customers',
    query: req.customerQuery,
    answers: [res.customerList],
    refusesMerchantKeys: true,
  },
  {
    method: 'POST',
    path: '/payplans/offer',
    summary: 'Offer a pay plan',
    body: req.payPlanOfferRequest,
    answers: [res.payPlan],
  },
  { method: 'GET', path: '/payplans', summary: 'List pay plans', query: req.payPlanQuery, answers: [res.payPlanList] },
  {
    method: 'POST',
    path: '/payplans/max',
    summary: 'Calculate the pay plan maximum loan',
    body: req.payPlanMaxRequest,
    answers: [res.payPlanMaxResponse],
  },
  {
    method: 'POST',
    path: '/merchants',
    summary: 'Create a merchant',
    body: req.merchantCreateRequest,
    answers: [res.merchantResponse],
  },
  {
    method: 'GET',
    path: '/merchants',
    summary: 'Query merchants',
    query: req.merchantQuery,
    answers: [res.merchantList],
  },
  { method: 'GET', path: '/merchants/{merchantId}', summary: 'Get a merchant', answers: [res.merchantResponse] },
  {
    method: 'PATCH',
    path: '/merchants/{merchantId}',
    summary: 'Update a merchant',
    body: req.merchantUpdateRequest,
    answers: [res.merchantResponse],
  },
  {
    method: 'POST',
    path: '/merchants/{merchantId}/files',
    summary: 'Upload a merchant file',
    body: req.merchantFileRequest,
    answers: [res.merchantFileResponse],
  },
  { method: 'GET', path: '/industries', summary: 'Get industries', answers: [res.industryList] },
  {
    method: 'POST',
    path: '/beneficialowners',
    summary: 'Create a beneficial owner',
    body: req.beneficialOwnerCreateRequest,
    answers: [res.beneficialOwnerResponse],
  },
  {
    method: 'GET',
    path: '/beneficialowners',
    summary: 'List beneficial owners',
    query: req.beneficialOwnerQuery,
    answers: [res.beneficialOwnerList],
  },
  {
    method: 'GET',
    path: '/beneficialowners/{beneficialOwnerId}',
    summary: 'Get a beneficial owner',
    answers: [res.beneficialOwnerResponse],
  },
  {
    method: 'PATCH',
    path: '/beneficialowners/{beneficialOwnerId}',
    summary: 'Replace a beneficial owner',
    body: req.beneficialOwnerUpdateRequest,
    answers: [res.beneficialOwnerResponse],
  },
  {
    method: 'DELETE',
    path: '/beneficialowners/{beneficialOwnerId}',
    summary: 'Delete a beneficial owner',
    noContent: true,
  },
  {
    method: 'GET',
    path: '/transactions/payouts',
    summary: 'Query payout summaries',
    query: req.settlementQuery,
    answers: [res.payoutSummaryList],
  },
  {
    method: 'GET',
    path: '/transactions/payouts/{payoutId}',
    summary: 'Get a payout summary',
    answers: [res.payoutSummary],
  },
  {
    method: 'GET',
    path: '/transactions/settlement',
    summary: 'Report settlement entries',
    query: req.settlementQuery,
    answers: [res.settlementEntryList],
  },
  {
    method: 'GET',
    path: '/transactions/settlement/report',
    summary: 'Report settlement: each payout with its entries',
    query: req.settlementQuery,
    answers: [res.settlementReport],
  },
  {
    method: 'GET',
    path: '/payouts/summaries',
    operationId: 'queryPayoutSummariesAlias',
    summary: 'Query payout summaries (the earlier path, an alias)',
    query: req.settlementQuery,
    answers: [res.payoutSummaryList],
  },
  {
    method: 'GET',
    path: '/settlements/entries',
    operationId: 'reportSettlementEntriesAlias',
    summary: 'Report settlement entries (the earlier path, an alias)',
    query: req.settlementQuery,
    answers: [res.settlementEntryList],
  },
];
