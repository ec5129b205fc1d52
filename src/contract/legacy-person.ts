/**
 * L32's body, a sub-merchant's person as the legacy reference defines it (UpdatePlatformMerchantPerson),
 * for the gateway's mapping and the sandbox's legacy face alike.
 */
import { z } from 'zod';
import { address, email, shortText } from './zod-helpers.js';

const document = z.record(z.string(), z.unknown());

export const legacyPersonBody = z.object({
  title: shortText.min(1),
  roles: z.array(z.enum(['Executive', 'Owner', 'Director'])).min(1, 'expected at least one role'),
  firstName: z.string().min(1).max(100),
  middleName: z.string().max(100).optional(),
  lastName: z.string().min(1).max(100),
  dob: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD'),
  address,
  email,
  phone: z.string().regex(/^\+[1-9]\d{6,14}$/, 'expected a phone number in E.164 form (+61...)'),
  verificationDocs: z.array(document),
  passport: document.optional(),
  driverLicence: document.optional(),
});
