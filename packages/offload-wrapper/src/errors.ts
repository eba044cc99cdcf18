/**
 * Errors meant for users. `render()` gives the one-line form the CLI prints (no stack trace):
 * `file: error: reason`, or for a container `file: error: offset N (0xN): reason`.
 */
export class WrapperError extends Error {
  override readonly name: string = 'WrapperError';

  constructor(
    readonly reason: string,
    /** The file the problem is in, when there is one. */
    readonly file?: string,
  ) {
    super(file === undefined ? reason : `${file}: ${reason}`);
  }

  render(): string {
    return this.file === undefined ? `error: ${this.reason}` : `${this.file}: error: ${this.reason}`;
  }
}

/**
 * A container file that is truncated, corrupted or not a container at all. `offset` is the byte
 * offset in the file where the reader found the problem.
 */
export class ContainerError extends WrapperError {
  override readonly name: string = 'ContainerError';

  constructor(
    reason: string,
    override readonly file: string,
    readonly offset: number,
  ) {
    super(`${formatOffset(offset)}: ${reason}`, file);
  }
}

/** A tool an AOT backend needs is not installed, or failed. */
export class AotToolError extends WrapperError {
  override readonly name: string = 'AotToolError';
}

/** `1234 (0x4d2)`. */
export function formatOffset(offset: number): string {
  return `offset ${offset} (0x${offset.toString(16)})`;
}
