/**
 * Generated typed-pointer modules (LLVM 14 syntax: `i32 addrspace(1)*`) for the typed-pointer
 * property tests. A module is built from a list of numbers (each choice takes the next one, so
 * fast-check shrinks the list into smaller programs): named structs (one recursive through a
 * pointer, one only ever reached through a pointer, one unused), globals in several address
 * spaces, pointer-typed globals initialized with constant expressions (bitcasts — also to the
 * first element, which LLVM 14 folds into a GEP —, addrspacecasts, GEPs through structs and
 * arrays, nested), and functions whose bodies alloca, GEP, load, store, bitcast, addrspacecast,
 * call each other (also forward, and through a bitcast constant), call
 * `llvm.memcpy.p0i8.p0i8.i64`, and use constant-expression operands. Metadata lists kernels as
 * typed function pointers.
 *
 * Every text is valid for LLVM 14 (`opt -S`) and for LLVM 16, which reads it with opaque
 * pointers (opaque mode folds the constant expressions, GEPs of GEPs and casts of casts included,
 * as LLVM 16 does).
 */
import fc from 'fast-check';

type GType =
  | { readonly k: 'int'; readonly bits: number }
  | { readonly k: 'fp'; readonly name: 'float' | 'double' }
  | { readonly k: 'ptr'; readonly to: GType; readonly as: number }
  | { readonly k: 'array'; readonly n: number; readonly of: GType }
  | { readonly k: 'struct'; readonly name: string }
  | { readonly k: 'fn'; readonly params: readonly GType[] };

const i8: GType = { k: 'int', bits: 8 };
const i16: GType = { k: 'int', bits: 16 };
const i32: GType = { k: 'int', bits: 32 };
const i64: GType = { k: 'int', bits: 64 };
const float: GType = { k: 'fp', name: 'float' };
const double: GType = { k: 'fp', name: 'double' };
const ptr = (to: GType, as = 0): GType => ({ k: 'ptr', to, as });
const array = (n: number, of: GType): GType => ({ k: 'array', n, of });
const struct = (name: string): GType => ({ k: 'struct', name });

const A = struct('struct.A');
const B = struct('struct.B');
const C = struct('struct.C');
const D = struct('struct.OnlyPointee');

/** Struct bodies, in definition order (`struct.Unused` is never referenced). */
const STRUCTS: readonly (readonly [string, readonly GType[]])[] = [
  ['struct.A', [i32, ptr(i8)]],
  ['struct.B', [A, array(4, i32), ptr(B, 1)]],
  ['struct.C', [array(2, A), float, ptr(D, 4)]],
  ['struct.OnlyPointee', [double, i16]],
  ['struct.Unused', [i64]],
];
const BODIES = new Map(STRUCTS);

function text(t: GType): string {
  switch (t.k) {
    case 'int':
      return `i${t.bits}`;
    case 'fp':
      return t.name;
    case 'ptr':
      return `${text(t.to)}${t.as === 0 ? '' : ` addrspace(${t.as})`}*`;
    case 'array':
      return `[${t.n} x ${text(t.of)}]`;
    case 'struct':
      return `%${t.name}`;
    case 'fn':
      return `void (${t.params.map(text).join(', ')})`;
  }
}

const same = (a: GType, b: GType): boolean => text(a) === text(b);

/** Types a global, alloca or load can have. */
const VALUE_TYPES: readonly GType[] = [i8, i32, i64, float, double, A, B, C, array(3, i32), array(2, A), ptr(i32, 1), ptr(A, 4)];
const ADDRESS_SPACES = [0, 1, 3, 4];

class Chooser {
  private i = 0;
  constructor(private readonly choices: readonly number[]) {}
  /** A number in [0, n). */
  int(n: number): number {
    const v = this.choices[this.i++] ?? 0;
    return n <= 1 ? 0 : v % n;
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }
  chance(percent: number): boolean {
    return this.int(100) < percent;
  }
}

interface Operand {
  /** `type value`. */
  readonly typed: string;
  readonly type: GType;
  /** The operand is a global variable itself. */
  readonly isGlobal: boolean;
}

