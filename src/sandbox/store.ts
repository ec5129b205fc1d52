import type { Fixtures } from './fixtures.js';
import type {
  Agreement,
  CardBlock,
  Customer,
  Marketplace,
  Merchant,
  Order,
  PaymentSource,
  PaymentToken,
  PayPlan,
  Refund,
  StoreStats,
  ThreeDSAuthorisation,
  Transaction,
  BeneficialOwner,
  MerchantFile,
} from './model.js';
import { PaybridgeError } from '../errors.js';
import { emptyProfile } from './ops/merchants.js';

export interface StoreOptions {
  fixtures: Fixtures;
  /** How long a PayTo agreement stays Pending before the bank's answer shows (default 2000 ms). */
  agreementDelayMs?: number;
  /** Injectable clock for tests; defaults to Date.now. */
  now?: () => number;
}

const DEFAULT_AGREEMENT_DELAY_MS = 2000;

/** Append to a list kept under a key of a secondary index. */
function indexAdd(index: Map<string, string[]>, key: string, id: string): void {
  const list = index.get(key);
  if (list) list.push(id);
  else index.set(key, [id]);
}

/**
 * One in-memory payments backend. Both faces (current and legacy) read and write these tables
 * through the operations in ops/, so a payment made through one face is seen by the other.
 */
export class Store {
  readonly jwtSecret: string;
  readonly agreementDelayMs: number;
  readonly clock: () => number;

  readonly marketplaces = new Map<string, Marketplace>();
  readonly merchants = new Map<string, Merchant>();
  readonly customers = new Map<string, Customer>();
  readonly orders = new Map<string, Order>();
  readonly tokens = new Map<string, PaymentToken>();
  readonly agreements = new Map<string, Agreement>();
  readonly transactions = new Map<string, Transaction>();
  readonly refunds = new Map<string, Refund>();
  readonly threeDS = new Map<string, ThreeDSAuthorisation>();
  readonly sources = new Map<string, PaymentSource>();
  readonly payPlans = new Map<string, PayPlan>();
  readonly cardBlocks = new Map<string, CardBlock>();
  readonly beneficialOwners = new Map<string, BeneficialOwner>();
  readonly merchantFiles = new Map<string, MerchantFile>();
  /** How far POST /sandbox/time moved the sandbox clock on. */
  clockOffsetMs = 0;
  /** Secret material -> owner, for authentication. */
  readonly keys = new Map<string, { kind: 'publicKey' | 'secretKey' | 'marketplaceKey'; id: string }>();
  readonly merchantTokens = new Map<string, string>();
  /** Checkout auth tokens: the fixtures' (no expiry) and those issued by sign-in and pay-by-link orders. */
  readonly checkoutTokens = new Map<string, { merchantId: string; customerId: string | null; expiresAt?: number }>();

  // secondary indexes: parent id -> child ids, in creation order
  readonly transactionsByOrder = new Map<string, string[]>();
  readonly customersByMerchant = new Map<string, string[]>();
  readonly sourcesByCustomer = new Map<string, string[]>();
  readonly payPlansByMerchant = new Map<string, string[]>();
  /** merchantId + fingerprint -> consecutive declines, for blocking a card. */
  readonly declines = new Map<string, number>();

  readonly stats: StoreStats = {
    ordersCreated: 0,
    payAttempts: 0,
    paymentsDeclined: 0,
    threeDSChallenges: 0,
    transactionsCreated: 0,
    captures: 0,
    authorisationsCancelled: 0,
    refundsCreated: 0,
    transfersCreated: 0,
    transfersReversed: 0,
    customersCreated: 0,
    customersUpdated: 0,
    sourcesCreated: 0,
    sourcesDeleted: 0,
    agreementsCreated: 0,
    tokensCreated: 0,
    merchantsCreated: 0,
  };

  constructor(options: StoreOptions) {
    this.jwtSecret = options.fixtures.jwtSecret;
    this.agreementDelayMs = options.agreementDelayMs ?? DEFAULT_AGREEMENT_DELAY_MS;
    const base = options.now ?? Date.now;
    // the sandbox clock: the real one (or a test's), moved on by POST /sandbox/time
    this.clock = () => base() + this.clockOffsetMs;
    this.seed(options.fixtures);
  }

  /** ISO 8601 UTC with milliseconds, as every timestamp of the current API. */
  timestamp(): string {
    return new Date(this.clock()).toISOString();
  }

  private seed(fixtures: Fixtures): void {
    const at = this.timestamp();
    for (const m of fixtures.marketplaces) {
      this.marketplaces.set(m.marketplaceId, {
        marketplaceId: m.marketplaceId,
        apiKey: m.apiKey,
        name: m.name ?? m.marketplaceId,
        operator: m.operator === true,
      });
      this.keys.set(m.apiKey, { kind: 'marketplaceKey', id: m.marketplaceId });
    }
    for (const m of fixtures.merchants) {
      this.addMerchant({
        merchantId: m.merchantId,
        marketplaceId: m.marketplaceId,
        name: m.name,
        slug: null,
        contactEmailAddress: null,
        taxCountry: 'AU',
        tradingCountry: 'AU',
        profile: emptyProfile(),
        status: 'Active',
        publicKey: m.publicKey,
        secretKey: m.secretKey,
        merchantToken: m.merchantToken ?? null,
        bankAccounts: [],
        primaryBankAccountId: null,
        surchargeRateBps: m.surchargeRateBps ?? 0,
        industryCode: null,
        createdAt: at,
        updatedAt: at,
      });
    }
    for (const c of fixtures.customers) {
      this.addCustomer({
        customerId: c.customerId,
        merchantId: c.merchantId,
        kind: 'consumer',
        referenceCustomerId: null,
        emailAddress: c.email,
        phoneNumber: null,
        givenName: null,
        middleName: null,
        familyName: null,
        businessName: null,
        abn: null,
        address: null,
        kycStatus: 'NotStarted',
        kycCheckedAt: null,
        createdAt: at,
        updatedAt: at,
      });
    }
    for (const t of fixtures.checkoutTokens ?? []) {
      this.checkoutTokens.set(t.token, { merchantId: t.merchantId, customerId: t.customerId });
    }
  }

  addMerchant(merchant: Merchant): void {
    this.merchants.set(merchant.merchantId, merchant);
    this.keys.set(merchant.publicKey, { kind: 'publicKey', id: merchant.merchantId });
    this.keys.set(merchant.secretKey, { kind: 'secretKey', id: merchant.merchantId });
    if (merchant.merchantToken) this.merchantTokens.set(merchant.merchantToken, merchant.merchantId);
  }

  addCustomer(customer: Customer): void {
    this.customers.set(customer.customerId, customer);
    indexAdd(this.customersByMerchant, customer.merchantId, customer.customerId);
  }

  addTransaction(transaction: Transaction): void {
    this.transactions.set(transaction.transactionId, transaction);
    indexAdd(this.transactionsByOrder, transaction.orderId, transaction.transactionId);
  }

  addSource(source: PaymentSource): void {
    this.sources.set(source.paymentSourceId, source);
    indexAdd(this.sourcesByCustomer, source.customerId, source.paymentSourceId);
  }

  addPayPlan(plan: PayPlan): void {
    this.payPlans.set(plan.payPlanId, plan);
    indexAdd(this.payPlansByMerchant, plan.merchantId, plan.payPlanId);
  }

  /** The record, or a 404 naming the id: the caller never learns whether another merchant owns it. */
  get<T>(table: Map<string, T>, id: string): T {
    const record = table.get(id);
    if (record === undefined) throw new PaybridgeError('not_found', `${id} was not found`);
    return record;
  }
}
