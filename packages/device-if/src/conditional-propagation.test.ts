import { describe, expect, it } from 'vitest';
import { expectedConditionallyUsedAspects } from '../test/corpus.js';
import { ConditionError } from './condition.js';
import { architectureAspectsFromTable, toConditionallyUsedAspectsOperands } from './conditional-aspects.js';
import { propagateConditionalAspects, type AspectCallGraphFunction } from './conditional-propagation.js';

/**
 * The call graphs of the intel/llvm tests under PropagateAspectsUsage/PropogateConditionalAspects/,
 * written out by hand from their IR: functions in module order, the aspects the pass finds in each
 * (Optional.A..D use aspects 1..4, `double` uses fp64 = 6), calls in instruction order.
 * `conditions` replaces the integer arguments of the conditional calls, in call order.
 */
function corpusGraph(file: string, conditions: number[][]): AspectCallGraphFunction[] {
  const [first = [], second = []] = conditions;
  const cc = (name: string): AspectCallGraphFunction => ({ name, conditionalCaller: true });
  switch (file) {
    case 'conditional-aspects-1.ll':
      return [
        { name: 'kernel', entryPoint: true, calls: [{ callee: 'func1' }, { callee: 'func2' }] },
        { name: 'func1', aspects: [1] },
        { name: 'func2', aspects: [2], calls: [{ callee: 'cond_func1', action: 'func3', condition: first }] },
        { name: 'func3', aspects: [3, 6] },
        cc('cond_func1'),
      ];
    case 'conditional-aspects-2.ll':
      return [
        {
          name: 'kernel',
          entryPoint: true,
          calls: [
            { callee: 'cond_func1', action: 'func1', condition: first },
            { callee: 'cond_func2', action: 'func2', condition: second },
          ],
        },
        { name: 'func1', aspects: [1] },
        { name: 'func2', aspects: [2] },
        cc('cond_func1'),
        cc('cond_func2'),
      ];
    case 'conditional-aspects-4.ll':
      return [
        { name: 'kernel', entryPoint: true, calls: [{ callee: 'func1' }, { callee: 'func2' }] },
        { name: 'func1', aspects: [1] },
        { name: 'func2', aspects: [2], calls: [{ callee: 'cond_func1', action: 'func3', condition: first }] },
        { name: 'func3', aspects: [3], calls: [{ callee: 'cond_func2', action: 'func4', condition: second }] },
        { name: 'func4', aspects: [4] },
        cc('cond_func1'),
        cc('cond_func2'),
      ];
    default:
      throw new Error(`no graph for ${file}`);
  }
}

/** The integer arguments the corpus tests pass: placeholders, not valid Condition Expressions. */
const CORPUS_CONDITIONS: Record<string, number[][]> = {
  'conditional-aspects-1.ll': [[0, 0]],
  'conditional-aspects-2.ll': [
    [0, 0],
    [0, 0],
  ],
  'conditional-aspects-4.ll': [
    [1, 2],
    [3, 4],
  ],
};

const operandsByFunction = (graph: AspectCallGraphFunction[], semantics: 'design' | 'intel-llvm-prototype') =>
  new Map(
    [...propagateConditionalAspects(graph, { semantics })].map(([name, result]) => [
      name,
      toConditionallyUsedAspectsOperands(result.pairs),
    ]),
  );

