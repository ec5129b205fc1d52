import { PaybridgeError } from '../../src/errors.js';

/** What a synchronous check says of its input: `code: detail` of the PaybridgeError it throws, else 'accepted'. */
export function refusalOf(check: () => unknown): string {
  try {
    check();
  } catch (err) {
    return err instanceof PaybridgeError ? `${err.code}: ${err.detail}` : String(err);
  }
  return 'accepted';
}
