import { readFileSync } from 'node:fs';
import { CliError } from './command.js';
import { UsageError } from './args.js';
import { commands } from './commands/index.js';
import { processIO, type CliIO } from './io.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

function usage(): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    'usage: syclkit <command> [options]',
    '',
    'DPC++ device-code toolchain for SYCL 2020 optional kernel features.',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'Run `syclkit <command> --help` for the options of a command.',
    '',
  ].join('\n');
}

/** Something that knows how to print itself for a user (e.g. `file:line:col: error: ...`). */
interface Renderable {
  render(): string;
}

function isRenderable(error: unknown): error is Error & Renderable {
  return error instanceof Error && typeof (error as Partial<Renderable>).render === 'function';
}

/** Runs `syclkit` with `argv` (without node and script); returns the process exit code. */
export async function main(argv: readonly string[], io: CliIO = processIO()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-help' || name === '-h' || name === 'help') {
    io.stdout.write(usage());
    return name === undefined ? 1 : 0;
  }
  if (name === '--version' || name === '-version') {
    io.stdout.write(`syclkit ${version()}\n`);
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (entry === undefined) {
    io.stderr.write(`syclkit: error: unknown command '${name}'; run 'syclkit --help' for the list\n`);
    return 1;
  }
  try {
    const command = await entry.load();
    return await command.run(rest, io);
  } catch (error) {
    if (isRenderable(error)) {
      io.stderr.write(error.render().replace(/\n?$/, '\n'));
      return 1;
    }
    if (error instanceof UsageError || error instanceof CliError) {
      io.stderr.write(`syclkit ${name}: error: ${error.message}\n`);
      return error instanceof CliError ? error.exitCode : 2;
    }
    const err = error as NodeJS.ErrnoException;
    if (err && typeof err.code === 'string' && typeof err.path === 'string') {
      io.stderr.write(`syclkit ${name}: error: ${err.path}: ${describeErrno(err)}\n`);
      return 1;
    }
    io.stderr.write(`syclkit ${name}: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (process.env['SYCLKIT_DEBUG']) io.stderr.write(`${(error as Error).stack ?? ''}\n`);
    return 70;
  }
}

function describeErrno(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'not a directory';
    default:
      return err.message;
  }
}
