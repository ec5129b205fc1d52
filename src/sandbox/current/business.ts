import type { FastifyInstance } from 'fastify';
import {
  beneficialOwnerCreateRequest,
  beneficialOwnerQuery,
  beneficialOwnerUpdateRequest,
  merchantFileRequest,
  merchantQuery,
  settlementQuery,
  surchargeRequest,
} from '../../contract/current-requests.js';
import { PaybridgeError } from '../../errors.js';
import { parseWith, pathId, type Req } from '../http.js';
import {
  calculateSurcharge,
  createBeneficialOwner,
  deleteBeneficialOwner,
  getBeneficialOwner,
  INDUSTRIES,
  listBeneficialOwners,
  queryMerchants,
  replaceBeneficialOwner,
  uploadMerchantFile,
} from '../ops/business.js';
import {
  getPayoutSummary,
  queryPayoutSummaries,
  reportSettlementEntries,
  settlementReport,
} from '../ops/settlement.js';
import type { Store } from '../store.js';
import { authorise } from './context.js';
import { merchantBody } from './render.js';

/** Merchant queries and files, industries, beneficial owners, surcharge, payouts and settlement (docs/decisions.md). */
export function registerBusiness(app: FastifyInstance, store: Store): void {
  app.get('/merchants', async (req) => {
    const actor = await authorise(store, req, 'merchant:read');
    const result = queryMerchants(store, actor, parseWith(merchantQuery, req.query, 'query'));
    return result.items.map(merchantBody);
  });

  app.post('/merchants/:merchantId/files', async (req) => {
    const actor = await authorise(store, req, 'merchant:update');
    const merchantId = pathId('merchant', req, 'merchantId');
    return uploadMerchantFile(store, actor, merchantId, parseWith(merchantFileRequest, req.body).UploadMerchantFile);
  });

  app.get('/industries', async (req) => {
    await authorise(store, req, 'industry:read');
    return { items: INDUSTRIES };
  });

  app.post('/beneficialowners', async (req) => {
    const actor = await authorise(store, req, 'owner:manage');
    return createBeneficialOwner(store, actor, parseWith(beneficialOwnerCreateRequest, req.body).CreateBeneficialOwner);
  });
  app.get('/beneficialowners', async (req) => {
    const actor = await authorise(store, req, 'owner:manage');
    return listBeneficialOwners(store, actor, parseWith(beneficialOwnerQuery, req.query, 'query')).items;
  });
  app.get('/beneficialowners/:beneficialOwnerId', async (req) => {
    const actor = await authorise(store, req, 'owner:manage');
    return getBeneficialOwner(store, actor, pathId('beneficialOwner', req, 'beneficialOwnerId'));
  });
  app.patch('/beneficialowners/:beneficialOwnerId', async (req) => {
    const actor = await authorise(store, req, 'owner:manage');
    const id = pathId('beneficialOwner', req, 'beneficialOwnerId');
    return replaceBeneficialOwner(
      store,
      actor,
      id,
      parseWith(beneficialOwnerUpdateRequest, req.body).ReplaceBeneficialOwner,
    );
  });
  app.delete('/beneficialowners/:beneficialOwnerId', async (req, reply) => {
    const actor = await authorise(store, req, 'owner:manage');
    deleteBeneficialOwner(store, actor, pathId('beneficialOwner', req, 'beneficialOwnerId'));
    return reply.code(204).send();
  });

  app.post('/surcharges', async (req) => {
    const actor = await authorise(store, req, 'surcharge:calculate');
    return calculateSurcharge(store, actor, parseWith(surchargeRequest, req.body).CalculateSurcharge);
  });

  // the reference's paths under /transactions; the earlier /payouts/summaries and /settlements/entries stay as aliases
  const payouts = async (req: Req) => {
    const actor = await authorise(store, req, 'settlement:read');
    return queryPayoutSummaries(store, actor, parseWith(settlementQuery, req.query, 'query')).items;
  };
  const entries = async (req: Req) => {
    const actor = await authorise(store, req, 'settlement:read');
    return reportSettlementEntries(store, actor, parseWith(settlementQuery, req.query, 'query')).items;
  };
  app.get('/transactions/payouts', payouts);
  app.get('/payouts/summaries', payouts);
  app.get('/transactions/payouts/:payoutId', async (req) => {
    const actor = await authorise(store, req, 'settlement:read');
    const payoutId = (req.params as { payoutId: string }).payoutId;
    if (!/^pout_[A-Za-z0-9_-]{1,64}$/.test(payoutId))
      throw new PaybridgeError('invalid_request', 'payoutId: expected an id with prefix pout_');
    return getPayoutSummary(store, actor, payoutId);
  });
  app.get('/transactions/settlement', entries);
  app.get('/settlements/entries', entries);
  app.get('/transactions/settlement/report', async (req) => {
    const actor = await authorise(store, req, 'settlement:read');
    return settlementReport(store, actor, parseWith(settlementQuery, req.query, 'query'));
  });
}
