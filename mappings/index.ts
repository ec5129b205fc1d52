/** Every mapping, one file per legacy resource. The router checks them when it compiles. */
import type { Mapping } from '../src/translate/define.js';
import * as customers from './customers.js';
import * as merchants from './merchants.js';
import * as orders from './orders.js';
import * as pay from './pay.js';
import * as payplans from './payplans.js';
import * as refunds from './refunds.js';
import * as sources from './sources.js';
import * as tokens from './tokens.js';
import * as transactions from './transactions.js';

const isMapping = (value: unknown): value is Mapping =>
  typeof value === 'object' && value !== null && 'route' in value && 'source' in value;

const MODULES = [orders, pay, transactions, refunds, customers, sources, tokens, payplans, merchants];

export const ALL_MAPPINGS: readonly Mapping[] = MODULES.flatMap((module) => Object.values(module)).filter(isMapping);

/** Each mapping's export name (`createRefund`): the operation id of its route in the legacy OpenAPI document. */
export const MAPPING_NAMES: ReadonlyMap<Mapping, string> = new Map(
  MODULES.flatMap((module) => Object.entries(module)).flatMap(([name, value]) =>
    isMapping(value) ? [[value, name] as const] : [],
  ),
);
