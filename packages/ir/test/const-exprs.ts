/**
 * fast-check arbitraries for modules whose globals are initialized with random pointer and
 * integer constant expressions over a few globals: GEPs (of globals, of GEPs, of casts, of `null`,
 * `undef` and `poison`; in-range, out-of-range, negative, huge and non-constant indices of
 * several widths; `inbounds`; LLVM 16's `inrange`), `bitcast`/`addrspacecast`/`inttoptr` chains,
 * `ptrtoint` and integer casts of it. The globals they reference include an external `[0 x i32]`,
 * an `extern_weak` variable, an alias, a function, a global in another address space, and globals
 * defined after their uses (forward references).
 *
 * Every text is accepted by LLVM 16 (`opt -S`) and by `parseModule` in the default (opaque) mode.
 * Scalars only: vector constant expressions (vector GEPs, casts of vectors) are not generated.
 */
import fc from 'fast-check';

/** A GEP source element type: its text and how indices walk it. */
type SType =
  | { readonly k: 'int'; readonly bits: number }
  | { readonly k: 'array'; readonly n: number; readonly of: SType }
  | { readonly k: 'struct'; readonly fields: readonly SType[] };

const int = (bits: number): SType => ({ k: 'int', bits });
const array = (n: number, of: SType): SType => ({ k: 'array', n, of });
const struct = (...fields: SType[]): SType => ({ k: 'struct', fields });

function text(t: SType): string {
  if (t.k === 'int') return `i${t.bits}`;
  if (t.k === 'array') return `[${t.n} x ${text(t.of)}]`;
  return `{ ${t.fields.map(text).join(', ')} }`;
}

const A4 = array(4, int(32));
const A23 = array(2, array(3, int(16)));
const S = struct(int(32), array(2, int(64)), array(0, int(8)));
const Z = array(0, int(32));
const A3 = array(3, int(32));
const VT = struct(array(4, int(64)));

/** Globals: name, address space, value type (undefined for the function), where defined. */
interface GlobalInfo {
  readonly name: string;
  readonly as: number;
  readonly type: SType | undefined;
  readonly definition: string;
  /** Defined after the expressions that use it (a forward reference). */
  readonly late?: boolean;
}

const GLOBALS: readonly GlobalInfo[] = [
  { name: 'arr', as: 0, type: A4, definition: `@arr = global ${text(A4)} zeroinitializer` },
  { name: 'mat', as: 0, type: A23, definition: `@mat = internal global ${text(A23)} zeroinitializer` },
  { name: 's', as: 0, type: S, definition: `@s = global ${text(S)} zeroinitializer` },
  { name: 'ext', as: 0, type: Z, definition: `@ext = external global ${text(Z)}` },
  { name: 'weak', as: 0, type: int(64), definition: '@weak = extern_weak global i64' },
  { name: 'vt', as: 0, type: VT, definition: `@vt = linkonce_odr constant ${text(VT)} zeroinitializer` },
  { name: 'al', as: 0, type: A4, definition: `@al = alias ${text(A4)}, ptr @arr` },
  { name: 'f', as: 0, type: undefined, definition: 'declare void @f()' },
  { name: 'g1', as: 1, type: A3, definition: `@g1 = addrspace(1) global ${text(A3)} zeroinitializer` },
  { name: 'late', as: 0, type: A3, definition: `@late = global ${text(A3)} zeroinitializer`, late: true },
  { name: 'lateweak', as: 0, type: A4, definition: `@lateweak = extern_weak global ${text(A4)}`, late: true },
];

const SOURCE_TYPES: readonly SType[] = [int(8), int(32), int(64), A4, A23, S, Z, A3, VT];
const ADDRESS_SPACES = [0, 1, 4] as const;
const INT_BITS = [8, 16, 32, 64, 128] as const;

const ptrType = (as: number): string => (as === 0 ? 'ptr' : `ptr addrspace(${as})`);

/** An integer literal as LLVM prints it for `bits` (in range for the width). */
function literal(bits: number, v: bigint): string {
  return BigInt.asIntN(bits, v).toString();
}