/** Builds the text of a typed module from `choices`. */
export function typedModuleText(choices: readonly number[]): string {
  const ch = new Chooser(choices);
  const lines: string[] = [
    'target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"',
    'target triple = "spir64-unknown-unknown"',
    '',
  ];
  for (const [name, body] of STRUCTS) lines.push(`%${name} = type { ${body.map(text).join(', ')} }`);
  lines.push('');

  // --- globals ---------------------------------------------------------------------------------
  const globals: { name: string; type: GType; as: number }[] = [];
  const globalCount = 1 + ch.int(4);
  for (let g = 0; g < globalCount; g++) {
    const type = ch.pick(VALUE_TYPES);
    const as = ch.pick(ADDRESS_SPACES);
    const linkage = ch.pick(['', 'internal ', 'linkonce_odr ']);
    lines.push(`@g${g} = ${linkage}${as === 0 ? '' : `addrspace(${as}) `}global ${text(type)} zeroinitializer, align 8`);
    globals.push({ name: `g${g}`, type, as });
  }

  /** Indices selecting a sub-object of `t` (after the leading pointer step), with the result type. */
  const path = (t: GType, constant: boolean): { indices: string[]; result: GType } => {
    const indices: string[] = [];
    let cur = t;
    while (ch.chance(65)) {
      if (cur.k === 'struct') {
        const body = BODIES.get(cur.name)!;
        const f = ch.int(body.length);
        indices.push(`i32 ${f}`);
        cur = body[f]!;
      } else if (cur.k === 'array') {
        const outOfRange = constant && ch.chance(15);
        indices.push(`i64 ${outOfRange ? cur.n + ch.int(3) : ch.int(cur.n)}`);
        cur = cur.of;
      } else break;
    }
    return { indices, result: cur };
  };

  /** A constant pointer expression rooted at a global (depth-limited). */
  const pointerConstant = (depth: number): Operand => {
    const g = ch.pick(globals);
    let op: Operand = { typed: `${text(ptr(g.type, g.as))} @${g.name}`, type: ptr(g.type, g.as), isGlobal: true };
    for (let d = 0; d < depth; d++) {
      const p = op.type as Extract<GType, { k: 'ptr' }>;
      switch (ch.int(4)) {
        case 0: {
          // bitcast: to i8*, to the first element (LLVM 14 makes that a GEP), or to another type
          const first = p.to.k === 'struct' ? BODIES.get(p.to.name)![0]! : p.to.k === 'array' ? p.to.of : undefined;
          const to = ch.pick([i8, first ?? i8, ch.pick(VALUE_TYPES)]);
          if (same(to, p.to)) break;
          const t = ptr(to, p.as);
          op = { typed: `${text(t)} bitcast (${op.typed} to ${text(t)})`, type: t, isGlobal: false };
          break;
        }
        case 1: {
          if (p.as === 4) break;
          const t = ptr(ch.chance(70) ? p.to : ch.pick([i8, i32]), 4);
          op = { typed: `${text(t)} addrspacecast (${op.typed} to ${text(t)})`, type: t, isGlobal: false };
          break;
        }
        default: {
          const first = ch.int(3) === 0 ? 1 : 0;
          const { indices, result } = path(p.to, true);
          const inbounds = ch.chance(50);
          const t = ptr(result, p.as);
          const list = [`i64 ${first}`, ...indices].join(', ');
          op = { typed: `${text(t)} getelementptr ${inbounds ? 'inbounds ' : ''}(${text(p.to)}, ${op.typed}, ${list})`, type: t, isGlobal: false };
        }
      }
    }
    return op;
  };

  const pointerGlobalCount = ch.int(4);
  for (let k = 0; k < pointerGlobalCount; k++) {
    const c = pointerConstant(1 + ch.int(3));
    lines.push(`@p${k} = global ${c.typed}, align 8`);
  }
  lines.push('', 'declare void @llvm.memcpy.p0i8.p0i8.i64(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i64, i1 immarg)');

  // --- functions -------------------------------------------------------------------------------
  const fnCount = 1 + ch.int(4);
  const signatures: GType[][] = [];
  for (let f = 0; f < fnCount; f++) {
    const params: GType[] = [];
    const n = ch.int(3);
    for (let i = 0; i < n; i++) params.push(ch.chance(70) ? ptr(ch.pick(VALUE_TYPES), ch.pick(ADDRESS_SPACES)) : ch.pick([i32, i64, float]));
    signatures.push(params);
  }
  const zeroOf = (t: GType): string => (t.k === 'ptr' ? 'null' : t.k === 'int' ? '0' : t.k === 'fp' ? '0.000000e+00' : 'zeroinitializer');
  for (let f = 0; f < fnCount; f++) {
    const params = signatures[f]!;
    const linkage = f === 0 ? '' : ch.pick(['', 'internal ', 'linkonce_odr ']);
    const cc = f === 0 ? 'spir_kernel' : 'spir_func';
    lines.push('', `define ${linkage}${cc} void @f${f}(${params.map((t, i) => `${text(t)} %a${i}`).join(', ')}) {`, 'entry:');
    const scope: { name: string; type: GType }[] = params.map((t, i) => ({ name: `%a${i}`, type: t }));
    let next = 0;
    const value = (pred: (t: GType) => boolean): { name: string; type: GType } | undefined => {
      const found = scope.filter((v) => pred(v.type));
      return found.length === 0 ? undefined : ch.pick(found);
    };
    const steps = 1 + ch.int(10);
    for (let s = 0; s < steps; s++) {
      const v = `%v${next}`;
      switch (ch.int(9)) {
        case 0: {
          const t = ch.pick(VALUE_TYPES);
          lines.push(`  ${v} = alloca ${text(t)}, align 8`);
          scope.push({ name: v, type: ptr(t) });
          next++;
          break;
        }
        case 1: {
          const p = value((t) => t.k === 'ptr');
          if (p === undefined || p.type.k !== 'ptr') break;
          const { indices, result } = path(p.type.to, false);
          const t = ptr(result, p.type.as);
          lines.push(`  ${v} = getelementptr ${ch.chance(50) ? 'inbounds ' : ''}${text(p.type.to)}, ${text(p.type)} ${p.name}, ${[`i64 ${ch.int(2)}`, ...indices].join(', ')}`);
          scope.push({ name: v, type: t });
          next++;
          break;
        }
        case 2: {
          const p = value((t) => t.k === 'ptr' && t.to.k !== 'struct' && t.to.k !== 'array');
          if (p === undefined || p.type.k !== 'ptr') break;
          lines.push(`  ${v} = load ${text(p.type.to)}, ${text(p.type)} ${p.name}`);
          scope.push({ name: v, type: p.type.to });
          next++;
          break;
        }
        case 3: {
          const p = value((t) => t.k === 'ptr');
          if (p === undefined || p.type.k !== 'ptr') break;
          const pointee = p.type.to;
          const stored = value((t) => same(t, pointee));
          lines.push(`  store ${text(pointee)} ${stored?.name ?? zeroOf(pointee)}, ${text(p.type)} ${p.name}`);
          break;
        }
        case 4: {
          const p = value((t) => t.k === 'ptr');
          if (p === undefined || p.type.k !== 'ptr') break;
          const t = ptr(ch.pick([i8, ...VALUE_TYPES]), p.type.as);
          lines.push(`  ${v} = bitcast ${text(p.type)} ${p.name} to ${text(t)}`);
          scope.push({ name: v, type: t });
          next++;
          break;
        }
        case 5: {
          const p = value((t) => t.k === 'ptr' && t.as !== 4);
          if (p === undefined || p.type.k !== 'ptr') break;
          const t = ptr(p.type.to, 4);
          lines.push(`  ${v} = addrspacecast ${text(p.type)} ${p.name} to ${text(t)}`);
          scope.push({ name: v, type: t });
          next++;
          break;
        }
        case 6: {
          // a call, forward or backward, with arguments of the callee's parameter types
          const callee = ch.int(fnCount);
          if (callee === 0) break;
          const args = signatures[callee]!.map((t) => {
            const a = value((u) => same(u, t));
            return `${text(t)} ${a?.name ?? zeroOf(t)}`;
          });
          const cast = ch.chance(20) && signatures[callee]!.length > 0;
          if (cast) {
            // through a bitcast to a function type with i8* parameters instead of pointers
            const params = signatures[callee]!.map((t) => (t.k === 'ptr' ? ptr(i8, t.as) : t));
            const fnText = `void (${params.map(text).join(', ')})`;
            const castArgs = params.map((t) => `${text(t)} ${zeroOf(t)}`);
            lines.push(`  call spir_func void bitcast (void (${signatures[callee]!.map(text).join(', ')})* @f${callee} to ${fnText}*)(${castArgs.join(', ')})`);
          } else lines.push(`  call spir_func void @f${callee}(${args.join(', ')})`);
          break;
        }
        case 7: {
          const a = value((t) => t.k === 'ptr' && t.as === 0);
          const b = value((t) => t.k === 'ptr' && t.as === 0);
          if (a === undefined || b === undefined) break;
          lines.push(`  ${v} = bitcast ${text(a.type)} ${a.name} to i8*`, `  %w${next} = bitcast ${text(b.type)} ${b.name} to i8*`);
          lines.push(`  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 8 ${v}, i8* align 8 %w${next}, i64 8, i1 false)`);
          next++;
          break;
        }
        default: {
          // a load through a constant pointer expression
          const c = pointerConstant(1 + ch.int(2));
          const p = c.type as Extract<GType, { k: 'ptr' }>;
          if (p.to.k === 'struct' || p.to.k === 'array') break;
          lines.push(`  ${v} = load ${text(p.to)}, ${c.typed}, align 4`);
          scope.push({ name: v, type: p.to });
          next++;
        }
      }
    }
    lines.push('  ret void', '}');
  }
  lines.push('', '!sycl.kernels = !{!0}', '', `!0 = !{void (${signatures[0]!.map(text).join(', ')})* @f0}`, '');
  return lines.join('\n');
}

/** Typed-pointer module texts (see the file comment). */
export function typedModule(): fc.Arbitrary<string> {
  return fc.array(fc.nat({ max: 1 << 20 }), { minLength: 10, maxLength: 400 }).map((choices) => typedModuleText(choices));
}
