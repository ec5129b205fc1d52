import type { FastifyInstance } from 'fastify';
import {
  agreementQuery,
  agreementRequest,
  DEFAULT_PAY_PLAN_VARIANT,
  merchantCreateRequest,
  merchantUpdateRequest,
  payPlanMaxRequest,
  payPlanOfferRequest,
  payPlanQuery,
} from '../../contract/current-requests.js';
import { parseWith, pathId } from '../http.js';
import {
  addBankAccount,
  createMerchant,
  getMerchant,
  setPrimaryBankAccount,
  updateBusinessProfile,
} from '../ops/merchants.js';
import { listPayPlans, maxLoan, offerPayPlan } from '../ops/payplans.js';
import { agreementStatus, createAgreement, findAgreement } from '../ops/payto.js';
import { setIndustry } from '../ops/business.js';
import type { Store } from '../store.js';
import { authorise } from './context.js';
import { merchantBody } from './render.js';

/** PayTo agreements, pay plans and merchants. */
export function registerAccounts(app: FastifyInstance, store: Store): void {
  app.post('/payto/agreement', async (req) => {
    const actor = await authorise(store, req, 'agreement:create');
    return { token: createAgreement(store, actor, parseWith(agreementRequest, req.body)).token };
  });

  app.get('/payto/agreement', async (req) => {
    const actor = await authorise(store, req, 'agreement:read');
    const { token } = parseWith(agreementQuery, req.query, 'query');
    return { status: agreementStatus(store, findAgreement(store, actor, token, 'token')) };
  });

  // the public pay plan interface: a checkout (public key) asks for an offer for its customer
  app.post('/payplans/offer', async (req) => {
    const actor = await authorise(store, req, 'payplan:offer');
    return offerPayPlan(store, actor, parseWith(payPlanOfferRequest, req.body));
  });

  app.get('/payplans', async (req) => {
    const actor = await authorise(store, req, 'payplan:manage');
    return listPayPlans(store, actor, parseWith(payPlanQuery, req.query, 'query')).items;
  });

  app.post('/payplans/max', async (req) => {
    const actor = await authorise(store, req, 'payplan:max');
    const { currency, payPlanVariant } = parseWith(payPlanMaxRequest, req.body);
    return maxLoan(store, actor, payPlanVariant ?? DEFAULT_PAY_PLAN_VARIANT, currency);
  });

  app.post('/merchants', async (req) => {
    const actor = await authorise(store, req, 'merchant:create');
    const { CreateServiceProviderSubmerchant: input } = parseWith(merchantCreateRequest, req.body);
    return merchantBody(createMerchant(store, actor, input));
  });

  app.get('/merchants/:merchantId', async (req) => {
    const actor = await authorise(store, req, 'merchant:read');
    return merchantBody(getMerchant(store, actor, pathId('merchant', req, 'merchantId')));
  });

  app.patch('/merchants/:merchantId', async (req) => {
    const actor = await authorise(store, req, 'merchant:update');
    const merchantId = pathId('merchant', req, 'merchantId');
    const body = parseWith(merchantUpdateRequest, req.body);
    if ('UpdateMerchantBusinessProfile' in body)
      return merchantBody(updateBusinessProfile(store, actor, merchantId, body.UpdateMerchantBusinessProfile));
    if ('AddMerchantBankAccount' in body) {
      const { identifier, ...account } = body.AddMerchantBankAccount;
      return merchantBody(
        addBankAccount(store, actor, merchantId, { ...account, ...identifier.AuBankAccountIdentifier }),
      );
    }
    if ('SetMerchantIndustry' in body)
      return merchantBody(setIndustry(store, actor, merchantId, body.SetMerchantIndustry.industryCode));
    return merchantBody(
      setPrimaryBankAccount(store, actor, merchantId, body.SetMerchantPrimaryBankAccount.bankAccountId),
    );
  });
}