describe("propagateConditionalAspects, semantics 'intel-llvm-prototype'", () => {
  it.each(Object.keys(CORPUS_CONDITIONS))('reproduces every tuple %s checks, in order, on the same functions', (file) => {
    const actual = operandsByFunction(corpusGraph(file, CORPUS_CONDITIONS[file]!), 'intel-llvm-prototype');
    expect(actual).toEqual(expectedConditionallyUsedAspects(file));
  });

  it('spells out conditional-aspects-2: the union pair sits between the two single ones', () => {
    const result = propagateConditionalAspects(
      corpusGraph('conditional-aspects-2.ll', CORPUS_CONDITIONS['conditional-aspects-2.ll']!),
      {
        semantics: 'intel-llvm-prototype',
      },
    );
    expect(result.get('kernel')!.pairs).toEqual([
      { condition: [0], aspects: [1] },
      { condition: [0], aspects: [1, 2] },
      { condition: [0], aspects: [2] },
    ]);
  });

  it('orders more than four values ascending, like LLVM SmallSet<int, 4>', () => {
    const graph: AspectCallGraphFunction[] = [
      { name: 'kernel', entryPoint: true, calls: [{ callee: 'cc', action: 'action', condition: [9, 1, 8, 2, 7] }] },
      { name: 'action', aspects: [40, 3, 30, 4] },
      { name: 'cc', conditionalCaller: true },
    ];
    const pairs = propagateConditionalAspects(graph, { semantics: 'intel-llvm-prototype' }).get('kernel')!.pairs;
    expect(pairs).toEqual([{ condition: [1, 2, 7, 8, 9], aspects: [40, 3, 30, 4] }]);
  });

  it('gives functions below the entry point on a conditional path an empty list when nothing is used', () => {
    const graph: AspectCallGraphFunction[] = [
      { name: 'kernel', entryPoint: true, calls: [{ callee: 'cc', action: 'action', condition: [-1, 5] }] },
      { name: 'action' },
      { name: 'cc', conditionalCaller: true },
    ];
    const result = propagateConditionalAspects(graph, { semantics: 'intel-llvm-prototype' });
    expect([...result.keys()]).toEqual(['action', 'cc']);
    expect(result.get('action')!.pairs).toEqual([]);
  });

  it('terminates on recursion, which the prototype would not', () => {
    const graph: AspectCallGraphFunction[] = [
      { name: 'kernel', entryPoint: true, calls: [{ callee: 'cc', action: 'action', condition: [-1, 5] }] },
      { name: 'action', aspects: [1], calls: [{ callee: 'helper' }] },
      { name: 'helper', aspects: [2], calls: [{ callee: 'action' }] },
      { name: 'cc', conditionalCaller: true },
    ];
    const pairs = propagateConditionalAspects(graph, { semantics: 'intel-llvm-prototype' }).get('kernel')!.pairs;
    expect(pairs).toEqual([
      { condition: [-1, 5], aspects: [1, 2] },
      { condition: [-1, 5], aspects: [2] },
    ]);
  });
});

