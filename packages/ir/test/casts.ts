import { parseModule } from '../src/reader/parser.js';
import { printModule } from '../src/printer/printer.js';
import { replaceAllUsesWith } from '../src/transforms/replace.js';
import type { Value } from '../src/model/values.js';

/**
 * `text` read (opaque pointers) and printed again without `bitcast ptr %x to ptr`, its uses
 * taking `%x`, and with the `llvm.*` declarations last in name order: what a module written with
 * typed pointers means once the pointer types are gone.
 */
export function withoutNoOpCasts(text: string): string {
  const m = parseModule(text, { filename: '<stdin>', odrTypeUniquing: false });
  const casts = new Map<Value, Value>();
  for (const f of m.functions) for (const b of f.blocks) for (const i of b.instructions) if (i.opcode === 'bitcast' && i.operands[0]!.type === i.type) casts.set(i, i.operands[0]!);
  for (const [cast, source] of casts) {
    let to = source;
    while (casts.has(to)) to = casts.get(to)!;
    casts.set(cast, to);
  }
  replaceAllUsesWith(m, casts);
  for (const f of m.functions) for (const b of f.blocks) b.instructions = b.instructions.filter((i) => !casts.has(i));
  // reading typed-pointer bitcode renames intrinsics (`.p0i8` -> `.p0`) into new declarations at the end
  const intrinsics = m.functions.filter((f) => f.isDeclaration && f.name.startsWith('llvm.')).sort((a, b) => (a.name < b.name ? -1 : 1));
  m.functions.splice(0, m.functions.length, ...m.functions.filter((f) => !intrinsics.includes(f)), ...intrinsics);
  return printModule(m);
}
