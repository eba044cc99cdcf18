import { SyclError } from '../src/index.js';

/** The SyclError `action` throws; any other outcome fails the test. */
export function thrown(action: () => unknown): SyclError {
  try {
    action();
  } catch (error) {
    if (error instanceof SyclError) return error;
    throw error;
  }
  throw new Error('expected a SyclError, nothing was thrown');
}
