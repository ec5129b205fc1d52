/** paybridge as a library: the translator, the undici bridge and the sandbox. */
export { createTranslator, isLegacyRequest } from './translate/index.js';
export type {
  CurrentRequest,
  CurrentResponse,
  LegacyRequest,
  LegacyResponse,
  TranslatedRequest,
  TranslationContext,
  Translator,
  TranslatorOptions,
} from './translate/index.js';
export { bridgeInterceptor, type BridgeOptions } from './translate/interceptor.js';
export { defineMapping, toBody, toHeader, toPath, toQuery, LegacyAnswer } from './translate/define.js';
export type { Mapping, MappingDefinition } from './translate/define.js';
export { createSandbox, DEFAULT_FIXTURES, loadFixtures, type Fixtures, type Sandbox } from './sandbox/index.js';
export { ERRORS, PaybridgeError, type ErrorCode } from './errors.js';
