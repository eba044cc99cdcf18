import { decodeIRText, parseModule, type Module, type ParseOptions } from '@syclkit/ir';
import { readFileSync } from 'node:fs';
import { UsageError } from './args.js';
import { readInput, type CliIO } from './io.js';
import { isBitcode, runLlvmTool } from './llvm-tools.js';

/**
 * Reads a module from a file or stdin (`-`); bitcode goes through LLVM's llvm-dis. Kept apart from
 * the pass registry so commands that run no passes (post-link, module-split) load less.
 */
export async function readModule(
  input: string,
  io: CliIO,
  onWarning: (message: string) => void,
  pointers?: ParseOptions['pointers'],
  onFunction?: ParseOptions['onFunction'],
): Promise<Module> {
  const text = await readIRText(input, io);
  return parseModule(text, {
    filename: input === '-' ? '<stdin>' : input,
    onWarning,
    ...(pointers === undefined ? {} : { pointers }),
    ...(onFunction === undefined ? {} : { onFunction }),
  });
}

/** The input's IR text; its bytes are not referenced afterwards, so they can be freed while parsing. */
export async function readIRText(input: string, io: CliIO): Promise<string> {
  return irTextOf(await readInput(input, io));
}

/** IR text of input bytes: text IR as is, bitcode through LLVM's llvm-dis (`what` names it in errors). */
export function irTextOf(bytes: Buffer, what = 'reading bitcode'): string {
  return decodeIRText(isBitcode(bytes) ? runLlvmTool('llvm-dis', ['-o', '-', '-'], bytes, what) : bytes);
}

/** A unit's IR text: the text already read, or its file's. */
export function unitText(unit: UnitInput): string {
  return unit.text ?? irTextOf(readFileSync(unit.file), `reading the bitcode file '${unit.file}'`);
}

/** A translation unit argument: a file, or standard input already read (`file` is `<stdin>`). */
export interface UnitInput {
  readonly file: string;
  readonly text?: string;
}

/** Input files of a command that takes several; `-` (at most once) is standard input, as in clang. */
export async function unitInputs(paths: readonly string[], io: CliIO): Promise<UnitInput[]> {
  if (paths.filter((p) => p === '-').length > 1) throw new UsageError("standard input ('-') can be given only once");
  const units: UnitInput[] = [];
  for (const file of paths) units.push(file === '-' ? { file: '<stdin>', text: await readIRText('-', io) } : { file });
  return units;
}
