/**
 * fast-check arbitraries for valid textual LLVM modules: functions calling each other (directly,
 * through an `addrspacecast` constant expression, or indirectly through a function pointer
 * loaded from a global), globals whose initializers reference functions, stores of function
 * addresses, internal / linkonce_odr / external linkage, declarations of symbols other modules
 * define, module flags and `!llvm.ident`. The generated {@link GeneratedModule} is plain data, so
 * a test can compute expected facts (call edges, address-taken functions) without the IR library.
 *
 * Every text parses with `parseModule` and is accepted by LLVM 16 (`opt -S`).
 */
import fc from 'fast-check';

export type Signature = 'void' | 'int';
export type Linkage = 'external' | 'internal' | 'linkonce_odr';

export type GeneratedAction =
  /** `call @f(...)`, `cast` through `addrspacecast (ptr @f to ptr addrspace(4))`. */
  | { readonly kind: 'call' | 'cast-call'; readonly callee: number }
  /** Loads a pointer from global `global` and calls it with signature `signature`. */
  | { readonly kind: 'indirect-call'; readonly global: number; readonly signature: Signature }
  /** `store ptr @f, ptr @g` (takes the address of `fn`). */
  | { readonly kind: 'store'; readonly fn: number; readonly global: number };

export interface GeneratedFunction {
  readonly name: string;
  readonly signature: Signature;
  readonly linkage: Linkage;
  /** False for a declaration (no body, external linkage). */
  readonly defined: boolean;
  readonly actions: readonly GeneratedAction[];
}

export type GeneratedInitializer =
  | { readonly kind: 'int'; readonly value: number }
  | { readonly kind: 'null' }
  | { readonly kind: 'function'; readonly fn: number }
  | { readonly kind: 'cast-function'; readonly fn: number }
  | { readonly kind: 'array'; readonly fns: readonly number[] };

export interface GeneratedGlobal {
  readonly name: string;
  readonly internal: boolean;
  readonly initializer: GeneratedInitializer;
}

export interface GeneratedModule {
  readonly name: string;
  /** Function indices in actions and initializers refer to this list. */
  readonly functions: readonly GeneratedFunction[];
  readonly globals: readonly GeneratedGlobal[];
  /** Value of the `frame-pointer` module flag (behaviour 7, max). */
  readonly framePointer: number;
}

export interface ModuleArbitraryOptions {
  /** Prefix of every symbol the module defines (distinct prefixes give disjoint modules). */
  readonly prefix?: string;
  readonly maxFunctions?: number;
  readonly maxGlobals?: number;
  readonly maxActions?: number;
  /** Functions defined elsewhere that the module may declare and call (cross-module references). */
  readonly externals?: readonly { readonly name: string; readonly signature: Signature }[];
  /** Allow `internal` and `linkonce_odr` definitions (on by default). */
  readonly discardableLinkage?: boolean;
  /** Let global initializers reference functions (on by default). */
  readonly functionsInInitializers?: boolean;
}

