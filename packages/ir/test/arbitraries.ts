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

// --- modules that share symbols -----------------------------------------------------------------

/** How a module defines (or declares) a function from the shared pool. */
export type SharedLinkage =
  | 'linkonce_odr'
  | 'weak_odr'
  | 'internal'
  | 'external'
  | 'linkonce_odr-comdat'
  | 'weak_odr-comdat'
  | 'available_externally'
  | 'declare';

export interface SharedFunction {
  readonly name: string;
  readonly linkage: SharedLinkage;
  readonly calls: readonly string[];
  readonly returns: number;
  readonly allocatesStruct: boolean;
  readonly storesAddressOf: string | null;
}

export interface SharedGlobal {
  readonly name: string;
  readonly linkage: 'internal' | 'linkonce_odr' | 'weak' | 'external' | 'declare' | 'common';
  readonly value: number;
}

/** One module of a group whose symbols come from shared pools, so linking them resolves names. */
export interface SharedModule {
  readonly functions: readonly SharedFunction[];
  readonly globals: readonly SharedGlobal[];
  /** Which struct definitions it has: 0 `%struct.S = { i32, i8 }`, 1 `%struct.S = { i64 }`, 2 `%struct.T = { %struct.S, ptr }`. */
  readonly structs: readonly number[];
  readonly usesLLVMUsed: boolean;
  readonly hasConstructor: boolean;
  readonly hasKernel: boolean;
}

const SHARED_FUNCTIONS = ['h0', 'h1', 'h2', 'h3', 'h4'];
const SHARED_GLOBALS = ['g0', 'g1', 'g2'];

/**
 * Modules defining and declaring functions and variables from small shared name pools with every
 * linkage that matters for symbol resolution (linkonce_odr and weak_odr with and without comdats,
 * internal, external, available_externally, common), struct types whose names clash with or
 * without the same body, `@llvm.used`, `@llvm.global_ctors` and `!llvm.ident`. Linking a group may
 * legitimately fail (two strong definitions); print each with {@link sharedModuleText}.
 */
export function sharedModule(): fc.Arbitrary<SharedModule> {
  const fn = fc.record({
    name: fc.constantFrom(...SHARED_FUNCTIONS),
    linkage: fc.constantFrom<SharedLinkage>('linkonce_odr', 'weak_odr', 'internal', 'external', 'linkonce_odr-comdat', 'weak_odr-comdat', 'available_externally', 'declare'),
    calls: fc.array(fc.constantFrom(...SHARED_FUNCTIONS), { maxLength: 3 }),
    returns: fc.integer({ min: 0, max: 3 }),
    allocatesStruct: fc.boolean(),
    storesAddressOf: fc.option(fc.constantFrom(...SHARED_FUNCTIONS), { nil: null }),
  });
  const global = fc.record({
    name: fc.constantFrom(...SHARED_GLOBALS),
    linkage: fc.constantFrom<SharedGlobal['linkage']>('internal', 'linkonce_odr', 'weak', 'external', 'declare', 'common'),
    value: fc.integer({ min: 0, max: 9 }),
  });
  return fc.record({
    functions: fc.uniqueArray(fn, { maxLength: 5, selector: (f) => f.name }),
    globals: fc.uniqueArray(global, { maxLength: 3, selector: (g) => g.name }),
    structs: fc.subarray([0, 1, 2]),
    usesLLVMUsed: fc.boolean(),
    hasConstructor: fc.boolean(),
    hasKernel: fc.boolean(),
  });
}

/** Textual IR of module number `index` of a shared group (the index keeps its own symbols apart). */
export function sharedModuleText(m: SharedModule, index: number): string {
  const lines = [`target datalayout = "${SPIR64_DATALAYOUT}"`, 'target triple = "spir64-unknown-unknown"', ''];
  const hasT = m.structs.includes(2);
  const sBody = m.structs.includes(0) || hasT ? '{ i32, i8 }' : m.structs.includes(1) ? '{ i64 }' : undefined;
  if (sBody !== undefined) lines.push(`%struct.S = type ${sBody}`);
  if (hasT) lines.push('%struct.T = type { %struct.S, ptr }');
  for (const f of m.functions) if (f.linkage.endsWith('-comdat')) lines.push(`$${f.name} = comdat any`);
  const slot = `@slot${index}`;
  for (const g of m.globals) {
    if (g.linkage === 'declare') lines.push(`@${g.name} = external global i32`);
    else if (g.linkage === 'common') lines.push(`@${g.name} = common global i32 0`);
    else lines.push(`@${g.name} = ${g.linkage === 'external' ? '' : `${g.linkage} `}global i32 ${g.value}`);
  }
  if (m.functions.some((f) => f.storesAddressOf !== null && f.linkage !== 'declare')) lines.push(`${slot} = global ptr null`);
  const linked = m.functions.filter((f) => f.linkage !== 'declare' && f.linkage !== 'available_externally');
  if (m.usesLLVMUsed && linked.length > 0) lines.push(`@llvm.used = appending global [1 x ptr] [ptr @${linked[0]!.name}], section "llvm.metadata"`);
  if (m.hasConstructor) lines.push(`@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @ctor${index}, ptr null }]`);
  if (m.hasConstructor) lines.push('', `define internal void @ctor${index}() {`, '  ret void', '}');
  if (m.hasKernel) {
    lines.push('', `define spir_kernel void @kernel${index}() {`);
    for (const f of m.functions) lines.push(`  %c.${f.name} = call i32 @${f.name}()`);
    for (const g of m.globals) lines.push(`  store i32 ${index}, ptr @${g.name}`);
    lines.push('  ret void', '}');
  }
  const defined = new Set(m.functions.map((f) => f.name));
  const referenced = new Set<string>();
  for (const f of m.functions) {
    if (f.linkage === 'declare') {
      lines.push('', `declare i32 @${f.name}()`);
      continue;
    }
    const linkage = f.linkage.replace('-comdat', '');
    lines.push('', `define ${linkage === 'external' ? '' : `${linkage} `}i32 @${f.name}()${f.linkage.endsWith('-comdat') ? ' comdat' : ''} {`);
    if (f.allocatesStruct && sBody !== undefined) lines.push(`  %s = alloca %struct.${hasT ? 'T' : 'S'}`);
    f.calls.forEach((c, i) => {
      referenced.add(c);
      lines.push(`  %r${i} = call i32 @${c}()`);
    });
    if (f.storesAddressOf !== null) {
      referenced.add(f.storesAddressOf);
      lines.push(`  store ptr @${f.storesAddressOf}, ptr ${slot}`);
    }
    lines.push(`  ret i32 ${f.returns}`, '}');
  }
  for (const name of referenced) if (!defined.has(name)) lines.push('', `declare i32 @${name}()`);
  lines.push('', '!llvm.ident = !{!0}', `!0 = !{!"module ${index}"}`, '');
  return lines.join('\n');
}
