/**
 * TEST-ONLY. SPIR-V kernel modules shaped as llvm-spirv writes them: Addresses, Linkage, Kernel
 * (plus the capabilities given), Physical64 OpenCL, and for each kernel a nameless entry-point
 * wrapper that calls the kernel's own function (which keeps the kernel's name and linkage).
 */
import { SpirvOp, encodeSpirvInstruction, spirvStringWords } from '@syclkit/formats';

export interface SpirvFunctionModel {
  readonly name: string;
  readonly kernel?: boolean;
  readonly linkage?: 'export' | 'import' | 'linkonce_odr';
  /** No body (an import). */
  readonly declaration?: boolean;
  readonly calls?: readonly string[];
  readonly subGroupSize?: number;
  readonly localSize?: readonly [number, number, number];
}

const LINKAGE = { export: 0, import: 1, linkonce_odr: 2 } as const;

/** The module's bytes (little-endian). */
export function spirvModule(functions: readonly SpirvFunctionModel[], capabilities: readonly number[] = []): Uint8Array {
  const ids = new Map<string, number>();
  let next = 3; // 1: void, 2: function type
  for (const fn of functions) ids.set(fn.name, next++);
  const wrappers = new Map<string, number>();
  for (const fn of functions) if (fn.kernel === true) wrappers.set(fn.name, next++);
  const words: number[] = [];
  const emit = (opcode: number, operands: readonly number[]): void => {
    words.push(...encodeSpirvInstruction(opcode, operands));
  };
  for (const cap of [4, 5, 6, ...capabilities]) emit(SpirvOp.Capability, [cap]);
  emit(SpirvOp.MemoryModel, [2, 2]);
  for (const [name, wrapper] of wrappers) emit(SpirvOp.EntryPoint, [6, wrapper, ...spirvStringWords(name)]);
  for (const fn of functions) {
    const wrapper = wrappers.get(fn.name);
    if (wrapper === undefined) continue;
    if (fn.subGroupSize !== undefined) emit(SpirvOp.ExecutionMode, [wrapper, 35, fn.subGroupSize]);
    if (fn.localSize !== undefined) emit(SpirvOp.ExecutionMode, [wrapper, 17, ...fn.localSize]);
  }
  for (const fn of functions) emit(SpirvOp.Name, [ids.get(fn.name)!, ...spirvStringWords(fn.name)]);
  for (const fn of functions) if (fn.linkage !== undefined) emit(SpirvOp.Decorate, [ids.get(fn.name)!, 41, ...spirvStringWords(fn.name), LINKAGE[fn.linkage]]);
  emit(SpirvOp.TypeVoid, [1]);
  emit(33, [2, 1]);
  const body = (calls: readonly number[]): void => {
    emit(SpirvOp.Label, [next++]);
    for (const callee of calls) emit(SpirvOp.FunctionCall, [1, next++, callee]);
    emit(253, []);
  };
  for (const fn of functions) {
    emit(SpirvOp.Function, [1, ids.get(fn.name)!, 0, 2]);
    if (fn.declaration !== true) {
      body(
        (fn.calls ?? []).map((callee) => {
          const id = ids.get(callee);
          if (id === undefined) throw new Error(`spirvModule: '${fn.name}' calls '${callee}', which the module does not have`);
          return id;
        }),
      );
    }
    emit(SpirvOp.FunctionEnd, []);
  }
  for (const [name, wrapper] of wrappers) {
    emit(SpirvOp.Function, [1, wrapper, 0, 2]);
    body([ids.get(name)!]);
    emit(SpirvOp.FunctionEnd, []);
  }
  const all = [0x07230203, 0x00010400, (6 << 16) | 14, next, 0, ...words];
  const bytes = new Uint8Array(all.length * 4);
  const view = new DataView(bytes.buffer);
  all.forEach((word, i) => view.setUint32(4 * i, word >>> 0, true));
  return bytes;
}

/** Capability values the tests use. */
export const Capability = { Float16: 9, Float64: 10, Int64: 11, Int64Atomics: 12, Float16Buffer: 8 } as const;
