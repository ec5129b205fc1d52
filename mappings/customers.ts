import { z } from 'zod';
import { address, email, phone, shortText } from '../src/contract/zod-helpers.js';
import { defineMapping, toQuery } from '../src/translate/define.js';
import { closed, rename } from '../src/translate/shape.js';

/** The earlier generation answered an upsert with a bare JSON string, the customer id (observed quirk). */
const bareCustomerId = { map: (body: { customerId: string }) => body.customerId } as const;

export const upsertConsumer = defineMapping({
  route: 'L13',
  description: 'Create or update a consumer customer: the body becomes UpsertConsumerCustomer through the vocabulary (email -> emailAddress, phoneno -> phoneNumber, firstName/lastName -> givenName/familyName); answered with the bare customer id string.',
  legacy: 'POST /customers/consumer',
  current: 'POST /customers',
  body: z.object({
    internalCustomerId: shortText.optional(),
    email,
    phoneno: phone.optional(),
    firstName: shortText.optional(),
    middleName: shortText.optional(),
    lastName: shortText.optional(),
    address: address.strip().optional(),
  }),
  request: { wrap: 'UpsertConsumerCustomer' },
  response: bareCustomerId,
});

export const upsertOrganisation = defineMapping({
  route: 'L18',
  description: 'Create or update an organisation customer: UpsertOrganisationCustomer; answered with the bare customer id string like L13.',
  legacy: 'POST /customers/organisation',
  current: 'POST /customers',
  body: z.object({
    internalCustomerId: shortText.optional(),
    businessName: z.string().min(1).max(255),
    email,
    phoneno: phone.optional(),
    abn: z.string().regex(/^\d{11}$/, 'expected an 11-digit ABN').optional(),
  }),
  request: { wrap: 'UpsertOrganisationCustomer' },
  response: bareCustomerId,
});

export const findCustomers = defineMapping({
  route: 'L14',
  description: "Find a merchant's customers by email: the path merchantId becomes the merchantId filter and email the emailAddress filter; answered {customers} in legacy names.",
  legacy: 'GET /merchants/{merchantId}/customers',
  current: 'GET /customers',
  params: { merchantId: toQuery('merchantId', 'merchant') },
  query: { schema: z.object({ email: z.string().max(320).optional() }) },
  response: { shape: closed({ customers: rename('items') }) },
});
