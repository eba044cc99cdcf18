/**
 * The `!sycl_conditionally_used_aspects` model (DeviceIf.md, "Format of the
 * !sycl_conditionally_used_aspects metadata" and "Simplification of conditionally used aspects"):
 * a list of (condition, aspects) pairs, its metadata shape as plain nested number arrays, and the
 * simplification the aspect-propagation pass applies before writing it.
 */
import { truncateArchitecture } from './architecture.js';
import { ConditionError, decodeCondition, encodeCondition, isInt32, type Condition } from './condition.js';
import { normalizeCondition, normalizedConditionKey } from './normalize.js';

/** One (condition, aspects) pair: the function uses `aspects` on devices where `condition` holds. */
export interface ConditionalAspectsPair {
  /** The Condition Expression as its integer sequence. */
  readonly condition: readonly number[];
  /** `enum aspect` values. */
  readonly aspects: readonly number[];
}

/** The metadata shape `!{ !{ !{i32 cond...}, !{i32 aspect...} }, ... }` as nested arrays. */
export type ConditionallyUsedAspectsOperands = number[][][];

/** The metadata operands for `pairs`, in order (an empty list when there are none). */
export function toConditionallyUsedAspectsOperands(pairs: readonly ConditionalAspectsPair[]): ConditionallyUsedAspectsOperands {
  return pairs.map((pair) => [[...pair.condition], [...pair.aspects]]);
}

/** Metadata operands that do not have the `!{ !{ !{i32...}, !{i32...} }, ... }` shape. */
export class ConditionalAspectsFormatError extends Error {
  override readonly name = 'ConditionalAspectsFormatError';
  constructor(
    /** Where the problem is: indices from the outer node inward, e.g. `[2, 1, 0]`. */
    readonly path: readonly number[],
    message: string,
  ) {
    super(message);
  }

  render(): string {
    return `error: malformed !sycl_conditionally_used_aspects: ${this.message}`;
  }
}

/**
 * Reads metadata operands (as produced by the IR side) into pairs. Every pair must have exactly two
 * lists of int32 values; the condition list is kept as is (it is not required to decode, because
 * the intel/llvm prototype's tests carry placeholder conditions such as `!{i32 0}`).
 */
export function fromConditionallyUsedAspectsOperands(operands: unknown): ConditionalAspectsPair[] {
  if (!Array.isArray(operands)) throw new ConditionalAspectsFormatError([], 'expected a list of (condition, aspects) pairs');
  return operands.map((pair: unknown, p) => {
    if (!Array.isArray(pair) || pair.length !== 2) {
      const found = Array.isArray(pair) ? `${pair.length} operands` : 'a value that is not a node';
      throw new ConditionalAspectsFormatError(
        [p],
        `pair ${p}: expected a node with 2 operands (condition, aspects), found ${found}`,
      );
    }
    const [condition, aspects] = [0, 1].map((side) => {
      const list: unknown = pair[side];
      const what = side === 0 ? 'condition' : 'aspects';
      if (!Array.isArray(list))
        throw new ConditionalAspectsFormatError([p, side], `pair ${p}: the ${what} operand is not a node`);
      return list.map((value: unknown, v) => {
        if (typeof value !== 'number' || !isInt32(value)) {
          throw new ConditionalAspectsFormatError(
            [p, side, v],
            `pair ${p}: ${what} operand ${v} is not an i32 constant (${String(value)})`,
          );
        }
        return value;
      });
    }) as [number[], number[]];
    return { condition, aspects };
  });
}

/**
 * What the device configuration says about architectures, for the OR-of-architectures rule.
 * Operands are int32 truncations, so an answer must hold for *every* architecture that truncates to
 * the operand (see {@link architectureAspectsFromTable}).
 */
export interface ArchitectureAspects {
  /** Aspects every device with this architecture operand surely has; undefined when not known. */
  guaranteedAspects(operand: number): Iterable<number> | undefined;
}

/**
 * {@link ArchitectureAspects} from a table of (64-bit architecture value, aspects). Architectures
 * that truncate to the same operand get the intersection of their aspects, so the ambiguous operand
 * 0 (x86_64, unknown, intel_gpu_bdw, intel_gpu_tgllp) only guarantees what all of them listed
 * have. List every architecture the program may run on, including those with no aspects.
 */
export function architectureAspectsFromTable(
  table: Iterable<readonly [architecture: bigint, aspects: Iterable<number>]>,
): ArchitectureAspects {
  const byValue = new Map<bigint, Set<number>>();
  for (const [architecture, aspects] of table) byValue.set(architecture, new Set(aspects));
  const byOperand = new Map<number, Set<number>>();
  for (const [architecture, aspects] of byValue) {
    const operand = truncateArchitecture(architecture);
    const previous = byOperand.get(operand);
    byOperand.set(operand, previous === undefined ? aspects : new Set([...previous].filter((a) => aspects.has(a))));
  }
  return { guaranteedAspects: (operand) => byOperand.get(operand) };
}

export interface SimplifyConditionalAspectsOptions {
  /** Aspects the function uses unconditionally (its `!sycl_used_aspects`); dropped from every pair. */
  readonly usedAspects?: Iterable<number>;
  /** Device configuration for the OR-of-architectures rule; without it that rule is skipped. */
  readonly architectureAspects?: ArchitectureAspects;
}

export interface ConditionallyUsedAspects {
  /** The pairs to write, conditions normalized and encoded; empty means "write no metadata". */
  readonly pairs: ConditionalAspectsPair[];
  /**
   * Aspects whose condition normalized to always true: they are used on every device, so they
   * belong in `!sycl_used_aspects` (ascending; already-used ones left out).
   */
  readonly alwaysUsed: number[];
}