/** Interesting index values: in range, one past, out of range, negative, near the int64 edges. */
const indexValue = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 4 }).map(BigInt) },
  { weight: 3, arbitrary: fc.integer({ min: 5, max: 30 }).map(BigInt) },
  { weight: 2, arbitrary: fc.integer({ min: -5, max: -1 }).map(BigInt) },
  { weight: 1, arbitrary: fc.constantFrom((1n << 63n) - 1n, -(1n << 63n), 1n << 70n, 300n) },
);

export interface ConstExprOptions {
  /** Maximum nesting of constant expressions (default 4). */
  readonly depth?: number;
}

interface Arbs {
  ptr: (as: number, depth: number) => fc.Arbitrary<string>;
  int: (bits: number, depth: number) => fc.Arbitrary<string>;
}

function makeArbs(): Arbs {
  const ptrMemo = new Map<string, fc.Arbitrary<string>>();
  const intMemo = new Map<string, fc.Arbitrary<string>>();

  const globalsIn = (as: number): string[] => GLOBALS.filter((g) => g.as === as).map((g) => `@${g.name}`);

  const ptrLeaf = (as: number): fc.Arbitrary<string> => {
    const named = globalsIn(as);
    const specials = fc.constantFrom('null', 'undef', 'poison');
    return named.length === 0 ? specials : fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...named) }, { weight: 1, arbitrary: specials });
  };

  /** An index of `bits` width: a literal, or (rarely) a non-constant integer expression. */
  const index = (bits: number, depth: number): fc.Arbitrary<string> =>
    depth <= 0
      ? indexValue.map((v) => literal(bits, v))
      : fc.oneof({ weight: 8, arbitrary: indexValue.map((v) => literal(bits, v)) }, { weight: 1, arbitrary: arbs.int(bits, depth - 1) }, { weight: 1, arbitrary: fc.constant('undef') });

  const indexBits = fc.constantFrom(32, 64, 64, 64, 8, 16, 128);

  /** Indices after the first: a path into `t`, `count` steps deep at most. */
  const path = (t: SType, depth: number, steps: number): fc.Arbitrary<string[]> => {
    if (steps === 0 || t.k === 'int') return fc.constant([]);
    if (t.k === 'struct') {
      if (t.fields.length === 0) return fc.constant([]);
      return fc.integer({ min: 0, max: t.fields.length - 1 }).chain((f) => path(t.fields[f]!, depth, steps - 1).map((rest) => [`i32 ${f}`, ...rest]));
    }
    return fc
      .tuple(indexBits, fc.boolean())
      .chain(([bits, stop]) =>
        stop ? fc.constant([]) : fc.tuple(index(bits, depth), path(t.of, depth, steps - 1)).map(([i, rest]) => [`i${bits} ${i}`, ...rest]),
      );
  };

  const gep = (as: number, depth: number): fc.Arbitrary<string> =>
    fc
      .record({
        source: fc.constantFrom(...SOURCE_TYPES),
        inbounds: fc.boolean(),
        firstBits: indexBits,
        inrange: fc.nat(4),
      })
      .chain(({ source, inbounds, firstBits, inrange }) =>
        fc.tuple(arbs.ptr(as, depth - 1), index(firstBits, depth - 1), path(source, depth - 1, 3)).map(([base, first, rest]) => {
          const indices = [`i${firstBits} ${first}`, ...rest];
          // LLVM 16's `inrange` marks one index (never the pointer operand)
          const marked = inrange < indices.length ? indices.map((s, i) => (i === inrange ? `inrange ${s}` : s)) : indices;
          return `getelementptr ${inbounds ? 'inbounds ' : ''}(${text(source)}, ${ptrType(as)} ${base}, ${marked.join(', ')})`;
        }),
      );

  const arbs: Arbs = {
    ptr(as, depth) {
      const key = `${as}/${depth}`;
      let a = ptrMemo.get(key);
      if (a !== undefined) return a;
      if (depth <= 0) a = ptrLeaf(as);
      else {
        const other = ADDRESS_SPACES.filter((x) => x !== as);
        a = fc.oneof(
          { weight: 3, arbitrary: ptrLeaf(as) },
          { weight: 5, arbitrary: gep(as, depth) },
          { weight: 1, arbitrary: arbs.ptr(as, depth - 1).map((p) => `bitcast (${ptrType(as)} ${p} to ${ptrType(as)})`) },
          {
            weight: 2,
            arbitrary: fc
              .constantFrom(...other)
              .chain((from) => arbs.ptr(from, depth - 1).map((p) => `addrspacecast (${ptrType(from)} ${p} to ${ptrType(as)})`)),
          },
          {
            weight: 2,
            arbitrary: fc.constantFrom(...INT_BITS).chain((bits) => arbs.int(bits, depth - 1).map((i) => `inttoptr (i${bits} ${i} to ${ptrType(as)})`)),
          },
        );
      }
      ptrMemo.set(key, a);
      return a;
    },
    int(bits, depth) {
      const key = `${bits}/${depth}`;
      let a = intMemo.get(key);
      if (a !== undefined) return a;
      const lit = indexValue.map((v) => literal(bits, v));
      if (depth <= 0) a = lit;
      else {
        const narrower = INT_BITS.filter((b) => b < bits);
        const wider = INT_BITS.filter((b) => b > bits);
        const options: { weight: number; arbitrary: fc.Arbitrary<string> }[] = [
          { weight: 2, arbitrary: lit },
          {
            weight: 5,
            arbitrary: fc.constantFrom(...ADDRESS_SPACES).chain((as) => arbs.ptr(as, depth - 1).map((p) => `ptrtoint (${ptrType(as)} ${p} to i${bits})`)),
          },
        ];
        if (wider.length > 0)
          options.push({ weight: 2, arbitrary: fc.constantFrom(...wider).chain((w) => arbs.int(w, depth - 1).map((i) => `trunc (i${w} ${i} to i${bits})`)) });
        if (narrower.length > 0)
          options.push({
            weight: 2,
            arbitrary: fc
              .tuple(fc.constantFrom(...narrower), fc.constantFrom('zext', 'sext'))
              .chain(([n, op]) => arbs.int(n, depth - 1).map((i) => `${op} (i${n} ${i} to i${bits})`)),
          });
        a = fc.oneof(...options);
      }
      intMemo.set(key, a);
      return a;
    },
  };
  return arbs;
}

