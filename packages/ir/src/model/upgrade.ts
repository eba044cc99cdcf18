/**
 * The auto-upgrades LLVM 16's parser applies before a module is used, limited to those that
 * change device IR in practice:
 * - every intrinsic declaration gets LLVM's canonical intrinsic attributes (what was written is
 *   replaced, as `UpgradeIntrinsicFunction` does);
 * - overloaded intrinsics mangled with typed pointers (`llvm.memcpy.p0i8.p0i8.i64`) are renamed to
 *   their opaque-pointer names (`llvm.memcpy.p0.p0.i64`); the new declaration goes to the end of
 *   the module and calls are redirected to it. Not in a module that keeps typed pointers
 *   (`Module.typedPointers`), where those names are the right ones, as in LLVM 14.
 */
import { AttributeList, AttributeSet, enumAttr, intAttr, type Attribute } from './attributes.js';
import { CallInst } from './instructions.js';
import { INTRINSICS, INTRINSIC_ATTRIBUTE_LISTS } from './data/intrinsics.js';
import type { Module } from './module.js';
import { Argument, IRFunction } from './values.js';

/** The intrinsic a function name denotes (LLVM's `lookupIntrinsicID`), if any. */
export function lookupIntrinsic(name: string): { base: string; overloaded: boolean; list: number } | undefined {
  if (!name.startsWith('llvm.')) return undefined;
  const exact = INTRINSICS[name];
  if (exact !== undefined) return describe(name, exact);
  let cut = name.lastIndexOf('.');
  while (cut > 4) {
    const prefix = name.slice(0, cut);
    const entry = INTRINSICS[prefix];
    if (entry !== undefined) {
      const d = describe(prefix, entry);
      return d.overloaded ? d : undefined;
    }
    cut = name.lastIndexOf('.', cut - 1);
  }
  return undefined;
}

function describe(base: string, entry: number | readonly [number, 1]): { base: string; overloaded: boolean; list: number } {
  return typeof entry === 'number' ? { base, overloaded: false, list: entry } : { base, overloaded: true, list: entry[0] };
}

function parseAttr(text: string): Attribute {
  const eq = text.indexOf('=');
  if (eq < 0) return enumAttr(text);
  return intAttr(text.slice(0, eq), Number(text.slice(eq + 1)));
}

const listCache = new Map<number, AttributeList>();

/** The attributes LLVM gives a declaration of the intrinsic (`Intrinsic::getAttributes`). */
export function intrinsicAttributes(list: number, paramCount: number): AttributeList {
  if (list < 0) return AttributeList.empty;
  let cached = listCache.get(list * 4096 + paramCount);
  if (cached !== undefined) return cached;
  const entries = INTRINSIC_ATTRIBUTE_LISTS[list]!;
  const set = (key: string): AttributeSet => {
    const text = entries[key];
    return text === undefined ? AttributeSet.empty : AttributeSet.of(text.split(' ').map(parseAttr));
  };
  const params: AttributeSet[] = [];
  for (const key of Object.keys(entries)) {
    if (key === 'fn' || key === 'ret') continue;
    const i = Number(key);
    while (params.length <= i) params.push(AttributeSet.empty);
    params[i] = set(key);
  }
  cached = new AttributeList(set('fn'), set('ret'), params);
  listCache.set(list * 4096 + paramCount, cached);
  return cached;
}

/** Typed-pointer type manglings inside an intrinsic name suffix become opaque (`p0i8` → `p0`). */
export function remangleOpaque(name: string, base: string): string {
  const suffix = name.slice(base.length);
  if (suffix === '') return name;
  const parts = suffix.slice(1).split('.');
  const fixed = parts.map((p) => p.replace(/^((?:v\d+)?p\d+)(?:i\d+|f\d+|bf16|s_\w+|a\d+\w+|v\d+\w+|f_\w+|sl_\w+)$/, '$1'));
  return base + '.' + fixed.join('.');
}

