/**
 * fast-check arbitraries for conditions and devices. Small value pools on purpose: random
 * conditions then share leaves often enough to exercise duplicates, complements and absorption.
 */
import { fc } from '@fast-check/vitest';
import { architectureCondition, aspectCondition, ifArchitectureIs, ifDeviceHas, notCondition } from '../src/builders.js';
import type { Condition } from '../src/condition.js';
import { deviceFacts, type DeviceFacts } from '../src/evaluate.js';

/** fp16, fp64, atomic64, ext_intel_esimd. */
export const ASPECTS = [5, 6, 28, 53] as const;

/** 64-bit architecture values; x86_64 and intel_gpu_tgllp both truncate to 0. */
export const DEVICE_ARCHITECTURES = [
  0x0300000000000000n, // x86_64 → 0
  0x0000000300000000n, // intel_gpu_tgllp → 0
  0x000000030f000700n, // intel_gpu_pvc → 251660032
  0x0000000302800000n, // intel_gpu_dg1 → 41943040
  0x00000002c0000000n, // intel_gpu_icllp → -1073741824
  0x0100000000008000n, // nvidia_gpu_sm_80 → 32768
] as const;

/** Operands that appear in generated conditions (sm_80 is left out so some devices match none). */
export const ARCHITECTURE_OPERANDS = [0, 251660032, 41943040, -1073741824] as const;

const aspectLeaf = fc.constantFrom(...ASPECTS).map(aspectCondition);
const architectureLeaf = fc.constantFrom(...ARCHITECTURE_OPERANDS).map(architectureCondition);
const constantLeaf = fc.boolean().map((value): Condition => ({ kind: 'constant', value }));

function conditionArbitrary(withConstants: boolean): fc.Arbitrary<Condition> {
  return fc.letrec<{ node: Condition }>((tie) => ({
    node: fc.oneof(
      { maxDepth: 6, depthIdentifier: withConstants ? 'condition-with-constants' : 'condition' },
      aspectLeaf,
      architectureLeaf,
      ...(withConstants ? [constantLeaf] : []),
      tie('node').map(notCondition),
      fc.tuple(tie('node'), tie('node')).map(([left, right]): Condition => ({ kind: 'and', left, right })),
      fc.tuple(tie('node'), tie('node')).map(([left, right]): Condition => ({ kind: 'or', left, right })),
    ),
  })).node;
}

/** Conditions the integer encoding can express (no constants). */
export const encodableCondition = conditionArbitrary(false);

/** Conditions that may also contain true/false constants. */
export const anyCondition = conditionArbitrary(true);

export interface GeneratedDevice {
  readonly aspects: readonly number[];
  readonly architecture: bigint | undefined;
  readonly facts: DeviceFacts;
}

export const device: fc.Arbitrary<GeneratedDevice> = fc
  .record({
    aspects: fc.subarray([...ASPECTS]),
    architecture: fc.option(fc.constantFrom(...DEVICE_ARCHITECTURES), { nil: undefined }),
  })
  .map(({ aspects, architecture }) => ({ aspects, architecture, facts: deviceFacts(aspects, architecture) }));

/**
 * One clause of an `if_device_has` or `if_architecture_is` chain (its call condition or the
 * otherwise condition), the shapes real code produces: ANDs of aspects, ORs of architectures and
 * their negations.
 */
export const headerCondition: fc.Arbitrary<Condition> = fc
  .record({
    architectures: fc.boolean(),
    clauses: fc.array(fc.array(fc.nat(3), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }),
    pick: fc.nat(),
  })
  .map(({ architectures, clauses, pick }) => {
    let conditions: readonly Condition[];
    if (architectures) {
      const operands = clauses.map((clause) => clause.map((i) => ARCHITECTURE_OPERANDS[i]!));
      let chain = ifArchitectureIs(...operands[0]!);
      for (const clause of operands.slice(1)) chain = chain.elseIfArchitectureIs(...clause);
      conditions = chain.otherwise();
    } else {
      const aspects = clauses.map((clause) => clause.map((i) => ASPECTS[i]!));
      let chain = ifDeviceHas(...aspects[0]!);
      for (const clause of aspects.slice(1)) chain = chain.elseIfDeviceHas(...clause);
      conditions = chain.otherwise();
    }
    return conditions[pick % conditions.length]!;
  });