/**
 * Simplifies a function's conditionally used aspects (DeviceIf.md), given the pairs in discovery
 * order (conditions may be any equivalent form). Steps, in order:
 * 1. decode and normalize each condition (a malformed one throws {@link ConditionError});
 * 2. drop pairs whose condition is always false; pairs whose condition is always true go to
 *    `alwaysUsed`;
 * 3. merge pairs with the same normal form: the merged pair takes the place of the first one and
 *    the union of the aspects;
 * 4. drop aspects in `usedAspects`;
 * 5. AND of aspects: drop aspects the condition requires (its top-level positive aspect terms,
 *    e.g. fp16 under `fp16 && fp64` or `fp16 && !arch(X)`);
 * 6. OR of architectures: when a top-level term of the condition is `arch(X1) || ... || arch(Xn)`
 *    (or a single `arch(X)`), drop aspects every one of X1..Xn has according to
 *    `architectureAspects`;
 * 7. drop pairs left without aspects.
 * Output aspects are ascending; conditions are the normal form's encoding.
 */
export function simplifyConditionallyUsedAspects(
  pairs: readonly ConditionalAspectsPair[],
  options: SimplifyConditionalAspectsOptions = {},
): ConditionallyUsedAspects {
  const used = new Set(options.usedAspects ?? []);
  const merged = new Map<string, { condition: Condition; aspects: Set<number> }>();
  const alwaysUsed = new Set<number>();

  pairs.forEach((pair, index) => {
    const condition = normalizeCondition(decodeInPair(pair.condition, index));
    if (condition.kind === 'constant') {
      if (condition.value) for (const aspect of pair.aspects) if (!used.has(aspect)) alwaysUsed.add(aspect);
      return;
    }
    const key = normalizedConditionKey(condition);
    const entry = merged.get(key) ?? { condition, aspects: new Set<number>() };
    for (const aspect of pair.aspects) entry.aspects.add(aspect);
    merged.set(key, entry);
  });

  const result: ConditionalAspectsPair[] = [];
  for (const { condition, aspects } of merged.values()) {
    const implied = impliedAspects(condition, options.architectureAspects);
    const remaining = [...aspects].filter((a) => !used.has(a) && !alwaysUsed.has(a) && !implied.has(a)).sort((x, y) => x - y);
    if (remaining.length > 0) result.push({ condition: encodeCondition(condition), aspects: remaining });
  }
  return { pairs: result, alwaysUsed: [...alwaysUsed].sort((x, y) => x - y) };
}

function decodeInPair(condition: readonly number[], index: number): Condition {
  try {
    return decodeCondition(condition);
  } catch (error) {
    if (error instanceof ConditionError) {
      throw new ConditionError(error.code, error.position, `pair ${index}: ${error.message}`, error.sequence);
    }
    throw error;
  }
}

/** The top-level terms of a normalized condition: the operands of a top-level and, or itself. */
function conjunctsOf(condition: Condition): Condition[] {
  const terms: Condition[] = [];
  let rest = condition;
  while (rest.kind === 'and') {
    terms.push(rest.left);
    rest = rest.right;
  }
  terms.push(rest);
  return terms;
}

/** The architecture operands of `arch(X1) || ... || arch(Xn)`, or undefined for any other shape. */
function architectureAlternatives(term: Condition): number[] | undefined {
  const operands: number[] = [];
  let rest = term;
  while (rest.kind === 'or') {
    if (rest.left.kind !== 'architecture') return undefined;
    operands.push(rest.left.architecture);
    rest = rest.right;
  }
  if (rest.kind !== 'architecture') return undefined;
  operands.push(rest.architecture);
  return operands;
}

/** Aspects every device satisfying the (normalized) condition has, by the AND/OR rules. */
function impliedAspects(condition: Condition, architectureAspects: ArchitectureAspects | undefined): Set<number> {
  const implied = new Set<number>();
  for (const term of conjunctsOf(condition)) {
    if (term.kind === 'aspect') {
      implied.add(term.aspect);
      continue;
    }
    const alternatives = architectureAlternatives(term);
    if (alternatives === undefined || architectureAspects === undefined) continue;
    let common: Set<number> | undefined;
    for (const operand of alternatives) {
      const guaranteed = new Set(architectureAspects.guaranteedAspects(operand) ?? []);
      common = common === undefined ? guaranteed : new Set([...common].filter((a) => guaranteed.has(a)));
    }
    for (const aspect of common ?? []) implied.add(aspect);
  }
  return implied;
}

/**
 * Whether two functions' conditionally used aspects are the same for device code split: the same
 * normalized conditions with the same aspect sets, regardless of pair order or of how a condition
 * was written. Pairs with equal conditions are merged first, as the simplification does.
 */
export function conditionallyUsedAspectsEqual(
  a: readonly ConditionalAspectsPair[],
  b: readonly ConditionalAspectsPair[],
): boolean {
  const summarize = (pairs: readonly ConditionalAspectsPair[]): Map<string, string> => {
    const byCondition = new Map<string, Set<number>>();
    pairs.forEach((pair, index) => {
      const key = normalizedConditionKey(decodeInPair(pair.condition, index));
      const aspects = byCondition.get(key) ?? new Set<number>();
      for (const aspect of pair.aspects) aspects.add(aspect);
      byCondition.set(key, aspects);
    });
    return new Map([...byCondition].map(([key, aspects]) => [key, [...aspects].sort((x, y) => x - y).join(',')]));
  };
  const x = summarize(a);
  const y = summarize(b);
  return x.size === y.size && [...x].every(([key, aspects]) => y.get(key) === aspects);
}
