/**
 * `validate` write safety: translate the legacy write and check the current request against the
 * current API's own request schema, sending nothing.
 */
import type { z } from 'zod';
import { CURRENT_ROUTES } from '../contract/current-routes.js';
import { describeIssues } from '../contract/zod-helpers.js';
import type { CurrentRequest } from '../translate/messages.js';

/** Current call (method + path template, as mappings name it) -> request body schema. */
const SCHEMAS: ReadonlyMap<string, z.ZodType> = new Map(
  CURRENT_ROUTES.flatMap((r) => (r.body ? [[`${r.method} ${r.path}`, r.body] as const] : [])),
);

/** Null when the current request is valid for the current API; else the problem, naming the field. */
export function validateCurrentRequest(currentCall: string, request: CurrentRequest): string | null {
  const schema = SCHEMAS.get(currentCall);
  if (!schema) return request.body === undefined ? null : `${currentCall} takes no body`;
  const result = schema.safeParse(request.body);
  return result.success ? null : describeIssues(result.error);
}
