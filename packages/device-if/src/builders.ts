/**
 * Building conditions: plain node constructors, and the exact trees the device headers emit for
 * `if_device_has<...>`, `if_architecture_is<...>`, `else_if_*` and `otherwise` (DeviceIf.md,
 * passes-and-config.md §2.2).
 */
import { architectureOperand } from './architecture.js';
import { ConditionError, isInt32, type Condition } from './condition.js';

/** Leaf: the device has the aspect with this `enum aspect` value. */
export function aspectCondition(aspect: number): Condition {
  if (!isInt32(aspect)) throw new ConditionError('not-int32', 0, `aspect value ${String(aspect)} is not a 32-bit signed integer`);
  return { kind: 'aspect', aspect };
}

/**
 * Leaf: the device has this architecture. A bigint is the 64-bit enum value and is truncated like
 * the header's `static_cast<int>`; a number is an int32 operand already.
 */
export function architectureCondition(architecture: number | bigint): Condition {
  return { kind: 'architecture', architecture: architectureOperand(architecture) };
}

export function notCondition(operand: Condition): Condition {
  return { kind: 'not', operand };
}

/** Right-nested binary `and` of one or more conditions: `a && (b && c)`, the header's shape. */
export function andConditions(...operands: readonly Condition[]): Condition {
  return rightNested('and', operands);
}

/** Right-nested binary `or` of one or more conditions: `a || (b || c)`, the header's shape. */
export function orConditions(...operands: readonly Condition[]): Condition {
  return rightNested('or', operands);
}

function rightNested(kind: 'and' | 'or', operands: readonly Condition[]): Condition {
  if (operands.length === 0) throw new RangeError(`${kind}Conditions needs at least one operand`);
  let result = operands[operands.length - 1]!;
  for (let i = operands.length - 2; i >= 0; i -= 1) result = { kind, left: operands[i]!, right: result };
  return result;
}

/**
 * `ConditionAllAspectsBuilder<Aspects...>`: `[-4,-1,A1, -4,-1,A2, ..., -1,An]`. The header has no
 * specialization for an empty pack, so neither does this.
 */
export function allAspectsCondition(aspects: readonly number[]): Condition {
  if (aspects.length === 0) throw new RangeError('if_device_has needs at least one aspect');
  return andConditions(...aspects.map(aspectCondition));
}

/** `ConditionAnyArchitectureBuilder<Archs...>`: `[-5,-2,X1, ..., -2,Xn]` with truncated operands. */
export function anyArchitectureCondition(architectures: readonly (number | bigint)[]): Condition {
  if (architectures.length === 0) throw new RangeError('if_architecture_is needs at least one architecture');
  return orConditions(...architectures.map(architectureCondition));
}

/**
 * An `if_device_has<...>(f1).else_if_device_has<...>(f2)...` chain. Each clause of the chain emits
 * one `call_if_on_device_conditionally` with a condition; `branches` lists them in order.
 */
export interface DeviceHasChain {
  /** The condition of each clause so far, in source order. */
  readonly branches: readonly Condition[];
  /** The header's `MakeCallIf` for the next clause: every earlier clause was false. */
  readonly elseCondition: Condition;
  /** `else_if_device_has<Aspects...>`: condition `elseCondition && all(Aspects)`. */
  elseIfDeviceHas(...aspects: number[]): DeviceHasChain;
  /** `otherwise`: all branch conditions, ending with the otherwise clause's (`elseCondition`). */
  otherwise(): readonly Condition[];
}

/** An `if_architecture_is<...>(f1).else_if_architecture_is<...>(f2)...` chain. */
export interface ArchitectureIsChain {
  readonly branches: readonly Condition[];
  readonly elseCondition: Condition;
  /** `else_if_architecture_is<Archs...>`: condition `elseCondition && any(Archs)`. */
  elseIfArchitectureIs(...architectures: (number | bigint)[]): ArchitectureIsChain;
  otherwise(): readonly Condition[];
}

/**
 * The first clause's condition is `all(Aspects)`; its else condition is `!all(Aspects)`. Each
 * `else_if` ANDs its own test onto the running else condition (`[-4, else, new]`), and that
 * clause's else condition becomes `[-4, else, -3, new]`.
 */
export function ifDeviceHas(...aspects: number[]): DeviceHasChain {
  const test = allAspectsCondition(aspects);
  return deviceHasChain([test], notCondition(test));
}

function deviceHasChain(branches: readonly Condition[], elseCondition: Condition): DeviceHasChain {
  return {
    branches,
    elseCondition,
    elseIfDeviceHas(...aspects) {
      const test = allAspectsCondition(aspects);
      return deviceHasChain([...branches, andConditions(elseCondition, test)], andConditions(elseCondition, notCondition(test)));
    },
    otherwise: () => [...branches, elseCondition],
  };
}

/** Like {@link ifDeviceHas}, with `any(Archs)` as the test of each clause. */
export function ifArchitectureIs(...architectures: (number | bigint)[]): ArchitectureIsChain {
  const test = anyArchitectureCondition(architectures);
  return architectureIsChain([test], notCondition(test));
}

function architectureIsChain(branches: readonly Condition[], elseCondition: Condition): ArchitectureIsChain {
  return {
    branches,
    elseCondition,
    elseIfArchitectureIs(...architectures) {
      const test = anyArchitectureCondition(architectures);
      return architectureIsChain(
        [...branches, andConditions(elseCondition, test)],
        andConditions(elseCondition, notCondition(test)),
      );
    },
    otherwise: () => [...branches, elseCondition],
  };
}
