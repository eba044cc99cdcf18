import type { CliIO } from './io.js';

/** One `syclkit <name>` subcommand. */
export interface Command {
  readonly name: string;
  /** One line for `syclkit --help`. */
  readonly summary: string;
  /** Runs with the arguments after the command name; returns the exit code. */
  run(argv: readonly string[], io: CliIO): Promise<number>;
}

/**
 * An error meant for the user: printed as `syclkit <cmd>: error: <message>` (or its own
 * `render()`, for errors that carry a source location), never with a stack trace.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