/** Plain-data modules; print them with {@link moduleText}. */
export function generatedModule(options: ModuleArbitraryOptions = {}): fc.Arbitrary<GeneratedModule> {
  const prefix = options.prefix ?? 'm';
  const maxFunctions = options.maxFunctions ?? 8;
  const maxGlobals = options.maxGlobals ?? 3;
  const maxActions = options.maxActions ?? 5;
  const externals = options.externals ?? [];
  const linkages: Linkage[] = options.discardableLinkage === false ? ['external'] : ['external', 'external', 'internal', 'linkonce_odr'];
  return fc
    .record({
      own: fc.integer({ min: 1, max: maxFunctions }),
      declared: fc.subarray([...externals]),
      globals: fc.integer({ min: 0, max: maxGlobals }),
      framePointer: fc.integer({ min: 0, max: 2 }),
    })
    .chain(({ own, declared, globals, framePointer }) => {
      const total = own + declared.length;
      const fnIndex = fc.integer({ min: 0, max: total - 1 });
      const globalIndex = fc.integer({ min: 0, max: Math.max(globals - 1, 0) });
      const action: fc.Arbitrary<GeneratedAction> =
        globals === 0
          ? fc.record({ kind: fc.constantFrom('call' as const, 'cast-call' as const), callee: fnIndex })
          : fc.oneof(
              { weight: 4, arbitrary: fc.record({ kind: fc.constant('call' as const), callee: fnIndex }) },
              { weight: 1, arbitrary: fc.record({ kind: fc.constant('cast-call' as const), callee: fnIndex }) },
              { weight: 1, arbitrary: fc.record({ kind: fc.constant('indirect-call' as const), global: globalIndex, signature: fc.constantFrom<Signature>('void', 'int') }) },
              { weight: 1, arbitrary: fc.record({ kind: fc.constant('store' as const), fn: fnIndex, global: globalIndex }) },
            );
      const ownFunction = (i: number): fc.Arbitrary<GeneratedFunction> =>
        fc.record({
          name: fc.constant(`${prefix}_f${i}`),
          signature: fc.constantFrom<Signature>('void', 'int'),
          linkage: fc.constantFrom(...linkages),
          defined: fc.boolean().map((b) => b || i === 0),
          actions: fc.array(action, { maxLength: maxActions }),
        }).map((f) => (f.defined ? f : { ...f, linkage: 'external' as const, actions: [] }));
      const plainInitializer: fc.Arbitrary<GeneratedInitializer> = fc.oneof(
        fc.record({ kind: fc.constant('int' as const), value: fc.integer({ min: -5, max: 1000 }) }),
        fc.record({ kind: fc.constant('null' as const) }),
      );
      const initializer: fc.Arbitrary<GeneratedInitializer> =
        options.functionsInInitializers === false
          ? plainInitializer
          : fc.oneof(
              plainInitializer,
              fc.record({ kind: fc.constant('function' as const), fn: fnIndex }),
              fc.record({ kind: fc.constant('cast-function' as const), fn: fnIndex }),
              fc.record({ kind: fc.constant('array' as const), fns: fc.array(fnIndex, { minLength: 1, maxLength: 3 }) }),
            );
      return fc.record({
        name: fc.constant(prefix),
        functions: fc.tuple(...Array.from({ length: own }, (_, i) => ownFunction(i))).map((fns) => [
          ...fns,
          ...declared.map(({ name, signature }): GeneratedFunction => ({ name, signature, linkage: 'external', defined: false, actions: [] })),
        ]),
        globals: fc.tuple(
          ...Array.from({ length: globals }, (_, i) =>
            fc.record({ name: fc.constant(`${prefix}_g${i}`), internal: fc.boolean(), initializer }),
          ),
        ),
        framePointer: fc.constant(framePointer),
      });
    });
}

/** The functions a module defines with external linkage, as `externals` for another module. */
export function exportedFunctions(m: GeneratedModule): { readonly name: string; readonly signature: Signature }[] {
  return m.functions.filter((f) => f.defined && f.linkage === 'external').map(({ name, signature }) => ({ name, signature }));
}

/** Generated modules with their text. */
export function moduleWithText(options: ModuleArbitraryOptions = {}): fc.Arbitrary<{ readonly module: GeneratedModule; readonly text: string }> {
  return generatedModule(options).map((module) => ({ module, text: moduleText(module) }));
}

export const SPIR64_DATALAYOUT = 'e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64';

