/**
 * Writing a module for LLVM 15's reader (`printModule(m, { llvmVersion: 15 })`): what LLVM 16
 * (and the LLVM 19 syntax this library reads) added, spelled the way LLVM 15 reads it, or refused
 * with an error naming what LLVM 15 cannot express. What changes (checked against LLVM 15's
 * Attributes.td, Dwarf.def and reader):
 *
 * - `memory(...)` becomes LLVM 15's `readnone` / `readonly` / `writeonly` with `argmemonly`,
 *   `inaccessiblememonly` or `inaccessiblemem_or_argmemonly`. Where the effects differ per
 *   location in a way those words cannot say (`memory(read, argmem: readwrite)`), the words
 *   that allow every access the original allows are written: a weaker promise, still true.
 * - Debug records (LLVM 19) become the `llvm.dbg.value` / `llvm.dbg.declare` / `llvm.dbg.label`
 *   calls they stand for, declared at the end of the module when the module does not declare
 *   them.
 * - DWARF languages and tags LLVM 15 has no name for are written as numbers.
 * - Flags and attributes LLVM 15 lacks that only promise something (poison or UB when broken):
 *   `nneg`, `disjoint`, `samesign`, `nuw`/`nsw` on `trunc`, `nuw`/`nusw` on GEPs, GEP
 *   `inrange(a, b)`, and the attributes in {@link PROMISE_ONLY_ATTRIBUTES}, are left out; a
 *   `captures(none)` parameter is `nocapture`. The program means the same, with fewer facts.
 *
 * Refused: target extension types (`target("...")`), `atomicrmw` operations and vector operands
 * LLVM 15 lacks, `#dbg_assign` and `llvm.dbg.assign` (assignment tracking, LLVM 16),
 * `!DIAssignID`, debug-info fields newer than LLVM 16, `code_model` on globals, and attributes
 * LLVM 15 does not know that change what a program does or how it is built (`skipprofile`,
 * sanitizer attributes, ...).
 */
import { ATTRIBUTE_KIND_ORDER, AttributeList, AttributeSet, enumAttr, unpackMemoryEffects, type Attribute } from '../model/attributes.js';
import { IrError } from '../errors.js';
import { CallInst, Flag, GetElementPtrInst, MemoryInst, type Instruction } from '../model/instructions.js';
import type { Metadata, MDNode } from '../model/metadata.js';
import type { Module } from '../model/module.js';
import { subtypes, type Type } from '../model/types.js';
import { isConstant, type Constant, type Value } from '../model/values.js';
import { constantOperands } from '../analysis/uses.js';

/** Enum, integer and type attribute keywords LLVM 15 reads (its Attributes.td). */
const LLVM15_ATTRIBUTES: ReadonlySet<string> = new Set([
  ...ATTRIBUTE_KIND_ORDER.filter((k) => k !== 'memory' && k !== 'skipprofile'),
  'argmemonly',
  'inaccessiblememonly',
  'inaccessiblemem_or_argmemonly',
]);

/**
 * Attributes newer than LLVM 15 that only promise something about values or memory (breaking
 * the promise is undefined behaviour or poison), so a module without them still means the same.
 */
export const PROMISE_ONLY_ATTRIBUTES: ReadonlySet<string> = new Set(['nofpclass', 'range', 'writable', 'dead_on_unwind', 'dead_on_return', 'initializes', 'captures']);

/** atomicrmw operations LLVM 15 reads. */
const LLVM15_RMW: ReadonlySet<string> = new Set(['xchg', 'add', 'sub', 'and', 'nand', 'or', 'xor', 'max', 'min', 'umax', 'umin', 'fadd', 'fsub', 'fmax', 'fmin']);

/** DWARF names LLVM 16 added (its Dwarf.def against LLVM 15's), with their values. */
const LLVM16_DWARF_NAMES: ReadonlyMap<string, number> = new Map([
  ['DW_LANG_Kotlin', 0x26],
  ['DW_LANG_Zig', 0x27],
  ['DW_LANG_Crystal', 0x28],
  ['DW_LANG_C_plus_plus_17', 0x2a],
  ['DW_LANG_C_plus_plus_20', 0x2b],
  ['DW_LANG_C17', 0x2c],
  ['DW_LANG_Fortran18', 0x2d],
  ['DW_LANG_Ada2005', 0x2e],
  ['DW_LANG_Ada2012', 0x2f],
  ['DW_TAG_LLVM_ptrauth_type', 0x4300],
]);

