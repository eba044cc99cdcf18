/**
 * Evaluating a condition against a device (runtime) or an AOT target (post-link).
 */
import { truncateArchitecture } from './architecture.js';
import type { Condition } from './condition.js';

/**
 * What evaluation needs to know about a device or target. Kept small so that runtime devices and
 * device-config targets (see `targetDeviceFacts`) can be adapted to it.
 *
 * A runtime device knows everything about itself. An AOT target described by a configuration entry
 * may not: `may_support_other_aspects` leaves aspects it does not list open, and a target such as
 * `spir64_gen` has no fixed architecture. The two optional members say so; {@link decideCondition}
 * uses them, {@link evaluateCondition} ignores them.
 */
export interface DeviceFacts {
  /** Whether the device has the aspect with this `enum aspect` value. */
  hasAspect(aspect: number): boolean;
  /** The full 64-bit `enum architecture` value, or undefined when the architecture is not known. */
  readonly architecture: bigint | undefined;
  /**
   * (optional) Whether `hasAspect(aspect)` is certain. False for an aspect that a configuration entry
   * with `may_support_other_aspects` does not list. Default: always certain.
   */
  knowsAspect?(aspect: number): boolean;
  /**
   * (optional) False when `architecture: undefined` means "not fixed" (some devices of the target
   * match an architecture leaf, some do not) rather than "matches no architecture leaf".
   * Default: true.
   */
  readonly knowsArchitecture?: boolean;
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

/**
 * Three-valued evaluation for AOT resolution: `true` or `false` when the facts decide the condition
 * for every device of the target, `undefined` when the answer depends on something the facts leave
 * open ({@link DeviceFacts.knowsAspect}, {@link DeviceFacts.knowsArchitecture}). Kleene logic, so
 * `unknown && false` is `false` and `unknown || true` is `true`. With facts that know everything the
 * result is exactly {@link evaluateCondition}'s.
 */
export function decideCondition(condition: Condition, device: DeviceFacts): boolean | undefined {
  const architectureKnown = device.knowsArchitecture !== false || device.architecture !== undefined;
  const operand = device.architecture === undefined ? undefined : truncateArchitecture(device.architecture);
  const decide = (node: Condition): boolean | undefined => {
    switch (node.kind) {
      case 'aspect':
        return device.knowsAspect === undefined || device.knowsAspect(node.aspect) ? device.hasAspect(node.aspect) : undefined;
      case 'architecture':
        return architectureKnown ? operand === node.architecture : undefined;
      case 'not': {
        const value = decide(node.operand);
        return value === undefined ? undefined : !value;
      }
      case 'and': {
        const left = decide(node.left);
        if (left === false) return false;
        const right = decide(node.right);
        if (right === false) return false;
        return left === true && right === true ? true : undefined;
      }
      case 'or': {
        const left = decide(node.left);
        if (left === true) return true;
        const right = decide(node.right);
        if (right === true) return true;
        return left === false && right === false ? false : undefined;
      }
      case 'constant':
        return node.value;
    }
  };
  return decide(condition);
}
