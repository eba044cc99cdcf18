/**
 * Architecture operands. `enum class architecture` is 64-bit (`0xAA BBBB CCCCCCCC DD`), but the
 * header writes `static_cast<int>(Arch)` into the Condition Expression, so the IR only carries the
 * low 32 bits, read as a signed int. Every comparison against a device or target must therefore use
 * the truncation too, and distinct architectures can collide: x86_64 (0x03…00), unknown (0x99…00),
 * intel_gpu_bdw (0x2_00000000) and intel_gpu_tgllp (0x3_00000000) all truncate to 0.
 */
import { truncateArchitectureToInt32 } from '@syclkit/device-config';
import { ConditionError, isInt32, type Condition } from './condition.js';

/**
 * The int32 operand the header emits for a 64-bit `architecture` value (`static_cast<int>`).
 * The same function as `@syclkit/device-config`'s `truncateArchitectureToInt32`, re-exported
 * under this package's name so that the two can never disagree.
 */
export const truncateArchitecture: (value: bigint) => number = truncateArchitectureToInt32;

/**
 * An architecture as a Condition Expression operand: a bigint is a full 64-bit enum value and is
 * truncated; a number is taken as an operand already and must be an int32.
 */
export function architectureOperand(architecture: number | bigint): number {
  if (typeof architecture === 'bigint') return truncateArchitecture(architecture);
  if (!isInt32(architecture)) {
    throw new ConditionError(
      'not-int32',
      0,
      `architecture operand ${String(
        architecture,
      )} is not a 32-bit signed integer; pass the 64-bit enum value as a bigint to truncate it`,
    );
  }
  return architecture;
}

/** The distinct architecture operands a condition mentions, in first-occurrence order. */
export function architectureOperandsOf(condition: Condition): number[] {
  const seen = new Set<number>();
  const pending: Condition[] = [condition];
  while (pending.length > 0) {
    const node = pending.pop()!;
    switch (node.kind) {
      case 'architecture':
        seen.add(node.architecture);
        break;
      case 'not':
        pending.push(node.operand);
        break;
      case 'and':
      case 'or':
        pending.push(node.right, node.left);
        break;
      default:
        break;
    }
  }
  return [...seen];
}

/**
 * The architecture operands of `condition` that stand for more than one of `knownArchitectures`
 * (distinct 64-bit values with the same truncation), each with the colliding values in the order
 * given. Callers use it to warn that e.g. `arch(0)` also matches intel_gpu_bdw and intel_gpu_tgllp
 * when the user wrote x86_64; evaluation itself cannot tell them apart.
 */
export function ambiguousArchitectureOperands(condition: Condition, knownArchitectures: Iterable<bigint>): Map<number, bigint[]> {
  const byOperand = new Map<number, bigint[]>();
  for (const value of knownArchitectures) {
    const operand = truncateArchitecture(value);
    const values = byOperand.get(operand) ?? [];
    if (!values.includes(value)) values.push(value);
    byOperand.set(operand, values);
  }
  const ambiguous = new Map<number, bigint[]>();
  for (const operand of architectureOperandsOf(condition)) {
    const values = byOperand.get(operand);
    if (values !== undefined && values.length > 1) ambiguous.set(operand, values);
  }
  return ambiguous;
}