/** Textual IR of a generated module. */
export function moduleText(m: GeneratedModule): string {
  const fnRef = (i: number): string => `@${m.functions[i]!.name}`;
  const ret = (s: Signature): string => (s === 'void' ? 'void' : 'i32');
  const lines: string[] = [];
  lines.push(`target datalayout = "${SPIR64_DATALAYOUT}"`, 'target triple = "spir64-unknown-unknown"', '');
  for (const g of m.globals) {
    const linkage = g.internal ? 'internal ' : '';
    const init = g.initializer;
    let body: string;
    switch (init.kind) {
      case 'int':
        body = `i32 ${init.value}`;
        break;
      case 'null':
        body = 'ptr null';
        break;
      case 'function':
        body = `ptr ${fnRef(init.fn)}`;
        break;
      case 'cast-function':
        body = `ptr addrspace(4) addrspacecast (ptr ${fnRef(init.fn)} to ptr addrspace(4))`;
        break;
      case 'array':
        body = `[${init.fns.length} x ptr] [${init.fns.map((f) => `ptr ${fnRef(f)}`).join(', ')}]`;
        break;
    }
    lines.push(`@${g.name} = ${linkage}global ${body}, align 8`);
  }
  for (const f of m.functions) {
    const r = ret(f.signature);
    if (!f.defined) {
      lines.push('', `declare ${r} @${f.name}(i32)`);
      continue;
    }
    const linkage = f.linkage === 'external' ? '' : `${f.linkage} `;
    lines.push('', `define ${linkage}${r} @${f.name}(i32 %x) {`, 'entry:');
    f.actions.forEach((a, k) => {
      switch (a.kind) {
        case 'call':
        case 'cast-call': {
          const callee = m.functions[a.callee]!;
          const cr = ret(callee.signature);
          const target = a.kind === 'call' ? fnRef(a.callee) : `addrspacecast (ptr ${fnRef(a.callee)} to ptr addrspace(4))`;
          const space = a.kind === 'call' ? '' : ' addrspace(4)';
          lines.push(`  ${cr === 'void' ? '' : `%c${k} = `}call${space} ${cr} ${target}(i32 %x)`);
          break;
        }
        case 'indirect-call': {
          const cr = ret(a.signature);
          lines.push(`  %p${k} = load ptr, ptr @${m.globals[a.global]!.name}, align 8`);
          lines.push(`  ${cr === 'void' ? '' : `%c${k} = `}call ${cr} %p${k}(i32 %x)`);
          break;
        }
        case 'store':
          lines.push(`  store ptr ${fnRef(a.fn)}, ptr @${m.globals[a.global]!.name}, align 8`);
          break;
      }
    });
    lines.push(f.signature === 'void' ? '  ret void' : '  ret i32 %x', '}');
  }
  lines.push(
    '',
    '!llvm.module.flags = !{!0, !1}',
    '!llvm.ident = !{!2}',
    '',
    '!0 = !{i32 1, !"wchar_size", i32 4}',
    `!1 = !{i32 7, !"frame-pointer", i32 ${m.framePointer}}`,
    `!2 = !{!"generated ${m.name}"}`,
    '',
  );
  return lines.join('\n');
}

/**
 * Call edges of a generated module computed from the data alone (the reference for call graph
 * tests): direct and cast calls, and for indirect calls every address-taken function of the
 * call's signature. Address-taken: stored, or referenced by a global initializer.
 */
export function referenceCallEdges(m: GeneratedModule): { readonly edges: readonly (readonly number[])[]; readonly addressTaken: ReadonlySet<number> } {
  const taken = new Set<number>();
  for (const g of m.globals) {
    const init = g.initializer;
    if (init.kind === 'function' || init.kind === 'cast-function') taken.add(init.fn);
    if (init.kind === 'array') for (const f of init.fns) taken.add(f);
  }
  for (const f of m.functions) for (const a of f.actions) if (a.kind === 'store') taken.add(a.fn);
  const edges = m.functions.map((f) => {
    const out: number[] = [];
    for (const a of f.actions) {
      if (a.kind === 'call' || a.kind === 'cast-call') out.push(a.callee);
      else if (a.kind === 'indirect-call') {
        m.functions.forEach((g, i) => {
          if (taken.has(i) && g.signature === a.signature) out.push(i);
        });
      }
    }
    return out;
  });
  return { edges, addressTaken: taken };
}