/** One initializer: a pointer in some address space or an integer of some width, with its type. */
export function constantExpr(options: ConstExprOptions = {}): fc.Arbitrary<{ type: string; value: string }> {
  const depth = options.depth ?? 4;
  const arbs = makeArbs();
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(0, 0, 0, 1, 4).chain((as) => arbs.ptr(as, depth).map((value) => ({ type: ptrType(as), value }))) },
    { weight: 1, arbitrary: fc.constantFrom(...INT_BITS).chain((bits) => arbs.int(bits, depth).map((value) => ({ type: `i${bits}`, value }))) },
  );
}

/**
 * A module: the globals above (some after their uses), then `@e0`, `@e1`, ... initialized with
 * the expressions, and a function storing each pointer expression (constants as instruction
 * operands).
 */
export function constantExprModule(options: ConstExprOptions & { readonly maxExpressions?: number } = {}): fc.Arbitrary<string> {
  return fc.array(constantExpr(options), { minLength: 1, maxLength: options.maxExpressions ?? 8 }).map(constantExprModuleText);
}

export function constantExprModuleText(exprs: readonly { type: string; value: string }[]): string {
  const lines = ['target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"', ''];
  for (const g of GLOBALS) if (!g.late && !g.definition.startsWith('declare')) lines.push(g.definition);
  exprs.forEach((e, i) => lines.push(`@e${i} = global ${e.type} ${e.value}`));
  lines.push('@sink = global ptr null');
  for (const g of GLOBALS) if (g.late) lines.push(g.definition);
  lines.push('', 'define void @use() {');
  exprs.forEach((e) => {
    if (e.type === 'ptr') lines.push(`  store ptr ${e.value}, ptr @sink`);
  });
  lines.push('  ret void', '}', '');
  for (const g of GLOBALS) if (g.definition.startsWith('declare')) lines.push(g.definition);
  return lines.join('\n') + '\n';
}
