import { decodeIRText, parseModule, type Module, type ParseOptions } from '@syclkit/ir';
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
async function readIRText(input: string, io: CliIO): Promise<string> {
  const bytes = await readInput(input, io);
  return decodeIRText(isBitcode(bytes) ? runLlvmTool('llvm-dis', ['-o', '-', '-'], bytes, 'reading bitcode') : bytes);
}
