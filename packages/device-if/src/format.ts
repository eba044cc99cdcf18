/**
 * Pretty-printing conditions for diagnostics and debugging: `fp16 && !arch(intel_gpu_pvc)`.
 */
import { truncateArchitecture } from './architecture.js';
import type { Condition } from './condition.js';

/** Optional names for aspect values and architecture operands; unnamed values print as numbers. */
export interface ConditionNames {
  aspectName?(aspect: number): string | undefined;
  /** Named by int32 operand, since that is all a condition carries. */
  architectureName?(operand: number): string | undefined;
}

export interface ConditionNameTables {
  /** `enum aspect` names and values, e.g. from `!sycl_aspects`. The first name of a value wins. */
  readonly aspects?: Iterable<readonly [name: string, value: number]>;
  /**
   * `enum architecture` names and 64-bit values. Aliases (same value) keep the first name; distinct
   * values that truncate to the same operand are all listed, joined with `|`, because the operand
   * cannot tell them apart (`arch(x86_64|intel_gpu_bdw|intel_gpu_tgllp)`).
   */
  readonly architectures?: Iterable<readonly [name: string, value: bigint]>;
}

/** Builds {@link ConditionNames} from name/value tables. */
export function createConditionNames(tables: ConditionNameTables): ConditionNames {
  const aspectNames = new Map<number, string>();
  for (const [name, value] of tables.aspects ?? []) if (!aspectNames.has(value)) aspectNames.set(value, name);

  const seenValues = new Set<bigint>();
  const architectureNames = new Map<number, string[]>();
  for (const [name, value] of tables.architectures ?? []) {
    if (seenValues.has(value)) continue;
    seenValues.add(value);
    const operand = truncateArchitecture(value);
    const names = architectureNames.get(operand) ?? [];
    names.push(name);
    architectureNames.set(operand, names);
  }
  return {
    aspectName: (aspect) => aspectNames.get(aspect),
    architectureName: (operand) => architectureNames.get(operand)?.join('|'),
  };
}

/** Binding strength, loosest first; a child binding looser than its parent needs parentheses. */
const PRECEDENCE = { or: 1, and: 2, not: 3, leaf: 4 } as const;

function precedenceOf(node: Condition): number {
  switch (node.kind) {
    case 'or':
      return PRECEDENCE.or;
    case 'and':
      return PRECEDENCE.and;
    case 'not':
      return PRECEDENCE.not;
    default:
      return PRECEDENCE.leaf;
  }
}

/**
 * Formats a condition with C-like operators: `!` binds tighter than `&&`, which binds tighter than
 * `||`; parentheses only where needed. Aspects print as their name or `aspect(N)`, architectures as
 * `arch(name)` or `arch(N)`, constants as `true` / `false`.
 */
export function formatCondition(condition: Condition, names: ConditionNames = {}): string {
  const format = (node: Condition): string => {
    switch (node.kind) {
      case 'aspect':
        return names.aspectName?.(node.aspect) ?? `aspect(${node.aspect})`;
      case 'architecture':
        return `arch(${names.architectureName?.(node.architecture) ?? node.architecture})`;
      case 'constant':
        return String(node.value);
      case 'not':
        return `!${wrap(node.operand, PRECEDENCE.not)}`;
      case 'and':
        return `${wrap(node.left, PRECEDENCE.and)} && ${wrap(node.right, PRECEDENCE.and)}`;
      case 'or':
        return `${wrap(node.left, PRECEDENCE.or)} || ${wrap(node.right, PRECEDENCE.or)}`;
    }
  };
  const wrap = (node: Condition, parent: number): string => {
    const text = format(node);
    return precedenceOf(node) < parent ? `(${text})` : text;
  };
  return format(condition);
}
