/**
 * Condition Expressions of sycl_ext_oneapi_device_if / device_architecture (DeviceIf.md, phase 2):
 * the integer encoding passed to `call_if_on_device_conditionally`, its tree form, decoding and
 * encoding.
 *
 * The encoding is prefix (Polish) notation over 32-bit signed ints:
 * `-1 A` aspect A, `-2 X` architecture X (the 32-bit truncation of the 64-bit enum value),
 * `-3 S` not S, `-4 S1 S2` S1 and S2, `-5 S1 S2` S1 or S2.
 */

/** The opcodes of the encoding (the header's `Condition*` constants; part of the ABI). */
export const ConditionOpcode = {
  Aspect: -1,
  Architecture: -2,
  Not: -3,
  And: -4,
  Or: -5,
} as const;

export type ConditionOpcode = (typeof ConditionOpcode)[keyof typeof ConditionOpcode];

/**
 * A condition as a tree. Aspect, architecture, not, and, or mirror the encoding one to one (and/or
 * are binary, like the encoding), so `decodeCondition(encodeCondition(c))` gives `c` back.
 * `constant` has no encoding: it only comes out of {@link normalizeCondition} (or is built by hand)
 * when an expression folds to always true or always false.
 */
export type Condition =
  | { readonly kind: 'aspect'; readonly aspect: number }
  /** `architecture` is the int32 operand as it appears in the IR (see `truncateArchitecture`). */
  | { readonly kind: 'architecture'; readonly architecture: number }
  | { readonly kind: 'not'; readonly operand: Condition }
  | { readonly kind: 'and'; readonly left: Condition; readonly right: Condition }
  | { readonly kind: 'or'; readonly left: Condition; readonly right: Condition }
  | { readonly kind: 'constant'; readonly value: boolean };

export type ConditionErrorCode =
  /** The sequence has no values at all. */
  | 'empty'
  /** An opcode was expected but the value is not one of -1..-5. */
  | 'unknown-opcode'
  /** The sequence ends before the expression is complete. */
  | 'unexpected-end'
  /** Values remain after a complete expression. */
  | 'trailing-values'
  /** A value is not a 32-bit signed integer (the IR operands are `i32`). */
  | 'not-int32'
  /** Nesting deeper than the decoder's `maxDepth`. */
  | 'too-deep'
  /** `encodeCondition` met a true/false constant, which the encoding cannot express. */
  | 'constant';

/** A malformed Condition Expression (decoding) or an unencodable tree (encoding). */
export class ConditionError extends Error {
  override readonly name = 'ConditionError';
  constructor(
    readonly code: ConditionErrorCode,
    /** Index into the integer sequence the problem is at (for encoding: where it would be). */
    readonly position: number,
    message: string,
    /** The sequence being decoded, when there is one; used by `render()`. */
    readonly sequence?: readonly number[],
  ) {
    super(message);
  }

  /** One line for users: `error: invalid condition expression [-4, -1, 5]: <message>`. */
  render(): string {
    const shown = this.sequence === undefined ? '' : ` ${formatSequence(this.sequence)}`;
    return `error: invalid condition expression${shown}: ${this.message}`;
  }
}

