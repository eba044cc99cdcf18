/**
 * `sycl::errc` and `sycl::exception`, reduced to what the runtime model throws.
 */

/**
 * The `sycl::errc` values the runtime throws (spelled as in SYCL 2020, section 4.13.2). The
 * values are the names, so `error.code === errc.kernel_not_supported` reads like the C++.
 */
export const errc = {
  /** A kernel uses a feature the device lacks (aspect, sub-group size, work-group size, fixed target). */
  kernel_not_supported: 'kernel_not_supported',
  /** The submitted range contradicts the kernel or the device (local size, dimensions). */
  nd_range: 'nd_range',
  /** A program could not be built for the device (the backend's error). */
  build_program_failure: 'build_program_failure',
  /**
   * A program could not be put together: an imported device function that no registered binary
   * exports (intel/llvm throws `errc::build` with "No device image found for external symbol").
   */
  build: 'build',
  /** Misuse of the API (two kernels in one command group, bad range values). */
  invalid: 'invalid',
  /** A runtime failure that is none of the above (no kernel of that name, no image for the device). */
  runtime: 'runtime',
  /** The request needs something this runtime does not support (rebuilding an AOT image). */
  feature_not_supported: 'feature_not_supported',
} as const;

export type Errc = (typeof errc)[keyof typeof errc];

/**
 * `sycl::exception`: `code` says which `errc` it carries, `message` is `what()`.
 * `render()` gives the one line the CLI prints: `<errc>: <message>`.
 */
export class SyclError extends Error {
  override readonly name = 'SyclError';
  constructor(
    readonly code: Errc,
    message: string,
  ) {
    super(message);
  }

  /** `kernel_not_supported: Required aspect fp16 is not supported on the device`. */
  render(): string {
    return `${this.code}: ${this.message}`;
  }
}

/** Whether a value is a SyclError with the given code (any code when omitted). */
export function isSyclError(error: unknown, code?: Errc): error is SyclError {
  return error instanceof SyclError && (code === undefined || error.code === code);
}
