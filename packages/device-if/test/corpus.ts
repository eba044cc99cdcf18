/**
 * Reads the expected `!sycl_conditionally_used_aspects` of each function from the FileCheck lines
 * of an intel/llvm conformance test (shared/conformance, beside the checkout), resolving the
 * `[[#ID:]]` captures into nested number arrays.
 */
import { readFileSync } from 'node:fs';

export const CONDITIONAL_ASPECTS_CORPUS = new URL(
  '../../../../shared/conformance/intel-llvm/llvm/test/SYCLLowerIR/PropagateAspectsUsage/PropogateConditionalAspects/',
  import.meta.url,
);

type Resolved = number | Resolved[];

export function expectedConditionallyUsedAspects(file: string): Map<string, Resolved> {
  const text = readFileSync(new URL(file, CONDITIONAL_ASPECTS_CORPUS), 'utf8');
  const checks = text.split('\n').flatMap((line) => (line.startsWith('; CHECK: ') ? [line.slice('; CHECK: '.length)] : []));

  const nodes = new Map<string, string>();
  for (const check of checks) {
    const node = /^!\[\[#(\w+)\]\] = !\{(.*)\}$/.exec(check);
    if (node) nodes.set(node[1]!, node[2]!);
  }
  const resolve = (id: string): Resolved[] => {
    const body = nodes.get(id);
    if (body === undefined) throw new Error(`${file}: no CHECK line defines ${id}`);
    return body.split(', ').map((operand) => {
      const int = /^i32 (-?\d+)$/.exec(operand);
      if (int) return Number(int[1]);
      const ref = /^!\[\[#(\w+):?\]\]$/.exec(operand);
      if (ref) return resolve(ref[1]!);
      throw new Error(`${file}: cannot read operand '${operand}' of ${id}`);
    });
  };

  const byFunction = new Map<string, Resolved>();
  for (const check of checks) {
    const attached = /!sycl_conditionally_used_aspects !\[\[#(\w+):?\]\]/.exec(check);
    const name = /@(\w+)/.exec(check);
    if (attached && name) byFunction.set(name[1]!, resolve(attached[1]!));
  }
  return byFunction;
}