/** `[-4, -1, 5, ...]`, cut after 32 values so a huge sequence cannot flood a diagnostic. */
function formatSequence(sequence: readonly number[]): string {
  const shown = sequence.slice(0, 32).map(String);
  if (sequence.length > 32) shown.push(`... (${sequence.length} values)`);
  return `[${shown.join(', ')}]`;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** True for integers representable as an LLVM `i32` constant read with sign extension. */
export function isInt32(value: number): boolean {
  return Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;
}

const OPCODE_NAMES: Readonly<Record<number, string>> = {
  [ConditionOpcode.Aspect]: 'ConditionAspect',
  [ConditionOpcode.Architecture]: 'ConditionArchitecture',
  [ConditionOpcode.Not]: 'ConditionNot',
  [ConditionOpcode.And]: 'ConditionAnd',
  [ConditionOpcode.Or]: 'ConditionOr',
};

const OPCODE_LIST = '-1 aspect, -2 architecture, -3 not, -4 and, -5 or';

/** Clang's default template instantiation depth; the header cannot produce deeper nesting. */
const DEFAULT_MAX_DEPTH = 1024;

export interface DecodeConditionOptions {
  /** Deepest nesting accepted before failing with `too-deep` (default 1024). */
  readonly maxDepth?: number;
}

/** What the decoder still has to read: an operand slot of an operator, or the root. */
interface Slot {
  /** e.g. "the first operand of ConditionAnd (opened at position 0)"; "" for the root. */
  readonly role: string;
  readonly depth: number;
  readonly fill: (condition: Condition) => void;
}

/**
 * Decodes a Condition Expression. Throws {@link ConditionError} naming the position and what was
 * expected when the sequence is empty, has an unknown opcode, ends early, has values left over or
 * holds a value that is not an int32.
 *
 * Iterative rather than recursive so that a hostile sequence cannot overflow the stack.
 */
export function decodeCondition(sequence: readonly number[], options: DecodeConditionOptions = {}): Condition {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const fail = (code: ConditionErrorCode, position: number, message: string): never => {
    throw new ConditionError(code, position, message, sequence);
  };
  if (sequence.length === 0) fail('empty', 0, `expected an opcode (${OPCODE_LIST}) at position 0, found an empty sequence`);

  let root: Condition | undefined;
  // Pending operand slots; the top is filled next. Operators push their operands' slots and
  // complete themselves when the last one is filled.
  const slots: Slot[] = [{ role: '', depth: 0, fill: (c) => (root = c) }];
  let position = 0;

  const readValue = (what: string): number => {
    if (position >= sequence.length)
      fail('unexpected-end', position, `expected ${what} at position ${position}, but the expression ends`);
    const value = sequence[position]!;
    if (!isInt32(value))
      fail('not-int32', position, `value ${String(value)} at position ${position} is not a 32-bit signed integer`);
    position += 1;
    return value;
  };

  while (slots.length > 0) {
    const slot = slots.pop()!;
    if (slot.depth > maxDepth)
      fail('too-deep', position, `expression nests deeper than ${maxDepth} levels at position ${position}`);
    const at = position;
    const expected = slot.role === '' ? `an opcode (${OPCODE_LIST})` : `an opcode (${OPCODE_LIST}) for ${slot.role}`;
    const opcode = readValue(expected);
    const name = OPCODE_NAMES[opcode];
    if (name === undefined) fail('unknown-opcode', at, `expected ${expected} at position ${at}, found ${opcode}`);
    switch (opcode) {
      case ConditionOpcode.Aspect:
        slot.fill({ kind: 'aspect', aspect: readValue(`the aspect value of ConditionAspect (opened at position ${at})`) });
        break;
      case ConditionOpcode.Architecture:
        slot.fill({
          kind: 'architecture',
          architecture: readValue(`the architecture value of ConditionArchitecture (opened at position ${at})`),
        });
        break;
      case ConditionOpcode.Not:
        slots.push({
          role: `the operand of ConditionNot (opened at position ${at})`,
          depth: slot.depth + 1,
          fill: (operand) => slot.fill({ kind: 'not', operand }),
        });
        break;
      default: {
        const kind = opcode === ConditionOpcode.And ? 'and' : 'or';
        let left: Condition | undefined;
        // Pushed in reverse: the first operand's slot is on top, so it is read first.
        slots.push({
          role: `the second operand of ${name} (opened at position ${at})`,
          depth: slot.depth + 1,
          fill: (right) => slot.fill({ kind, left: left!, right }),
        });
        slots.push({
          role: `the first operand of ${name} (opened at position ${at})`,
          depth: slot.depth + 1,
          fill: (c) => (left = c),
        });
      }
    }
  }
  if (position < sequence.length) {
    fail(
      'trailing-values',
      position,
      `unexpected value ${String(
        sequence[position],
      )} at position ${position}: the expression is complete after ${position} values`,
    );
  }
  return root!;
}

export interface EncodeConditionOptions {
  /** How to encode a `constant` node (default `'error'`). */
  readonly constants?: 'error' | 'tautology';
}

/**
 * Encodes a condition tree. Constants have no encoding: by default this throws a
 * {@link ConditionError} with code `constant`; with `constants: 'tautology'` they become the
 * documented canonical forms of {@link constantConditionSequence}.
 */
export function encodeCondition(condition: Condition, options: EncodeConditionOptions = {}): number[] {
  const out: number[] = [];
  const pushValue = (value: number): void => {
    if (!isInt32(value)) {
      throw new ConditionError(
        'not-int32',
        out.length,
        `value ${String(value)} at position ${out.length} is not a 32-bit signed integer`,
      );
    }
    out.push(value);
  };
  // Explicit stack: prefix order is "node, then left subtree, then right subtree".
  const pending: Condition[] = [condition];
  while (pending.length > 0) {
    const node = pending.pop()!;
    switch (node.kind) {
      case 'aspect':
        out.push(ConditionOpcode.Aspect);
        pushValue(node.aspect);
        break;
      case 'architecture':
        out.push(ConditionOpcode.Architecture);
        pushValue(node.architecture);
        break;
      case 'not':
        out.push(ConditionOpcode.Not);
        pending.push(node.operand);
        break;
      case 'and':
      case 'or':
        out.push(node.kind === 'and' ? ConditionOpcode.And : ConditionOpcode.Or);
        pending.push(node.right, node.left);
        break;
      case 'constant':
        if (options.constants !== 'tautology') {
          throw new ConditionError(
            'constant',
            out.length,
            `the condition is always ${String(node.value)}, which the integer encoding cannot express ` +
              `(pass constants: 'tautology' to encode it as ${formatSequence(constantConditionSequence(node.value))})`,
          );
        }
        out.push(...constantConditionSequence(node.value));
        break;
    }
  }
  return out;
}

/** The aspect the canonical tautology/contradiction is written with (0, `host`); any would do. */
const TAUTOLOGY_ASPECT = 0;

/**
 * The canonical encoding of a constant, for consumers that must emit *some* sequence:
 * true is `aspect(0) || !aspect(0)` = `[-5, -1, 0, -3, -1, 0]`, false is
 * `aspect(0) && !aspect(0)` = `[-4, -1, 0, -3, -1, 0]`. {@link normalizeCondition} folds both
 * back to the constant.
 */
export function constantConditionSequence(value: boolean): number[] {
  return [
    value ? ConditionOpcode.Or : ConditionOpcode.And,
    ConditionOpcode.Aspect,
    TAUTOLOGY_ASPECT,
    ConditionOpcode.Not,
    ConditionOpcode.Aspect,
    TAUTOLOGY_ASPECT,
  ];
}

/** Structural equality of two trees (same shape, same values). */
export function conditionsEqual(a: Condition, b: Condition): boolean {
  const pending: [Condition, Condition][] = [[a, b]];
  while (pending.length > 0) {
    const [x, y] = pending.pop()!;
    if (x.kind !== y.kind) return false;
    switch (x.kind) {
      case 'aspect':
        if (x.aspect !== (y as typeof x).aspect) return false;
        break;
      case 'architecture':
        if (x.architecture !== (y as typeof x).architecture) return false;
        break;
      case 'constant':
        if (x.value !== (y as typeof x).value) return false;
        break;
      case 'not':
        pending.push([x.operand, (y as typeof x).operand]);
        break;
      case 'and':
      case 'or':
        pending.push([x.left, (y as typeof x).left], [x.right, (y as typeof x).right]);
        break;
    }
  }
  return true;
}