/** A DWARF enumerator as LLVM 15 reads it: its name, or its value when LLVM 15 has no name for it. */
export function dwarfNameForLLVM15(name: string): string {
  const value = LLVM16_DWARF_NAMES.get(name);
  return value === undefined ? name : String(value);
}

/** Debug-info fields LLVM 15 does not read (all newer than LLVM 16 too), per node kind. */
const NEWER_DI_FIELDS: Readonly<Record<string, readonly string[]>> = {
  DILocation: ['atomGroup', 'atomRank'],
  DIBasicType: ['num_extra_inhabitants'],
  DICompositeType: ['specification', 'num_extra_inhabitants', 'enumKind', 'bitStride'],
  DISubprogram: ['keyInstructions'],
  DIDerivedType: ['ptrAuthKey', 'ptrAuthIsAddressDiscriminated', 'ptrAuthExtraDiscriminator', 'ptrAuthIsaPointer', 'ptrAuthAuthenticatesNullValues'],
};

/**
 * LLVM 15's spelling of `memory(...)` effects: the legacy words, and whether they say exactly
 * the same (otherwise they allow more: every location the effects touch gets the union of their
 * access kinds). No words: any access (`memory(readwrite)`).
 */
export function legacyMemoryAttributes(effects: number): { readonly words: readonly string[]; readonly exact: boolean } {
  const e = unpackMemoryEffects(effects);
  const access = e.argmem | e.inaccessiblemem | e.other;
  if (access === 0) return { words: ['readnone'], exact: true };
  const words: string[] = [];
  if (access === 1) words.push('readonly');
  else if (access === 2) words.push('writeonly');
  let exact: boolean;
  if (e.other !== 0) exact = e.argmem === access && e.inaccessiblemem === access && e.other === access;
  else if (e.inaccessiblemem === 0) {
    words.push('argmemonly');
    exact = true;
  } else if (e.argmem === 0) {
    words.push('inaccessiblememonly');
    exact = true;
  } else {
    words.push('inaccessiblemem_or_argmemonly');
    exact = e.argmem === access && e.inaccessiblemem === access;
  }
  return { words, exact };
}

/** What writing a module for LLVM 15 refuses (`problems`) and leaves out or weakens (`losses`). */
export interface LLVM15Report {
  readonly problems: readonly string[];
  readonly losses: readonly string[];
}

