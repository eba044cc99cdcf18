/**
 * Generated modules with conditional calls, for property tests: kernels and actions make calls
 * `if_device_has`-style through conditional callers, actions may hold nested conditional calls to
 * later actions, and each action may list aspects in `!sycl_used_aspects`. The description is the
 * oracle; `moduleText` writes it as the headers would (caller definitions, before
 * `sycl-conditional-call-on-device`).
 */
import { fc } from '@fast-check/vitest';
import { stripPointerCasts, type CallInst, type IRFunction, type Module } from '@syclkit/ir';
import { encodeCondition } from '../src/condition.js';
import { ASPECTS, encodableCondition, headerCondition } from './arbitraries.js';

export interface GeneratedCall {
  readonly action: number;
  /** The Condition Expression's integers. */
  readonly condition: readonly number[];
}

export interface GeneratedAction {
  readonly aspects: readonly number[];
  /** Conditional calls to later actions only, so the call graph has no cycles. */
  readonly calls: readonly GeneratedCall[];
}

export interface GeneratedModule {
  readonly kernels: readonly (readonly GeneratedCall[])[];
  readonly actions: readonly GeneratedAction[];
}

/** Arbitrary trees and the shapes the header builders make. */
const condition = fc.oneof(encodableCondition, headerCondition).map((c) => encodeCondition(c));

export const generatedModule: fc.Arbitrary<GeneratedModule> = fc.integer({ min: 1, max: 4 }).chain((actionCount) => {
  const callTo = (first: number): fc.Arbitrary<GeneratedCall> =>
    fc.record({ action: fc.integer({ min: first, max: actionCount - 1 }), condition });
  const action = (index: number): fc.Arbitrary<GeneratedAction> =>
    fc.record({
      aspects: fc.subarray([...ASPECTS]),
      calls: index + 1 < actionCount ? fc.array(callTo(index + 1), { maxLength: 2 }) : fc.constant([]),
    });
  return fc.record({
    kernels: fc.array(fc.array(callTo(0), { maxLength: 3 }), { minLength: 1, maxLength: 2 }),
    actions: fc.tuple(...Array.from({ length: actionCount }, (_, i) => action(i))),
  });
});

/** A call site with its global number k (its callable is `%s<k>`) and where it is. */
export interface NumberedSite extends GeneratedCall {
  readonly k: number;
  readonly in: string;
}

export function sitesOf(gen: GeneratedModule): NumberedSite[] {
  const sites: NumberedSite[] = [];
  gen.kernels.forEach((calls, i) => calls.forEach((call) => sites.push({ ...call, k: sites.length, in: `kernel${i}` })));
  gen.actions.forEach((action, i) => action.calls.forEach((call) => sites.push({ ...call, k: sites.length, in: `action${i}` })));
  return sites;
}

/** The caller that calls `action` with a condition of `length` integers (shared by such sites). */
export function callerName(action: number, length: number): string {
  return `cc_a${action}_n${length}`;
}

/** The module as text; `order` may reorder the definitions (kernels, actions, then callers by default). */
export function moduleText(gen: GeneratedModule, order: (names: string[]) => string[] = (names) => names): string {
  const sites = sitesOf(gen);
  const body = (name: string): string => {
    const mine = sites.filter((site) => site.in === name);
    const allocas = mine.map((site) => `  %s${site.k} = alloca %class.anon, align 8\n`).join('');
    const calls = mine
      .map(
        (site) =>
          `  call spir_func void @${callerName(site.action, site.condition.length)}(ptr noundef byval(%class.anon) align 8 %s${site.k}${site.condition
            .map((v) => `, i32 noundef ${v}`)
            .join('')})\n`,
      )
      .join('');
    return `entry:\n${allocas}${calls}  ret void\n`;
  };
  const definitions = new Map<string, string>();
  gen.kernels.forEach((_, i) => definitions.set(`kernel${i}`, `define spir_kernel void @kernel${i}() {\n${body(`kernel${i}`)}}\n`));
  const metadata: string[] = [];
  gen.actions.forEach((action, i) => {
    const md = action.aspects.length === 0 ? '' : ` !sycl_used_aspects !${metadata.length}`;
    if (md !== '') metadata.push(`!${metadata.length} = !{${action.aspects.map((a) => `i32 ${a}`).join(', ')}}`);
    definitions.set(`action${i}`, `define internal spir_func void @action${i}(ptr addrspace(4) noundef align 8 %this)${md} {\n${body(`action${i}`)}}\n`);
  });
  for (const site of sites) {
    const name = callerName(site.action, site.condition.length);
    if (definitions.has(name)) continue;
    const params = site.condition.map((_, i) => `, i32 noundef %${i}`).join('');
    definitions.set(
      name,
      `define internal spir_func void @${name}(ptr noundef byval(%class.anon) align 8 %fn${params}) #0 {
entry:
  %fn.ascast = addrspacecast ptr %fn to ptr addrspace(4)
  call spir_func void @action${site.action}(ptr addrspace(4) noundef align 8 %fn.ascast) #1
  ret void
}
`,
    );
  }
  const names = order([...definitions.keys()]);
  return `%class.anon = type { ptr addrspace(4) }

${names.map((name) => definitions.get(name)!).join('\n')}
attributes #0 = { convergent "sycl-call-if-on-device-conditionally"="true" }
attributes #1 = { convergent nounwind }

${metadata.join('\n')}
`;
}

