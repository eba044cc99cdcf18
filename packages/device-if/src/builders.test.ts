import { describe, expect, it } from 'vitest';
import {
  allAspectsCondition,
  andConditions,
  anyArchitectureCondition,
  architectureCondition,
  aspectCondition,
  ifArchitectureIs,
  ifDeviceHas,
  notCondition,
  orConditions,
} from './builders.js';
import { encodeCondition } from './condition.js';

const encodeAll = (conditions: readonly Parameters<typeof encodeCondition>[0][]) => conditions.map((c) => encodeCondition(c));

describe('leaf and node builders', () => {
  it('builds leaves and truncates 64-bit architectures', () => {
    expect(aspectCondition(5)).toEqual({ kind: 'aspect', aspect: 5 });
    expect(architectureCondition(0x000000030f000700n)).toEqual({ kind: 'architecture', architecture: 251660032 });
    expect(() => aspectCondition(1.5)).toThrow(/not a 32-bit signed integer/);
  });

  it('right-nests and/or like the header', () => {
    const [a, b, c] = [aspectCondition(1), aspectCondition(2), aspectCondition(3)];
    expect(encodeCondition(andConditions(a, b, c))).toEqual([-4, -1, 1, -4, -1, 2, -1, 3]);
    expect(encodeCondition(orConditions(a, b))).toEqual([-5, -1, 1, -1, 2]);
    expect(andConditions(a)).toBe(a);
    expect(encodeCondition(notCondition(a))).toEqual([-3, -1, 1]);
    expect(() => andConditions()).toThrow(RangeError);
  });
});

describe('header builders (passes-and-config.md §2.2)', () => {
  it('ConditionAllAspectsBuilder: [-4,-1,A1, -4,-1,A2, ..., -1,An]', () => {
    expect(encodeCondition(allAspectsCondition([5, 6, 28]))).toEqual([-4, -1, 5, -4, -1, 6, -1, 28]);
    expect(encodeCondition(allAspectsCondition([5]))).toEqual([-1, 5]);
  });

  it('ConditionAnyArchitectureBuilder: [-5,-2,X1, ..., -2,Xn] with truncated operands', () => {
    expect(encodeCondition(anyArchitectureCondition([0x000000030f000700n, 0x0000000302800000n]))).toEqual([
      -5, -2, 251660032, -2, 41943040,
    ]);
  });

  it('rejects empty packs, which the header cannot instantiate', () => {
    expect(() => allAspectsCondition([])).toThrow(RangeError);
    expect(() => anyArchitectureCondition([])).toThrow(RangeError);
  });

  it('if_device_has: the call condition is all(A), the else condition [-3, all(A)]', () => {
    const chain = ifDeviceHas(5, 6);
    expect(encodeAll(chain.branches)).toEqual([[-4, -1, 5, -1, 6]]);
    expect(encodeCondition(chain.elseCondition)).toEqual([-3, -4, -1, 5, -1, 6]);
  });

  it('else_if_device_has: [-4, previous-else, new]; its else [-4, previous-else, -3, new]', () => {
    const chain = ifDeviceHas(5).elseIfDeviceHas(6, 28);
    expect(encodeAll(chain.branches)).toEqual([
      [-1, 5],
      [-4, -3, -1, 5, -4, -1, 6, -1, 28],
    ]);
    expect(encodeCondition(chain.elseCondition)).toEqual([-4, -3, -1, 5, -3, -4, -1, 6, -1, 28]);
  });

  it('otherwise: the accumulated else condition, after every earlier branch', () => {
    const conditions = ifDeviceHas(5).elseIfDeviceHas(6).otherwise();
    expect(encodeAll(conditions)).toEqual([
      [-1, 5],
      [-4, -3, -1, 5, -1, 6],
      [-4, -3, -1, 5, -3, -1, 6],
    ]);
  });

  it('if_architecture_is / else_if_architecture_is / otherwise', () => {
    const conditions = ifArchitectureIs(0x000000030f000700n).elseIfArchitectureIs(41943040, 0x00000002c0000000n).otherwise();
    expect(encodeAll(conditions)).toEqual([
      [-2, 251660032],
      [-4, -3, -2, 251660032, -5, -2, 41943040, -2, -1073741824],
      [-4, -3, -2, 251660032, -3, -5, -2, 41943040, -2, -1073741824],
    ]);
  });

  it('leaves earlier chains unchanged when extended (chains are immutable)', () => {
    const first = ifDeviceHas(5);
    first.elseIfDeviceHas(6);
    expect(first.branches).toHaveLength(1);
  });
});