/** Checks `m` for writing with `llvmVersion: 15`; each distinct problem and loss once, in module order. */
export function llvm15Report(m: Module): LLVM15Report {
  const problems = new Set<string>();
  const losses = new Set<string>();
  const seenTypes = new Set<Type>();
  const seenConstants = new Set<Value>();
  const seenSets = new Set<AttributeSet>();
  const seenMetadata = new Set<Metadata>();

  const type = (t: Type, where: string): void => {
    if (seenTypes.has(t)) return;
    seenTypes.add(t);
    if (t.kind === 'target') problems.add(`${where}: target extension type target("${t.name}") (LLVM 16)`);
    for (const sub of subtypes(t)) type(sub, where);
  };
  const attributes = (set: AttributeSet, where: string): void => {
    if (set.isEmpty || seenSets.has(set)) return;
    seenSets.add(set);
    for (const a of set.attributes) {
      if (a.kind === 'string') continue;
      if (a.kind === 'type' && a.type) type(a.type, where);
      if (a.key === 'memory' && a.kind === 'int') {
        const legacy = legacyMemoryAttributes(a.value as number);
        if (!legacy.exact) losses.add(`${where}: ${formatLegacy(a.value as number)} is written ${legacy.words.length === 0 ? 'as no memory attribute' : `'${legacy.words.join(' ')}'`}, which allows more accesses`);
        continue;
      }
      if (LLVM15_ATTRIBUTES.has(a.key)) continue;
      if (PROMISE_ONLY_ATTRIBUTES.has(a.key)) {
        if (!(a.key === 'captures' && a.kind === 'raw' && a.text === '(none)')) losses.add(`${where}: attribute '${a.key}' is left out (LLVM 15 lacks it)`);
        continue;
      }
      problems.add(`${where}: attribute '${a.key}' (LLVM 15 lacks it)`);
    }
  };
  const attributeList = (list: AttributeList, where: string): void => {
    attributes(list.fn, where);
    attributes(list.ret, where);
    for (const p of list.params) attributes(p, where);
  };
  const metadata = (md: Metadata | null, where: string): void => {
    if (md === null || seenMetadata.has(md)) return;
    seenMetadata.add(md);
    switch (md.mk) {
      case 'value':
        value(md.value, where);
        return;
      case 'arglist':
        for (const a of md.args) value(a.value, where);
        return;
      case 'tuple':
        for (const op of md.operands) metadata(op, where);
        return;
      case 'di': {
        if (md.className === 'DIAssignID') problems.add(`${where}: !DIAssignID (assignment tracking, LLVM 16)`);
        for (const field of NEWER_DI_FIELDS[md.className] ?? []) if (md.fields.has(field)) problems.add(`${where}: !${md.className} field '${field}' (newer than LLVM 16)`);
        for (const f of md.fields.values()) if (f.k === 'md') metadata(f.v, where);
        return;
      }
      default:
        return;
    }
  };
  const value = (v: Value, where: string): void => {
    if (!isConstant(v) || seenConstants.has(v)) return;
    seenConstants.add(v);
    type(v.type, where);
    const c = v as Constant;
    if (c.vk === 'expr') {
      const e = c.extra;
      if (e.sourceElementType) type(e.sourceElementType, where);
      if (c.opcode === 'getelementptr' && e.flags?.some((f) => f === 'nuw' || f === 'nusw')) losses.add(`${where}: GEP flags 'nuw'/'nusw' are left out (LLVM 15 lacks them)`);
      if (e.inRange) losses.add(`${where}: GEP 'inrange(${e.inRange[0]}, ${e.inRange[1]})' is left out (LLVM 19 syntax)`);
    }
    for (const op of constantOperands(c)) value(op, where);
  };
  const attachments = (list: readonly { readonly node: MDNode }[] | null, where: string): void => {
    if (list) for (const a of list) metadata(a.node, where);
  };
  const instruction = (inst: Instruction, where: string): void => {
    type(inst.type, where);
    for (const op of inst.operands) {
      if (op.vk === 'metadata') metadata(op.metadata, where);
      else if (op.vk !== 'instruction' && op.vk !== 'argument' && op.vk !== 'block') value(op, where);
      else type(op.type, where);
    }
    attachments(inst.attachments, where);
    if (inst.debugRecords) {
      for (const r of inst.debugRecords) {
        if (r.kind === 'assign') problems.add(`${where}: #dbg_assign (assignment tracking, LLVM 16)`);
        for (const op of r.operands) metadata(op, where);
      }
    }
    const op = inst.opcode;
    if (inst instanceof CallInst) {
      attributeList(inst.attributes, where);
      const callee = inst.operands[0];
      if (callee?.vk === 'function' && callee.name === 'llvm.dbg.assign') problems.add(`${where}: llvm.dbg.assign (assignment tracking, LLVM 16)`);
      type(inst.functionType, where);
      for (const b of inst.bundles) for (const x of b.inputs) if (x.vk !== 'instruction' && x.vk !== 'argument') value(x, where);
    } else if (inst instanceof GetElementPtrInst) {
      type(inst.sourceElementType, where);
      if (inst.flags & (Flag.NUW | Flag.NUSW)) losses.add(`${where}: GEP flags 'nuw'/'nusw' are left out (LLVM 15 lacks them)`);
    } else if (inst instanceof MemoryInst && op === 'atomicrmw') {
      if (!LLVM15_RMW.has(inst.rmwOperation)) problems.add(`${where}: atomicrmw ${inst.rmwOperation} (LLVM 15 lacks it)`);
      else if (inst.type.kind === 'vector') problems.add(`${where}: atomicrmw ${inst.rmwOperation} of a vector (LLVM 19)`);
    }
    if (op === 'alloca') type((inst as unknown as { allocatedType: Type }).allocatedType, where);
    const flags = inst.flags;
    if (flags & (Flag.NNEG | Flag.DISJOINT | Flag.SAMESIGN)) losses.add(`${where}: flags 'nneg'/'disjoint'/'samesign' are left out (LLVM 15 lacks them)`);
    if (op === 'trunc' && flags & (Flag.NUW | Flag.NSW)) losses.add(`${where}: 'nuw'/'nsw' on trunc are left out (LLVM 15 lacks them)`);
  };

  for (const g of m.globals) {
    const where = `@${g.name}`;
    type(g.valueType, where);
    if (g.initializer) value(g.initializer, where);
    if (g.attributes) attributes(g.attributes, where);
    if (g.codeModel !== undefined) problems.add(`${where}: code_model (LLVM 17)`);
    attachments(g.attachments, where);
  }
  for (const a of m.aliases) value(a.aliasee, `@${a.name}`);
  for (const i of m.ifuncs) value(i.resolver, `@${i.name}`);
  for (const f of m.functions) {
    const where = `@${f.name}`;
    type(f.functionType, where);
    attributeList(f.attributes, where);
    for (const c of [f.personality, f.prefix, f.prologue]) if (c) value(c, where);
    attachments(f.attachments, where);
    for (const b of f.blocks) for (const inst of b.instructions) instruction(inst, where);
  }
  for (const [name, ops] of m.namedMetadata) for (const op of ops) metadata(op, `!${name}`);
  return { problems: [...problems], losses: [...losses] };
}

