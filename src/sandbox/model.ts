/** The sandbox's records: what one in-memory payments backend keeps, independent of either face. */

export interface Money {
  minorCurrencyUnits: number;
  currency: string;
}

export interface Address {
  line1?: string | undefined;
  line2?: string | undefined;
  city?: string | undefined;
  state?: string | undefined;
  postalCode?: string | undefined;
  country?: string | undefined;
}

export interface Marketplace {
  marketplaceId: string;
  apiKey: string;
  name: string;
  /** The gateway operator's: its key acts for every merchant (the embedded gateway's service key). */
  operator: boolean;
}

interface BankAccount {
  bankAccountId: string;
  bsb: string;
  accountNumber: string;
  accountName: string;
  bankName: string | null;
  currency: string;
  createdAt: string;
}

/** The business profile beyond its name (UpdateMerchantBusinessProfile; legacy L23's fields). */
export interface BusinessProfile {
  timeZone: string | null;
  businessType: 'company' | 'individual' | 'soletrader' | 'partnership' | 'trust' | null;
  companyType: 'Private' | 'Public' | null;
  website: string | null;
  supportSite: string | null;
  industry: string | null;
}

export interface Merchant {
  merchantId: string;
  marketplaceId: string | null;
  name: string;
  slug: string | null;
  contactEmailAddress: string | null;
  taxCountry: string | null;
  tradingCountry: string | null;
  profile: BusinessProfile;
  /** A sub-merchant is Pending (the reference's sample) until it has a payout account. */
  status: 'Pending' | 'Active';
  publicKey: string;
  secretKey: string;
  merchantToken: string | null;
  /** Card surcharge passed on to the payer, in basis points of the amount (0: none). */
  surchargeRateBps: number;
  industryCode: string | null;
  bankAccounts: BankAccount[];
  primaryBankAccountId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Customer {
  customerId: string;
  merchantId: string;
  kind: 'consumer' | 'organisation';
  referenceCustomerId: string | null;
  emailAddress: string;
  phoneNumber: string | null;
  givenName: string | null;
  middleName: string | null;
  familyName: string | null;
  businessName: string | null;
  abn: string | null;
  address: Address | null;
  /** KYC as a state on the customer (KycCustomer): NotStarted until checked. */
  kycStatus: 'NotStarted' | 'Verified' | 'Rejected';
  kycCheckedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface BeneficialOwner {
  beneficialOwnerId: string;
  merchantId: string;
  givenName: string;
  familyName: string;
  dateOfBirth: string;
  ownershipPercentage: number;
  emailAddress: string | null;
  address: Address | null;
  title: string | null;
  roles: ('Executive' | 'Owner' | 'Director')[];
  middleName: string | null;
  phoneNumber: string | null;
  verificationDocs: Record<string, unknown>[];
  passport: Record<string, unknown> | null;
  driverLicence: Record<string, unknown> | null;
  createdAt: string;
  updatedAt: string;
}

export interface MerchantFile {
  fileId: string;
  merchantId: string;
  fileName: string;
  contentType: string;
  purpose: string;
  sizeBytes: number;
  sha256: string;
  createdAt: string;
}

export interface OrderItem {
  amount: Money;
  description: string;
  quantity: number;
  sku?: string | undefined;
  imageUrl?: string | undefined;
}

type OrderStatus = 'created' | 'paid' | 'cancelled';

export interface Order {
  orderId: string;
  merchantId: string;
  marketplaceId: string | null;
  orderType: 'online' | 'paybylink';
  referenceOrderId: string;
  amount: Money;
  description: string | null;
  customerEmailAddress: string | null;
  customerPhoneNumber: string | null;
  items: OrderItem[] | null;
  discountAmount: number | null;
  shipping: {
    amount?: number | undefined;
    address?: Address | undefined;
    name?: string | undefined;
    phoneNumber?: string | undefined;
    carrier?: string | undefined;
    trackingNumber?: string | undefined;
  } | null;
  billing: {
    address?: Address | undefined;
    name?: string | undefined;
    emailAddress?: string | undefined;
    phoneNumber?: string | undefined;
  } | null;
  metadata: Record<string, unknown> | null;
  status: OrderStatus;
  transactionId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What a test card number does when paid (current-api-decisions.md, "Sandbox test instruments"). */
export type CardOutcome = 'success' | 'decline' | 'threeDS';

export interface CardDetails {
  /** sha256 of the number: the card's identity for blocking, never the number itself. */
  fingerprint: string;
  last4: string;
  outcome: CardOutcome;
}

export interface PaymentToken {
  paymentTokenId: string;
  merchantId: string;
  customerId: string | null;
  method: 'card' | 'payto';
  amount: Money | null;
  card: CardDetails | null;
  agreementToken: string | null;
  paymentSourceId: string | null;
  surchargeAmount: number;
  /** The transaction this token paid, once it has paid one. */
  usedBy: string | null;
  /** A pay-later token: the pay plan the checkout offered and the shopper accepted. */
  payPlanId?: string;
  createdAt: string;
}

export type AgreementStatus = 'Pending' | 'Active' | 'Declined' | 'Completed';

export interface Agreement {
  token: string;
  agreementUid: string;
  merchantId: string;
  customerId: string | null;
  customerName: string;
  identifier: { kind: 'Alias'; aliasType: string; value: string } | { kind: 'Bban'; value: string };
  accountIdentifierHint: string;
  oneOffAmount: { amount: number; currency: string } | null;
  purpose: string;
  /** The bank's answer, known at creation in the sandbox, visible once activateAt has passed. */
  bankAccepts: boolean;
  activateAt: number;
  /** A one-off agreement that has paid its single payment. */
  completed: boolean;
  createdAt: string;
}

/** The reference's TransactionStatus values the sandbox uses (current-api-decisions.md, States). */
type TransactionStatus = 'not_captured' | 'paid' | 'partially_refunded' | 'refunded' | 'cancelled';

export interface TimelineEntry {
  eventType: string;
  eventTime: string;
  amount: number;
  identifier: string | null;
}

export interface Transfer {
  transferId: string;
  amount: number;
  destinationMerchantId: string;
  status: 'completed' | 'reversed';
  createdAt: string;
  reversedAt: string | null;
  /** The platform fee charged to the destination (TransferFunds.surchargeFee). */
  surchargeFee: boolean;
  /** Deducted from what the destination receives, minor units (TransferFunds.levy). */
  levy: number | null;
}

export interface ServiceFees {
  variableAmount: number;
  fixedAmount: number;
  taxAmount: number;
  totalAmount: number;
}

export interface Transaction {
  transactionId: string;
  orderId: string;
  merchantId: string;
  customerId: string | null;
  method: 'card' | 'payto';
  accountHint: string;
  /** Amount of the payment: the authorised amount, then the captured amount. */
  amount: number;
  currency: string;
  surchargeAmount: number;
  refundedAmount: number;
  status: TransactionStatus;
  serviceFees: ServiceFees;
  timelines: TimelineEntry[];
  refundIds: string[];
  transfers: Transfer[];
  paidOn: string | null;
  /** Paid by a pay plan (pay later): the plan; absent for a payment in full. */
  payPlanId?: string;
  createdAt: string;
  updatedAt: string;
}

export interface Refund {
  refundId: string;
  transactionId: string;
  amount: number;
  createdAt: string;
}

export interface ThreeDSAuthorisation {
  threeDSAuthorisationId: string;
  orderId: string;
  paymentTokenId: string;
  merchantId: string;
  authoriseOnly: boolean;
  /** The shopper's answer on the sandbox's 3DS page: pending until approved or declined; completed once confirmed. */
  status: 'pending' | 'approved' | 'declined' | 'completed';
  createdAt: string;
}

export interface PaymentSource {
  paymentSourceId: string;
  customerId: string;
  merchantId: string;
  type: 'payto' | 'card';
  agreementToken: string | null;
  agreementUid: string | null;
  accountIdentifierHint: string;
  usageScope: string | null;
  card: CardDetails | null;
  createdAt: string;
  updatedAt: string;
}

export interface PayPlan {
  payPlanId: string;
  merchantId: string;
  customerId: string;
  amount: Money;
  initialPayment: number;
  payPlanVariant: string;
  instalments: { dueDate: string; amount: number }[];
  /** `active` once an order is paid with it. */
  status: 'offered' | 'active';
  orderId?: string;
  createdAt: string;
}

export interface CardBlock {
  cardBlockId: string;
  merchantId: string;
  fingerprint: string;
  cardHint: string;
  /** The declines in a row that blocked the card (docs/decisions.md D-PAY-2). */
  declines: number;
  status: 'blocked' | 'unblocked';
  createdAt: string;
  updatedAt: string;
}

/** Counts of what the backend executed; tests read them to prove nothing ran twice. */
export interface StoreStats {
  ordersCreated: number;
  payAttempts: number;
  paymentsDeclined: number;
  threeDSChallenges: number;
  transactionsCreated: number;
  captures: number;
  authorisationsCancelled: number;
  refundsCreated: number;
  transfersCreated: number;
  transfersReversed: number;
  customersCreated: number;
  customersUpdated: number;
  sourcesCreated: number;
  sourcesDeleted: number;
  agreementsCreated: number;
  tokensCreated: number;
  merchantsCreated: number;
}
