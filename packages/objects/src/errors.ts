/**
 * Every error this package throws for bad input: the file, where in it (a byte offset, or an
 * archive member), and what was expected there. `render()` gives `file: error: ...` for a CLI.
 */
export class ObjectFormatError extends Error {
  override readonly name: string = 'ObjectFormatError';

  constructor(
    readonly file: string,
    readonly reason: string,
    readonly offset?: number,
  ) {
    super(`${file}: ${offset === undefined ? '' : `offset ${offset} (0x${offset.toString(16)}): `}${reason}`);
  }

  render(): string {
    return `${this.file}: error: ${this.offset === undefined ? '' : `offset ${this.offset} (0x${this.offset.toString(16)}): `}${this.reason}`;
  }
}

/** An input the device link cannot use: missing definitions, kernels, another host. */
export class DeviceLinkError extends Error {
  override readonly name: string = 'DeviceLinkError';

  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }

  render(): string {
    return `${this.file}: error: ${this.reason}`;
  }
}