function formatLegacy(effects: number): string {
  const e = unpackMemoryEffects(effects);
  const names = ['none', 'read', 'write', 'readwrite'];
  return `memory(${names[e.other]}, argmem: ${names[e.argmem]}, inaccessiblemem: ${names[e.inaccessiblemem]})`;
}

/** Throws the error for a report with problems: each named, the first ten, then a count. */
export function assertWritableForLLVM15(m: Module, report: LLVM15Report): void {
  if (report.problems.length === 0) return;
  const shown = report.problems.slice(0, 10);
  const more = report.problems.length - shown.length;
  throw new IrError(`cannot write this module for LLVM 15, which cannot express: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`, m.id === '' ? undefined : m.id);
}

/** An attribute set as LLVM 15 reads it (see the module comment); the same set when nothing changes. */
export function attributeSetForLLVM15(set: AttributeSet): AttributeSet {
  let changed = false;
  const out: Attribute[] = [];
  for (const a of set.attributes) {
    if (a.kind === 'string' || LLVM15_ATTRIBUTES.has(a.key)) {
      out.push(a);
      continue;
    }
    changed = true;
    if (a.key === 'memory' && a.kind === 'int') for (const w of legacyMemoryAttributes(a.value as number).words) out.push(enumAttr(w));
    else if (a.key === 'captures' && a.kind === 'raw' && a.text === '(none)') out.push(enumAttr('nocapture'));
    // the rest are promise-only attributes (others were refused before printing)
  }
  return changed ? AttributeSet.of(out) : set;
}

/** The flags of an instruction LLVM 15 reads (see the module comment). */
export function flagsForLLVM15(opcode: string, flags: number): number {
  let drop = Flag.NNEG | Flag.DISJOINT | Flag.SAMESIGN;
  if (opcode === 'getelementptr') drop |= Flag.NUW | Flag.NUSW;
  else if (opcode === 'trunc') drop |= Flag.NUW | Flag.NSW;
  return flags & ~drop;
}

/** The intrinsic a debug record stands for in LLVM 15, and its declaration. */
export const DEBUG_RECORD_INTRINSICS: Readonly<Record<string, { readonly name: string; readonly params: number }>> = {
  value: { name: 'llvm.dbg.value', params: 3 },
  declare: { name: 'llvm.dbg.declare', params: 3 },
  label: { name: 'llvm.dbg.label', params: 1 },
};