describe("propagateConditionalAspects, semantics 'design'", () => {
  const fp16 = [-1, 5];
  const pvc = [-2, 251660032];

  it('ANDs nested conditions and lists outer before nested pairs (corpus graph 4 with real conditions)', () => {
    const result = propagateConditionalAspects(corpusGraph('conditional-aspects-4.ll', [fp16, pvc]));
    const expected = [
      { condition: fp16, aspects: [3] },
      { condition: [-4, -1, 5, ...pvc], aspects: [4] },
    ];
    expect([...result.keys()]).toEqual(['kernel', 'func2', 'func3']);
    expect(result.get('kernel')).toEqual({ pairs: expected, alwaysUsed: [] });
    expect(result.get('func2')!.pairs).toEqual(expected);
    expect(result.get('func3')!.pairs).toEqual([{ condition: pvc, aspects: [4] }]);
  });

  it('merges sibling pairs with equal conditions (corpus graph 2 with real conditions)', () => {
    const result = propagateConditionalAspects(
      corpusGraph('conditional-aspects-2.ll', [
        [-4, -1, 6, -1, 5],
        [-4, -1, 5, -1, 6],
      ]),
    );
    expect(result.get('kernel')!.pairs).toEqual([{ condition: [-4, -1, 5, -1, 6], aspects: [1, 2] }]);
  });

  it('keeps the first-discovered order of different conditions', () => {
    const result = propagateConditionalAspects(corpusGraph('conditional-aspects-2.ll', [pvc, fp16]));
    expect(result.get('kernel')!.pairs).toEqual([
      { condition: pvc, aspects: [1] },
      { condition: fp16, aspects: [2] },
    ]);
  });

  it('drops aspects used unconditionally and those the condition implies', () => {
    const graph: AspectCallGraphFunction[] = [
      { name: 'kernel', entryPoint: true, aspects: [1], calls: [{ callee: 'cc', action: 'action', condition: fp16 }] },
      { name: 'action', aspects: [1, 5, 7] },
      { name: 'cc', conditionalCaller: true },
    ];
    expect(propagateConditionalAspects(graph).get('kernel')!.pairs).toEqual([{ condition: fp16, aspects: [7] }]);
  });

  it('applies the OR-of-architectures rule with a device configuration', () => {
    const graph = corpusGraph('conditional-aspects-1.ll', [pvc]);
    const architectureAspects = architectureAspectsFromTable([[0x000000030f000700n, [5, 6, 28, 53]]]);
    expect(propagateConditionalAspects(graph, { architectureAspects }).get('kernel')!.pairs).toEqual([
      { condition: pvc, aspects: [3] },
    ]);
  });

  it('includes aspects of functions the action calls unconditionally, but not through another conditional call', () => {
    const graph: AspectCallGraphFunction[] = [
      { name: 'kernel', entryPoint: true, calls: [{ callee: 'cc', action: 'action', condition: fp16 }] },
      { name: 'action', calls: [{ callee: 'helper' }, { callee: 'cc', action: 'inner', condition: pvc }] },
      { name: 'helper', aspects: [7] },
      { name: 'inner', aspects: [8] },
      { name: 'cc', conditionalCaller: true },
    ];
    expect(propagateConditionalAspects(graph).get('kernel')!.pairs).toEqual([
      { condition: fp16, aspects: [7] },
      { condition: [-4, ...fp16, ...pvc], aspects: [8] },
    ]);
  });

  it('reports an always-true nested condition as alwaysUsed', () => {
    const graph: AspectCallGraphFunction[] = [
      { name: 'kernel', entryPoint: true, calls: [{ callee: 'cc', action: 'action', condition: [-5, ...fp16, -3, ...fp16] }] },
      { name: 'action', aspects: [7] },
      { name: 'cc', conditionalCaller: true },
    ];
    expect(propagateConditionalAspects(graph).get('kernel')).toEqual({ pairs: [], alwaysUsed: [7] });
  });

  it('rejects the corpus placeholder conditions, naming the call', () => {
    const graph = corpusGraph('conditional-aspects-1.ll', [[0, 0]]);
    expect(() => propagateConditionalAspects(graph)).toThrow(ConditionError);
    expect(() => propagateConditionalAspects(graph)).toThrow(/^call from 'func2' to 'cond_func1': expected an opcode/);
  });

  it('terminates on recursion, cutting the cycle', () => {
    const graph: AspectCallGraphFunction[] = [
      { name: 'kernel', entryPoint: true, calls: [{ callee: 'cc', action: 'action', condition: fp16 }] },
      { name: 'action', aspects: [1], calls: [{ callee: 'helper' }, { callee: 'cc', action: 'action', condition: pvc }] },
      { name: 'helper', aspects: [2], calls: [{ callee: 'action' }] },
      { name: 'cc', conditionalCaller: true },
    ];
    expect(propagateConditionalAspects(graph).get('kernel')!.pairs).toEqual([
      { condition: fp16, aspects: [1, 2] },
      { condition: [-4, ...fp16, ...pvc], aspects: [1, 2] },
    ]);
  });

  it('skips a conditional call whose action is not a known function', () => {
    const graph: AspectCallGraphFunction[] = [
      { name: 'kernel', entryPoint: true, calls: [{ callee: 'cc', condition: fp16 }] },
      { name: 'cc', conditionalCaller: true },
    ];
    expect(propagateConditionalAspects(graph).size).toBe(0);
  });
});

describe('propagateConditionalAspects input checks', () => {
  it('rejects calls to functions missing from the graph and duplicate names', () => {
    expect(() => propagateConditionalAspects([{ name: 'kernel', calls: [{ callee: 'nowhere' }] }])).toThrow(
      /'kernel' calls 'nowhere'/,
    );
    expect(() => propagateConditionalAspects([{ name: 'f' }, { name: 'f' }])).toThrow(/listed twice/);
  });
});