/** Independent reference evaluator: recursive descent over the integers, as the runtime would. */
export function holds(sequence: readonly number[], aspects: readonly number[], architecture: bigint | undefined): boolean {
  let position = 0;
  const operand = architecture === undefined ? undefined : Number(BigInt.asIntN(32, architecture));
  const next = (): boolean => {
    const opcode = sequence[position++];
    switch (opcode) {
      case -1:
        return aspects.includes(sequence[position++]!);
      case -2:
        return operand === sequence[position++];
      case -3:
        return !next();
      case -4: {
        const left = next();
        const right = next();
        return left && right;
      }
      case -5: {
        const left = next();
        const right = next();
        return left || right;
      }
      default:
        throw new Error(`bad opcode ${String(opcode)}`);
    }
  };
  return next();
}

/** What a resolved module shows, per kernel and action: the sites it still calls directly, and its aspects. */
export interface Observed {
  readonly directSites: readonly number[];
  readonly aspects: readonly number[];
}

export function observe(module: Module): Map<string, Observed> {
  const context = module.context;
  const kind = context.md.kinds.lookup('sycl_used_aspects');
  const out = new Map<string, Observed>();
  const sorted = (values: Iterable<number>) => [...new Set(values)].sort((a, b) => a - b);
  for (const fn of module.functions) {
    if (!/^(kernel|action)\d+$/.test(fn.name)) continue;
    const sites: number[] = [];
    for (const inst of fn.instructions()) {
      if (inst.opcode !== 'call') continue;
      const callee = (inst as CallInst).calledFunction;
      if (callee === undefined || !callee.name.startsWith('action')) continue;
      const callable = (inst as CallInst).args[0];
      const base = callable === undefined ? undefined : stripPointerCasts(callable);
      if (base?.vk === 'instruction' && /^s\d+$/.test(base.name)) sites.push(Number(base.name.slice(1)));
    }
    const node = kind === undefined ? undefined : fn.attachments.find((a) => a.kind === kind)?.node;
    const aspects: number[] = [];
    if (node?.mk === 'tuple') for (const op of node.operands) if (op?.mk === 'value' && op.value.vk === 'int') aspects.push(op.value.num);
    out.set(fn.name, { directSites: sorted(sites), aspects: sorted(aspects) });
  }
  return out;
}

/** The expected observation for a device, computed from the description alone. */
export function expected(gen: GeneratedModule, aspects: readonly number[], architecture: bigint | undefined): Map<string, Observed> {
  const sites = sitesOf(gen).map((site) => ({ ...site, taken: holds(site.condition, aspects, architecture) }));
  const reach = (name: string, seen = new Set<number>()): Set<number> => {
    for (const site of sites) {
      if (site.in !== name || !site.taken || seen.has(site.action)) continue;
      seen.add(site.action);
      reach(`action${site.action}`, seen);
    }
    return seen;
  };
  const own = (name: string): readonly number[] => (name.startsWith('action') ? gen.actions[Number(name.slice(6))]!.aspects : []);
  const out = new Map<string, Observed>();
  const names = [...gen.kernels.map((_, i) => `kernel${i}`), ...gen.actions.map((_, i) => `action${i}`)];
  for (const name of names) {
    const all = new Set(own(name));
    for (const action of reach(name)) for (const aspect of gen.actions[action]!.aspects) all.add(aspect);
    out.set(name, {
      directSites: sites.filter((site) => site.in === name && site.taken).map((site) => site.k),
      aspects: [...all].sort((a, b) => a - b),
    });
  }
  return out;
}

/** Functions that are conditional callers by attribute (definitions or declarations). */
export function markedFunctions(module: Module): IRFunction[] {
  return module.functions.filter((fn) => fn.attributes.fn.hasString('sycl-call-if-on-device-conditionally'));
}
