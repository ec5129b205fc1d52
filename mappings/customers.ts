import { z } from 'zod';
import {
  CONSUMER_REQUIRED,
  consumerFields,
  eitherName,
  ORGANISATION_REQUIRED,
  organisationFields,
} from '../src/contract/legacy-customers.js';
import { blankable, email, idOf, legacyReference, phone, shortText } from '../src/contract/zod-helpers.js';
import { customerCreated, customerList } from '../src/contract/current-responses.js';
import { checkAnswer, checkWrite, defineMapping, readAnswer, stringAt, toQuery } from '../src/translate/define.js';
import { alias, closed, moved, rename } from '../src/translate/shape.js';
import { ok } from './answers.js';

/** The earlier generation answered an upsert with a bare JSON string, the customer id (observed quirk). */
const bareCustomerId = readAnswer([customerCreated], (body) => body.customerId);
/**
 * Shadow's check of an upsert: the customer the legacy answer names, read through the current API,
 * must hold what the translated upsert asks for (an upsert leaves the fields it does not set as they
 * were); what Query Customers does not show (middleName, businessName, abn) is held to what the client
 * asked and named not comparable.
 */
const checkUpsert = checkWrite({
  state: ({ answer }) => {
    const id = typeof answer === 'string' ? answer : stringAt(answer, 'customerId');
    return id ? `/customers?customerId=${encodeURIComponent(id)}` : undefined;
  },
  reads: customerList,
  answer: (state) => ({ status: 200, body: { customerId: state?.[0]?.customerId } }),
  effect: { at: (state) => state[0] ?? {}, unset: 'kept' },
});

const bareCustomerIdAnswer = ok(z.string().startsWith('cust_').describe('the customer id, a bare JSON string'));

export const upsertConsumer = defineMapping({
  route: 'L13',
  description:
    "Create or update a consumer customer: the body becomes UpsertConsumerCustomer; the legacy reference's current names (emailAddress, phoneNumber, givenName, familyName) are taken as they are, the older ones (email, phoneno, firstName, lastName) renamed, the reference's name winning when both come; address and isVerified dropped and reported; answered with the bare customer id string.",
  legacy: 'POST /customers/consumer',
  current: 'POST /customers',
  // no address or isVerified: the current consumer upsert has no address (reference), and the legacy
  // contract drops isVerified; both are dropped and reported
  body: eitherName(z.object(consumerFields), CONSUMER_REQUIRED),
  request: {
    wrap: 'UpsertConsumerCustomer',
    shape: {
      email: alias('emailAddress'),
      phoneno: alias('phoneNumber'),
      firstName: alias('givenName'),
      lastName: alias('familyName'),
    },
  },
  response: bareCustomerId,
  answers: bareCustomerIdAnswer,
  writeCheck: checkUpsert,
});

export const upsertOrganisation = defineMapping({
  route: 'L18',
  tier: 2,
  description:
    "Create or update an organisation customer: UpsertOrganisationCustomer; the legacy reference's names (organisationName, taxId, emailAddress) and the older ones (businessName, abn, email) both taken, the reference's winning; organisationKyced and organisationCreditChecked dropped and reported; answered with the bare customer id string like L13.",
  legacy: 'POST /customers/organisation',
  current: 'POST /customers',
  body: eitherName(z.object(organisationFields), ORGANISATION_REQUIRED),
  request: {
    wrap: 'UpsertOrganisationCustomer',
    shape: {
      organisationName: 'businessName',
      businessName: alias('businessName', 'organisationName'),
      taxId: 'abn',
      abn: alias('abn', 'taxId'),
      email: alias('emailAddress'),
    },
  },
  response: bareCustomerId,
  answers: bareCustomerIdAnswer,
  writeCheck: checkUpsert,
});

export const findCustomers = defineMapping({
  route: 'L14',
  description:
    "Find a merchant's customers by email: the path merchantId becomes the merchantId filter and email the emailAddress filter, every page read; Query Customers takes no merchant key, so a merchant key's call is made with the operator's marketplace key scoped to the caller's own merchant (a merchantId not the caller's: 403); answered {customers} in legacy names.",
  legacy: 'GET /merchants/{merchantId}/customers',
  current: 'GET /customers',
  params: { merchantId: toQuery('merchantId', 'merchant') },
  query: { schema: z.object({ email: z.string().max(320).optional() }) },
  response: { shape: closed({ customers: rename('items') }) },
  // every page (a legacy list is never cut); the e-mail filter is the service's to match (it ignores case)
  paged: { filters: {} },
  answers: ok(
    z.object({
      customers: z.array(
        z.object({
          customerId: z.string(),
          internalCustomerId: z.string().nullable().optional(),
          email: z.string(),
          phoneno: z.string().nullable().optional(),
          firstName: z.string().nullable().optional(),
          lastName: z.string().nullable().optional(),
        }),
      ),
    }),
  ),
});

export const upsertPluginCustomer = defineMapping({
  route: 'L28',
  description:
    "Create or update a customer as the shop plugins do: a body already in current names becomes RegisterPluginConsumerCustomer {referenceCustomerId: internalCustomerId, givenName, familyName, emailAddress}, the official current plugin's form of the same call (phoneNumber has no place in it: taken and not sent); answered {customerId}.",
  legacy: 'POST /customers/plugin',
  current: 'POST /customers',
  body: z.object({
    internalCustomerId: blankable(legacyReference),
    emailAddress: email,
    givenName: blankable(shortText),
    familyName: blankable(shortText),
    phoneNumber: blankable(phone),
  }),
  request: { wrap: 'RegisterPluginConsumerCustomer', shape: { phoneNumber: moved() } },
  response: { shape: closed({ customerId: 'customerId' }) },
  answers: ok(z.object({ customerId: z.string().startsWith('cust_') })),
  writeCheck: checkUpsert,
});

export const signInCustomer = defineMapping({
  route: 'L29',
  description:
    'Sign a customer in for the checkout: POST /auth/signin with SignInConsumer {customerId} (the current reference); answered {customToken}, a checkout auth token for that customer.',
  legacy: 'POST /authn/tenants/accounts:signinCustomerWithCustomerId',
  current: 'POST /auth/signin',
  body: z.object({ customerId: idOf('customer') }),
  request: { wrap: 'SignInConsumer', shape: { customerId: 'customerId' } },
  response: { shape: closed({ customToken: 'customToken' }) },
  answers: ok(
    z.object({
      customToken: z
        .string()
        .describe("a checkout auth token for the customer (the checkout component's customerToken)"),
    }),
  ),
  // a sign-in has nothing to read back: the answer the mapping gives for the token the client got
  writeCheck: checkAnswer(({ answer, body }) => ({
    status: 200,
    body: { customerId: stringAt(body, 'customerId'), customToken: stringAt(answer, 'customToken') },
  })),
});
