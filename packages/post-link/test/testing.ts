/**
 * Helpers shared by this package's tests: parsing IR snippets and running the whole tool in memory.
 */
import { parseModule, printModule, type Module } from '@syclkit/ir';
import { runPostLink, type PostLinkOptions, type PostLinkResult } from '../src/post-link.js';

/** The usual SPIR-V module header of the tests. */
export const HEADER =
  'target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"\n' +
  'target triple = "spir64-unknown-unknown"\n';

/** Parses a module; the header is added unless the text has a triple. */
export function ir(text: string, filename = 'test.ll'): Module {
  return parseModule(text.includes('target triple') ? text : HEADER + text, { filename });
}

/** Names of the functions a module defines, in order. */
export function defined(m: Module): string[] {
  return m.functions.filter((f) => !f.isDeclaration).map((f) => f.name);
}

/** Names of the functions a module declares, in order. */
export function declared(m: Module): string[] {
  return m.functions.filter((f) => f.isDeclaration).map((f) => f.name);
}

/** Runs the tool in memory: the result and every file written (latin1 text or bytes). */
export async function runInMemory(
  module: Module,
  options: Partial<PostLinkOptions> = {},
): Promise<{ result: PostLinkResult; files: Map<string, string> }> {
  const files = new Map<string, string>();
  const result = await runPostLink(
    module,
    { outputs: [{ path: 'out/t.table' }], textIR: true, symbols: true, ...options },
    {
      writeFile: (path, data) => void files.set(path, typeof data === 'string' ? data : Buffer.from(data).toString('latin1')),
      removeFile: (path) => void files.delete(path),
    },
  );
  return { result, files };
}

export { printModule };