/** Applies the upgrades to `m` in place. */
export function upgradeIntrinsics(m: Module): void {
  let renamed: Map<IRFunction, IRFunction> | undefined;
  // Iterate over a growing list: declarations created below are visited too, as in LLVM.
  for (let i = 0; i < m.functions.length; i++) {
    const fn = m.functions[i]!;
    if (!fn.name.startsWith('llvm.')) continue;
    const info = lookupIntrinsic(fn.name);
    if (info === undefined) continue;
    let target = fn;
    if (info.overloaded && !m.typedPointers) {
      const wanted = remangleOpaque(fn.name, info.base);
      if (wanted !== fn.name) {
        const existing = m.getFunction(wanted);
        if (existing !== undefined && existing.functionType === fn.functionType) target = existing;
        else {
          if (existing !== undefined) m.renameGlobal(existing, `${wanted}.renamed`);
          target = new IRFunction(wanted, fn.functionType, fn.type, AttributeList.empty);
          target.args = fn.functionType.params.map((t) => new Argument(t, '', target));
          m.addFunction(target);
        }
        target.callingConv = fn.callingConv;
        (renamed ??= new Map()).set(fn, target);
      }
    }
    target.attributes = intrinsicAttributes(info.list, target.functionType.params.length);
  }
  if (renamed === undefined) return;
  for (const f of m.functions) {
    for (const b of f.blocks) {
      for (const inst of b.instructions) {
        if (!(inst instanceof CallInst)) continue;
        const callee = inst.operands[0]!;
        if (callee.vk === 'function') {
          const r = renamed.get(callee);
          if (r !== undefined) inst.operands[0] = r;
        }
      }
    }
  }
  m.removeAll(new Set(renamed.keys()));
}

/** The `"Debug Info Version"` module flag (0 when absent), as `getDebugMetadataVersionFromModule`. */
export function debugMetadataVersion(m: Module): number {
  for (const flag of m.namedMetadata.get('llvm.module.flags') ?? []) {
    if (flag.mk !== 'tuple') continue;
    const key = flag.operands[1];
    const value = flag.operands[2];
    if (key?.mk === 'string' && key.value === 'Debug Info Version' && value?.mk === 'value' && value.value.vk === 'int') return value.value.num;
  }
  return 0;
}

const DEBUG_INTRINSICS = new Set(['llvm.dbg.declare', 'llvm.dbg.value', 'llvm.dbg.addr', 'llvm.dbg.label', 'llvm.dbg.assign']);

/** LLVM's `StripDebugInfo`; returns whether anything was removed. */
export function stripDebugInfo(m: Module): boolean {
  let changed = false;
  for (const name of [...m.namedMetadata.keys()]) {
    if (name.startsWith('llvm.dbg.') || name === 'llvm.gcov') {
      m.namedMetadata.delete(name);
      changed = true;
    }
  }
  const kinds = m.context.md.kinds;
  const dbg = 0;
  const stripped = new Set([dbg, kinds.id('heapallocsite'), kinds.id('DIAssignID')]);
  for (const f of m.functions) {
    const before = f.attachments.length;
    f.attachments = f.attachments.filter((a) => a.kind !== dbg);
    if (f.attachments.length !== before) changed = true;
    for (const b of f.blocks) {
      const kept = b.instructions.filter((i) => !(i instanceof CallInst && i.calledFunction !== undefined && DEBUG_INTRINSICS.has(i.calledFunction.name)));
      if (kept.length !== b.instructions.length) {
        b.instructions = kept;
        changed = true;
      }
      for (const i of b.instructions) {
        if (i.debugRecords) {
          i.debugRecords = null;
          changed = true;
        }
        if (i.attachments === null) continue;
        const n = i.attachments.length;
        i.attachments = i.attachments.filter((a) => !stripped.has(a.kind));
        if (i.attachments.some((a) => a.kind === dbg) || i.attachments.length !== n) changed = true;
        if (i.attachments.length === 0) i.attachments = null;
      }
    }
  }
  for (const g of m.globals) {
    const before = g.attachments.length;
    g.attachments = g.attachments.filter((a) => a.kind !== dbg);
    if (g.attachments.length !== before) changed = true;
  }
  return changed;
}

/**
 * Debug info that LLVM's verifier calls broken, which makes `UpgradeDebugInfo` drop all of it
 * (the module itself stays valid). Checked so far: a function's `!dbg` must be a DISubprogram.
 */
export function brokenDebugInfo(m: Module): boolean {
  for (const f of m.functions) {
    for (const a of f.attachments) if (a.kind === 0 && !(a.node.mk === 'di' && a.node.className === 'DISubprogram')) return true;
  }
  return false;
}

/**
 * LLVM's `UpgradeDebugInfo`: a module with the current `"Debug Info Version"` keeps its debug info
 * unless it is broken; otherwise the debug info is dropped and the returned warning (LLVM's
 * wording) should be shown to the user.
 */
export function upgradeDebugInfo(m: Module): string | undefined {
  const version = debugMetadataVersion(m);
  if (version === 3) {
    if (!brokenDebugInfo(m)) return undefined;
    stripDebugInfo(m);
    return `ignoring invalid debug info in ${m.id}`;
  }
  const modified = stripDebugInfo(m);
  return modified ? `ignoring debug info with an invalid version (${version}) in ${m.id}` : undefined;
}
