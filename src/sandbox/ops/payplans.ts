import { PAY_PLAN_VARIANTS, type PayPlanVariant } from '../../contract/current-requests.js';
import { newId } from '../../contract/ids.js';
import { PaybridgeError } from '../../errors.js';
import { checkOwner, requireCustomer, type Actor } from '../access.js';
import type { Money, PayPlan } from '../model.js';
import type { Store } from '../store.js';
import { page } from './common.js';
import { merchantScope } from './customers.js';

/** The sandbox lends every customer up to this much across open pay plans (minor units, AUD). */
const PAY_PLAN_LIMIT: Money = { minorCurrencyUnits: 200_000, currency: 'AUD' };

function outstanding(store: Store, customerId: string): number {
  let sum = 0;
  for (const plan of store.payPlans.values())
    if (plan.customerId === customerId) sum += plan.amount.minorCurrencyUnits - plan.initialPayment;
  return sum;
}

export function maxLoan(
  store: Store,
  actor: Actor,
  variant: PayPlanVariant,
  currency: string = PAY_PLAN_LIMIT.currency,
) {
  const customerId = requireCustomer(actor);
  if (currency !== PAY_PLAN_LIMIT.currency)
    throw new PaybridgeError('invalid_request', `currency: pay plans are offered in ${PAY_PLAN_LIMIT.currency}`);
  const schedule = PAY_PLAN_VARIANTS[variant];
  const available = Math.max(0, PAY_PLAN_LIMIT.minorCurrencyUnits - outstanding(store, customerId));
  return {
    amount: { minorCurrencyUnits: available, currency: PAY_PLAN_LIMIT.currency },
    summary: { payPlanVariant: variant, instalments: schedule.instalments, intervalDays: schedule.intervalDays },
  };
}

export function offerPayPlan(
  store: Store,
  actor: Actor,
  input: { customerId: string; amount: Money; initialPayment: number; payPlanVariant: PayPlanVariant },
): PayPlan {
  const customer = store.customers.get(input.customerId);
  if (!customer) throw new PaybridgeError('not_found', `customerId: ${input.customerId} was not found`);
  checkOwner(store, actor, customer.merchantId, `customerId: ${input.customerId}`);
  if (input.amount.currency !== PAY_PLAN_LIMIT.currency)
    throw new PaybridgeError('invalid_request', `amount.currency: pay plans are offered in ${PAY_PLAN_LIMIT.currency}`);
  if (input.initialPayment > input.amount.minorCurrencyUnits)
    throw new PaybridgeError('invalid_request', 'initialPayment: exceeds the amount');
  const financed = input.amount.minorCurrencyUnits - input.initialPayment;
  const available = PAY_PLAN_LIMIT.minorCurrencyUnits - outstanding(store, customer.customerId);
  if (financed > available)
    throw new PaybridgeError(
      'pay_plan_limit_exceeded',
      `amount: ${financed} financed exceeds the available ${Math.max(0, available)}`,
    );
  const { instalments, intervalDays } = PAY_PLAN_VARIANTS[input.payPlanVariant];
  const each = Math.floor(financed / instalments);
  const start = store.clock();
  const plan: PayPlan = {
    payPlanId: newId('payPlan'),
    merchantId: customer.merchantId,
    customerId: customer.customerId,
    amount: input.amount,
    initialPayment: input.initialPayment,
    payPlanVariant: input.payPlanVariant,
    instalments: Array.from({ length: instalments }, (_, i) => ({
      dueDate: new Date(start + (i + 1) * intervalDays * 86_400_000).toISOString().slice(0, 10),
      amount: i === instalments - 1 ? financed - each * (instalments - 1) : each,
    })),
    status: 'offered',
    createdAt: store.timestamp(),
  };
  store.addPayPlan(plan);
  return plan;
}

export function listPayPlans(
  store: Store,
  actor: Actor,
  filter: {
    merchantId?: string[] | undefined;
    customerId?: string[] | undefined;
    limit?: number | undefined;
    page?: number | undefined;
    sort?: string | undefined;
  },
) {
  const inScope = merchantScope(store, actor, filter.merchantId);
  const customers = filter.customerId ? new Set(filter.customerId) : null;
  const matching = [...store.payPlans.values()].filter(
    (p) => inScope(p.merchantId) && (customers === null || customers.has(p.customerId)),
  );
  return page(matching, filter);
}
