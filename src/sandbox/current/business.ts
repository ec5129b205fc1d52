import type { FastifyInstance } from 'fastify';
import {
  beneficialOwnerCreateRequest, beneficialOwnerQuery, beneficialOwnerUpdateRequest, merchantFileRequest, merchantQuery,
  settlementQuery, surchargeRequest,
} from '../../contract/current-requests.js';
import { parseWith, pathId } from '../http.js';
import {
  calculateSurcharge, createBeneficialOwner, deleteBeneficialOwner, getBeneficialOwner, INDUSTRIES, listBeneficialOwners,
  queryMerchants, replaceBeneficialOwner, uploadMerchantFile,
} from '../ops/business.js';
import { queryPayoutSummaries, reportSettlementEntries } from '../ops/settlement.js';
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
    return replaceBeneficialOwner(store, actor, id, parseWith(beneficialOwnerUpdateRequest, req.body).ReplaceBeneficialOwner);
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

  app.get('/payouts/summaries', async (req) => {
    const actor = await authorise(store, req, 'settlement:read');
    return queryPayoutSummaries(store, actor, parseWith(settlementQuery, req.query, 'query')).items;
  });
  app.get('/settlements/entries', async (req) => {
    const actor = await authorise(store, req, 'settlement:read');
    return reportSettlementEntries(store, actor, parseWith(settlementQuery, req.query, 'query')).items;
  });
}
