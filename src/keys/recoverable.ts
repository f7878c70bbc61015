/** keygate keeps only a key's SHA-256, never the key itself, encrypted or not. */
import { ApiError } from '../errors/api-error.js';

/** The 412 for `recoverable: true` and `decrypt: true`: there is no plaintext to keep or return. */
export const notRecoverable = (): ApiError => new ApiError('err:unkey:application:precondition_failed',
  'This API does not support key encryption: keygate never stores plaintext keys, so no key can be recoverable or decrypted.');
