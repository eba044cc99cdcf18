/**
 * Evaluating a condition against a device (runtime) or an AOT target (post-link).
 */
import { truncateArchitecture } from './architecture.js';
import type { Condition } from './condition.js';

/**
 * What evaluation needs to know about a device or target. Kept local so that device-config targets
 * and runtime devices can be adapted to it without this package depending on either.
 */
export interface DeviceFacts {
  /** Whether the device has the aspect with this `enum aspect` value. */
  hasAspect(aspect: number): boolean;
  /** The full 64-bit `enum architecture` value, or undefined when the architecture is not known. */
  readonly architecture: bigint | undefined;
}

/** {@link DeviceFacts} from a plain list of aspect values and an optional architecture. */
export function deviceFacts(aspects: Iterable<number>, architecture?: bigint): DeviceFacts {
  const set = new Set(aspects);
  return { hasAspect: (aspect) => set.has(aspect), architecture };
}

/**
 * Evaluates `condition` for `device`.
 *
 * Architecture leaves compare the device's architecture *truncated to 32 bits* with the operand,
 * because the operand is a truncation (see `truncateArchitecture`). Where truncations collide this
 * follows the encoding rather than the user's intent: a device whose architecture is
 * intel_gpu_tgllp satisfies `arch(0)` even if the source said `x86_64`. A device with an unknown
 * architecture satisfies no architecture leaf.
 */
export function evaluateCondition(condition: Condition, device: DeviceFacts): boolean {
  const operand = device.architecture === undefined ? undefined : truncateArchitecture(device.architecture);
  const evaluate = (node: Condition): boolean => {
    switch (node.kind) {
      case 'aspect':
        return device.hasAspect(node.aspect);
      case 'architecture':
        return operand === node.architecture;
      case 'not':
        return !evaluate(node.operand);
      case 'and':
        return evaluate(node.left) && evaluate(node.right);
      case 'or':
        return evaluate(node.left) || evaluate(node.right);
      case 'constant':
        return node.value;
    }
  };
  return evaluate(condition);
}
