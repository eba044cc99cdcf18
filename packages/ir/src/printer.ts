/**
 * Prints a module the way LLVM 16's `opt -S` does: the same section order, type discovery order,
 * `!N` numbering (depth-first, globals then named metadata then lazily per function), attribute
 * group numbering, attachment order (by metadata kind id), default spellings and escapes.
 */
import { formatAllocKind, formatMemoryEffects, type Attribute, type AttributeSet } from './attributes.js';
import { formatFP } from './fp.js';
import {
  AggregateInst,
  AllocaInst,
  CallInst,
  CatchSwitchInst,
  CmpInst,
  FAST_MATH_MASK,
  Flag,
  GetElementPtrInst,
  LandingPadInst,
  MemoryInst,
  ShuffleVectorInst,
  type DebugRecord,
  type Instruction,
} from './instructions.js';
import { printDINode } from './di-printer.js';
import type { Attachment, DIExpression, MDNode, Metadata } from './metadata.js';
import type { Module } from './module.js';
import { subtypes, type StructType, type Type } from './types.js';
import type {
  BasicBlock,
  Comdat,
  Constant,
  GlobalAlias,
  GlobalIFunc,
  GlobalValue,
  GlobalVariable,
  IRFunction,
  Value,
} from './values.js';

/** Prints `module` as textual IR. */
export function printModule(module: Module): string {
  const chunks: string[] = [];
  new ModulePrinter(module, (chunk) => chunks.push(chunk)).print();
  return chunks.join('');
}

/**
 * Prints `module` in chunks of about 64 KiB, handing each to `write` as it is produced, so large
 * modules can be written out without holding the whole text.
 */
export function printModuleTo(module: Module, write: (chunk: string) => void): void {
  new ModulePrinter(module, write).print();
}

/** Whether a name prints without quotes: [-a-zA-Z._][-a-zA-Z0-9._]* (no '$', no leading digit). */
function isPlainName(name: string): boolean {
  const n = name.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = name.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 46 || c === 45) continue;
    if (c >= 48 && c <= 57 && i > 0) continue;
    return false;
  }
  return true;
}
const HEX = '0123456789ABCDEF';

/** LLVM's `printEscapedString`: `\\`, printable ASCII except `"`, else `\XX`. */
export function escapeString(s: string): string {
  let plain = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 34 || c === 92) {
      plain = false;
      break;
    }
  }
  if (plain) return s;
  const out = Buffer.allocUnsafe(s.length * 3);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) & 0xff;
    if (c === 92) {
      out[n++] = 92;
      out[n++] = 92;
    } else if (c >= 0x20 && c <= 0x7e && c !== 34) out[n++] = c;
    else {
      out[n++] = 92;
      out[n++] = HEX_CODES[c >> 4]!;
      out[n++] = HEX_CODES[c & 15]!;
    }
  }
  return out.toString('latin1', 0, n);
}

const HEX_CODES = Buffer.from(HEX, 'latin1');

/** `PrintLLVMName`: the name with its prefix, quoted and escaped when needed. */
export function formatName(prefix: string, name: string): string {
  return isPlainName(name) ? prefix + name : `${prefix}"${escapeString(name)}"`;
}

/** `printMetadataIdentifier`: names of named metadata and attachment kinds. */
function metadataIdentifier(name: string): string {
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const alpha = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    const ok = alpha || c === 45 || c === 36 || c === 46 || c === 95 || (i > 0 && c >= 48 && c <= 57);
    out += ok ? name[i] : '\\' + HEX[c >> 4]! + HEX[c & 15]!;
  }
  return out;
}

const LINKAGE_PREFIX: Record<string, string> = {
  external: '',
  private: 'private ',
  internal: 'internal ',
  available_externally: 'available_externally ',
  linkonce: 'linkonce ',
  weak: 'weak ',
  common: 'common ',
  appending: 'appending ',
  extern_weak: 'extern_weak ',
  linkonce_odr: 'linkonce_odr ',
  weak_odr: 'weak_odr ',
};

/** Attribute as written inside a parameter list (`inGroup` = inside `attributes #N = { }`). */
export function formatAttribute(a: Attribute, typeText: (t: Type) => string, inGroup = false): string {
  switch (a.kind) {
    case 'enum':
      return a.key;
    case 'string':
      return a.value === '' ? `"${escapeString(a.key)}"` : `"${escapeString(a.key)}"="${escapeString(a.value)}"`;
    case 'type':
      return a.type === undefined ? a.key : `${a.key}(${typeText(a.type)})`;
    case 'raw':
      return a.key + a.text;
    case 'int': {
      const v = a.value;
      switch (a.key) {
        case 'align':
          return inGroup ? `align=${v}` : `align ${v}`;
        case 'alignstack':
          return inGroup ? `alignstack=${v}` : `alignstack(${v})`;
        case 'uwtable':
          return v === 1 ? 'uwtable(sync)' : 'uwtable';
        case 'memory':
          return formatMemoryEffects(v as number);
        case 'allockind':
          return formatAllocKind(v as number);
        case 'allocsize': {
          const [x, y] = v as readonly [number, number | undefined];
          return y === undefined ? `allocsize(${x})` : `allocsize(${x},${y})`;
        }
        case 'vscale_range': {
          const [x, y] = v as readonly [number, number | undefined];
          return `vscale_range(${x},${y ?? 0})`;
        }
        default:
          return `${a.key}(${String(v)})`;
      }
    }
  }
}

class ModulePrinter {
  private buf = '';
  private readonly sink: (chunk: string) => void;
  private readonly m: Module;
  private readonly typeNames = new Map<Type, string>();
  private readonly numberedTypes = new Map<StructType, number>();
  private readonly namedTypes: StructType[] = [];
  private readonly globalSlots = new Map<GlobalValue, number>();
  private readonly mdSlots = new Map<MDNode, number>();
  private readonly mdNodes: MDNode[] = [];
  private readonly attrSlots = new Map<string, number>();
  private readonly attrSets: AttributeSet[] = [];
  private localSlots = new Map<Value, number>();
  private preds = new Map<BasicBlock, BasicBlock[]>();
  private currentFunction: IRFunction | undefined;

  constructor(m: Module, sink: (chunk: string) => void) {
    this.m = m;
    this.sink = sink;
  }

  private w(s: string): void {
    this.buf += s;
  }

  /** Hands the buffered text to the sink once it is large (called between lines). */
  private flush(force = false): void {
    if (force || this.buf.length > 1 << 16) {
      if (this.buf.length > 0) this.sink(this.buf);
      this.buf = '';
    }
  }

  print(): void {
    const m = this.m;
    this.findTypes();
    this.initializeSlots();
    if (m.id !== '' && !m.id.includes('\n')) this.w(`; ModuleID = '${m.id}'\n`);
    if (m.sourceFilename !== '') this.w(`source_filename = "${escapeString(m.sourceFilename)}"\n`);
    if (m.dataLayout !== '') this.w(`target datalayout = "${m.dataLayout}"\n`);
    if (m.triple !== '') this.w(`target triple = "${m.triple}"\n`);
    if (m.inlineAsm.length > 0) {
      this.w('\n');
      for (const line of m.inlineAsm) this.w(`module asm "${escapeString(line)}"\n`);
    }
    this.printTypeDefinitions();
    this.printComdats();
    if (m.globals.length > 0) this.w('\n');
    for (const gv of m.globals) {
      this.printGlobal(gv);
      this.w('\n');
      this.flush();
    }
    if (m.aliases.length > 0) this.w('\n');
    for (const a of m.aliases) this.printAlias(a);
    if (m.ifuncs.length > 0) this.w('\n');
    for (const i of m.ifuncs) this.printIFunc(i);
    for (const fn of m.functions) {
      this.w('\n');
      this.printFunction(fn);
      this.flush();
    }
    if (this.attrSets.length > 0) {
      this.w('\n');
      this.attrSets.forEach((set, i) => this.w(`attributes #${i} = { ${this.attrSetText(set, true)} }\n`));
    }
    if (m.namedMetadata.size > 0) this.w('\n');
    for (const [name, ops] of m.namedMetadata) {
      this.w(`!${metadataIdentifier(name)} = !{`);
      this.w(ops.map((op) => this.mdRef(op)).join(', '));
      this.w('}\n');
    }
    if (this.mdNodes.length > 0) {
      this.w('\n');
      // nodes are appended to mdNodes while printing bodies is impossible: slots are complete here
      for (let i = 0; i < this.mdNodes.length; i++) {
        this.w(`!${i} = ${this.mdBody(this.mdNodes[i]!)}\n`);
        this.flush();
      }
    }
    this.flush(true);
  }

  // --- types -------------------------------------------------------------------------------------

  /** LLVM's TypeFinder over the module, in its exact discovery order. */
  private findTypes(): void {
    const visitedTypes = new Set<Type>();
    const visitedConstants = new Set<unknown>();
    const visitedMD = new Set<Metadata>();
    const structs: StructType[] = [];
    const incType = (t: Type): void => {
      if (visitedTypes.has(t)) return;
      visitedTypes.add(t);
      const stack: Type[] = [t];
      while (stack.length > 0) {
        const cur = stack.pop()!;
        if (cur.kind === 'struct') structs.push(cur);
        const subs = subtypes(cur);
        for (let i = subs.length - 1; i >= 0; i--) {
          const sub = subs[i]!;
          if (!visitedTypes.has(sub)) {
            visitedTypes.add(sub);
            stack.push(sub);
          }
        }
      }
    };
    const incValue = (v: Value): void => {
      if (v.vk === 'metadata') {
        const md = v.metadata;
        if (md.mk === 'tuple' || md.mk === 'di') incMD(md);
        else if (md.mk === 'value') incValue(md.value);
        else if (md.mk === 'arglist') for (const a of md.args) incValue(a.value);
        return;
      }
      switch (v.vk) {
        case 'argument':
        case 'block':
        case 'instruction':
        case 'asm':
        case 'global':
        case 'function':
        case 'alias':
        case 'ifunc':
          return;
        case 'int':
        case 'fp':
        case 'null':
        case 'zero':
        case 'undef':
        case 'poison':
        case 'none':
        case 'string':
          // no operands: only the type can contribute (the visited-constants set is not needed)
          if (!visitedTypes.has(v.type)) incType(v.type);
          return;
      }
      if (visitedConstants.has(v)) return;
      visitedConstants.add(v);
      incType(v.type);
      if (v.vk === 'expr' && v.extra.sourceElementType) incType(v.extra.sourceElementType);
      for (const op of constantOperands(v)) incValue(op);
    };
    const incMD = (n: MDNode): void => {
      if (visitedMD.has(n)) return;
      visitedMD.add(n);
      if (n.mk === 'tuple') {
        for (const op of n.operands) {
          if (op === null) continue;
          if (op.mk === 'tuple' || op.mk === 'di') incMD(op);
          else if (op.mk === 'value' && isConstantValue(op.value)) incValue(op.value);
        }
      } else {
        for (const f of n.fields.values()) {
          if (f.k !== 'md' || f.v === null) continue;
          const op = f.v;
          if (op.mk === 'tuple' || op.mk === 'di') incMD(op);
          else if (op.mk === 'value' && isConstantValue(op.value)) incValue(op.value);
        }
      }
    };
    const incAttrs = (sets: readonly AttributeSet[]): void => {
      for (const set of sets) for (const a of set.attributes) if (a.kind === 'type' && a.type) incType(a.type);
    };
    const m = this.m;
    for (const g of m.globals) {
      incType(g.valueType);
      if (g.initializer) incValue(g.initializer);
    }
    for (const a of m.aliases) {
      incType(a.valueType);
      incValue(a.aliasee);
    }
    for (const i of m.ifuncs) incType(i.valueType);
    for (const f of m.functions) {
      incType(f.functionType);
      incAttrs([f.attributes.fn, f.attributes.ret, ...f.attributes.params]);
      if (f.prefix) incValue(f.prefix);
      if (f.prologue) incValue(f.prologue);
      if (f.personality) incValue(f.personality);
      for (const b of f.blocks) {
        for (const inst of b.instructions) {
          if (!visitedTypes.has(inst.type)) incType(inst.type);
          const ops = inst.operands;
          for (let k = 0; k < ops.length; k++) {
            const op = ops[k]!;
            if (op.vk !== 'instruction' && op.vk !== 'argument' && op.vk !== 'block') incValue(op);
          }
          if (inst instanceof GetElementPtrInst) incType(inst.sourceElementType);
          if (inst instanceof AllocaInst) incType(inst.allocatedType);
          if (inst instanceof CallInst) {
            const a = inst.attributes;
            incAttrs([a.fn, a.ret, ...a.params]);
            for (const bundle of inst.bundles) for (const v of bundle.inputs) if (v.vk !== 'instruction') incValue(v);
          }
          if (inst instanceof ShuffleVectorInst) incValue(inst.maskValue);
          if (inst.attachments) for (const a of inst.attachments) if (a.kind !== 0) incMD(a.node);
        }
      }
    }
    for (const ops of m.namedMetadata.values()) for (const op of ops) if (op.mk === 'tuple' || op.mk === 'di') incMD(op);
    let next = 0;
    for (const s of structs) {
      if (s.literal) continue;
      if (s.name !== '') this.namedTypes.push(s);
      else this.numberedTypes.set(s, next++);
    }
  }

  private type(t: Type): string {
    let s = this.typeNames.get(t);
    if (s === undefined) {
      s = this.typeText(t);
      this.typeNames.set(t, s);
    }
    return s;
  }

  private typeText(t: Type): string {
    switch (t.kind) {
      case 'integer':
        return `i${t.bits}`;
      case 'float':
        return t.fp;
      case 'pointer':
        return t.addressSpace === 0 ? 'ptr' : `ptr addrspace(${t.addressSpace})`;
      case 'array':
        return `[${t.length} x ${this.type(t.element)}]`;
      case 'vector':
        return `<${t.scalable ? 'vscale x ' : ''}${t.length} x ${this.type(t.element)}>`;
      case 'function': {
        const params = t.params.map((p) => this.type(p));
        if (t.varArgs) params.push('...');
        return `${this.type(t.returnType)} (${params.join(', ')})`;
      }
      case 'struct': {
        if (t.literal) return this.structBody(t);
        if (t.name !== '') return formatName('%', t.name);
        const n = this.numberedTypes.get(t);
        return n === undefined ? '%"type <unnumbered>"' : `%${n}`;
      }
      case 'target': {
        const params = [JSON.stringify(t.name).replace(/^"|"$/g, '')];
        const inner = [`"${escapeString(t.name)}"`, ...t.typeParams.map((p) => this.type(p)), ...t.intParams.map(String)];
        void params;
        return `target(${inner.join(', ')})`;
      }
      default:
        return t.kind;
    }
  }

  private structBody(t: StructType): string {
    if (t.elements === undefined) return 'opaque';
    const body = t.elements.length === 0 ? '{}' : `{ ${t.elements.map((e) => this.type(e)).join(', ')} }`;
    return t.packed ? `<${body}>` : body;
  }

  private printTypeDefinitions(): void {
    if (this.numberedTypes.size === 0 && this.namedTypes.length === 0) return;
    this.w('\n');
    const numbered = [...this.numberedTypes.entries()].sort((a, b) => a[1] - b[1]);
    for (const [t, n] of numbered) this.w(`%${n} = type ${this.structBody(t)}\n`);
    for (const t of this.namedTypes) this.w(`${formatName('%', t.name)} = type ${this.structBody(t)}\n`);
  }

  // --- slots -------------------------------------------------------------------------------------

  private initializeSlots(): void {
    const m = this.m;
    let next = 0;
    for (const g of m.globals) {
      if (g.name === '') this.globalSlots.set(g, next++);
      for (const a of sortedAttachments(g.attachments)) this.mdSlot(a.node);
      if (g.attributes && !g.attributes.isEmpty) this.attrSlot(g.attributes);
    }
    for (const a of m.aliases) if (a.name === '') this.globalSlots.set(a, next++);
    for (const i of m.ifuncs) if (i.name === '') this.globalSlots.set(i, next++);
    for (const ops of m.namedMetadata.values()) for (const op of ops) this.mdSlot(op);
    for (const f of m.functions) {
      if (f.name === '') this.globalSlots.set(f, next++);
      if (!f.attributes.fn.isEmpty) this.attrSlot(f.attributes.fn);
    }
  }

  private mdSlot(n: Metadata): void {
    if (n.mk !== 'tuple' && n.mk !== 'di') return;
    if (this.mdSlots.has(n)) return;
    // iterative pre-order numbering (deep debug-info chains would overflow the stack)
    const stack: MDNode[] = [n];
    while (stack.length > 0) {
      const cur = stack.pop()!;
      if (this.mdSlots.has(cur)) continue;
      this.mdSlots.set(cur, this.mdNodes.length);
      this.mdNodes.push(cur);
      const children: MDNode[] = [];
      if (cur.mk === 'tuple') {
        for (const op of cur.operands) if (op !== null && (op.mk === 'tuple' || op.mk === 'di') && !this.mdSlots.has(op)) children.push(op);
      } else {
        for (const f of cur.fields.values()) if (f.k === 'md' && f.v !== null && (f.v.mk === 'tuple' || f.v.mk === 'di') && !this.mdSlots.has(f.v)) children.push(f.v);
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
    }
  }

  private attrSlot(set: AttributeSet): number {
    const key = set.key((t) => this.type(t));
    let n = this.attrSlots.get(key);
    if (n === undefined) {
      n = this.attrSets.length;
      this.attrSlots.set(key, n);
      this.attrSets.push(set);
    }
    return n;
  }

  /** SlotTracker::processFunction: metadata, local numbers and call-site attribute groups. */
  private incorporateFunction(f: IRFunction): void {
    for (const a of sortedAttachments(f.attachments)) this.mdSlot(a.node);
    for (const b of f.blocks) {
      for (const inst of b.instructions) {
        if (inst.debugRecords) for (const r of inst.debugRecords) this.debugRecordSlots(r);
        if (inst instanceof CallInst && inst.calledFunction?.isIntrinsic) {
          for (const op of inst.operands) if (op.vk === 'metadata') this.mdSlot(op.metadata);
        }
        if (inst.attachments) for (const a of sortedAttachments(inst.attachments)) this.mdSlot(a.node);
      }
    }
    const locals = new Map<Value, number>();
    let next = 0;
    for (const a of f.args) if (a.name === '') locals.set(a, next++);
    for (const b of f.blocks) {
      if (b.name === '') locals.set(b, next++);
      for (const inst of b.instructions) {
        if (inst.name === '' && inst.type.kind !== 'void') locals.set(inst, next++);
        if (inst instanceof CallInst && !inst.attributes.fn.isEmpty) this.attrSlot(inst.attributes.fn);
      }
    }
    this.localSlots = locals;
    // predecessors: terminator uses in reverse creation (textual) order
    const preds = new Map<BasicBlock, BasicBlock[]>();
    for (const b of f.blocks) {
      const term = b.instructions[b.instructions.length - 1];
      if (term === undefined || !term.isTerminator) continue;
      for (const op of term.operands) {
        if (op.vk !== 'block') continue;
        let list = preds.get(op);
        if (list === undefined) preds.set(op, (list = []));
        list.push(b);
      }
    }
    for (const list of preds.values()) list.reverse();
    this.preds = preds;
  }

  private debugRecordSlots(r: DebugRecord): void {
    // LLVM 19 order: location of an empty-metadata operand, variable, assign id, address, then the DILocation
    for (const op of r.operands) if (op !== null) this.mdSlot(op);
  }

  // --- global values -----------------------------------------------------------------------------

  private globalRef(g: GlobalValue): string {
    if (g.name !== '') return formatName('@', g.name);
    const n = this.globalSlots.get(g);
    return n === undefined ? '<badref>' : `@${n}`;
  }

  private dsoLocal(g: GlobalValue): string {
    return g.dsoLocal && !g.isImplicitDSOLocal() ? 'dso_local ' : '';
  }

  private commonPrefix(g: GlobalValue): string {
    let s = LINKAGE_PREFIX[g.linkage] ?? '';
    s += this.dsoLocal(g);
    if (g.visibility !== 'default') s += g.visibility + ' ';
    if (g.dllStorage !== 'none') s += g.dllStorage + ' ';
    return s;
  }

  private threadLocal(g: GlobalValue): string {
    switch (g.threadLocal) {
      case 'none':
        return '';
      case 'generaldynamic':
        return 'thread_local ';
      default:
        return `thread_local(${g.threadLocal}) `;
    }
  }

  private printComdats(): void {
    const comdats: Comdat[] = [];
    const seen = new Set<Comdat>();
    for (const f of this.m.functions) if (f.comdat && !seen.has(f.comdat)) (seen.add(f.comdat), comdats.push(f.comdat));
    for (const g of this.m.globals) if (g.comdat && !seen.has(g.comdat)) (seen.add(g.comdat), comdats.push(g.comdat));
    if (comdats.length === 0) return;
    this.w('\n');
    comdats.forEach((c, i) => {
      if (i > 0) this.w('\n');
      this.w(`${formatName('$', c.name)} = comdat ${c.selection}\n`);
    });
  }

  private comdatSuffix(g: GlobalVariable | IRFunction): string {
    const c = g.comdat;
    if (c === undefined) return '';
    const lead = g.vk === 'global' ? ', comdat' : ' comdat';
    return c.name === g.name ? lead : `${lead}(${formatName('$', c.name)})`;
  }

  private printGlobal(g: GlobalVariable): void {
    let s = `${this.globalRef(g)} = `;
    if (g.initializer === undefined && g.linkage === 'external') s += 'external ';
    s += this.commonPrefix(g);
    s += this.threadLocal(g);
    if (g.unnamedAddr !== 'none') s += g.unnamedAddr + ' ';
    if (g.addressSpace !== 0) s += `addrspace(${g.addressSpace}) `;
    if (g.externallyInitialized) s += 'externally_initialized ';
    s += g.isConstant ? 'constant ' : 'global ';
    s += this.type(g.valueType);
    if (g.initializer !== undefined) s += ' ' + this.operand(g.initializer);
    if (g.section !== '') s += `, section "${escapeString(g.section)}"`;
    if (g.partition !== '') s += `, partition "${escapeString(g.partition)}"`;
    if (g.codeModel !== undefined) s += `, code_model "${g.codeModel}"`;
    if (g.sanitizer) {
      if (g.sanitizer.noAddress) s += ', no_sanitize_address';
      if (g.sanitizer.noHWAddress) s += ', no_sanitize_hwaddress';
      if (g.sanitizer.memtag) s += ', sanitize_memtag';
      if (g.sanitizer.isDynInit) s += ', sanitize_address_dyninit';
    }
    s += this.comdatSuffix(g);
    if (g.align !== undefined) s += `, align ${g.align}`;
    s += this.attachmentsText(g.attachments, ', ');
    if (g.attributes && !g.attributes.isEmpty) s += ` #${this.attrSlot(g.attributes)}`;
    this.w(s);
  }

  private printAlias(a: GlobalAlias): void {
    let s = `${this.globalRef(a)} = ${this.commonPrefix(a)}${this.threadLocal(a)}`;
    if (a.unnamedAddr !== 'none') s += a.unnamedAddr + ' ';
    s += `alias ${this.type(a.valueType)}, `;
    s += a.aliasee.vk === 'expr' ? this.operand(a.aliasee) : this.typedOperand(a.aliasee);
    if (a.partition !== '') s += `, partition "${escapeString(a.partition)}"`;
    this.w(s + '\n');
  }

  private printIFunc(i: GlobalIFunc): void {
    let s = `${this.globalRef(i)} = ${LINKAGE_PREFIX[i.linkage] ?? ''}${this.dsoLocal(i)}`;
    if (i.visibility !== 'default') s += i.visibility + ' ';
    s += `ifunc ${this.type(i.valueType)}, ${this.typedOperand(i.resolver)}`;
    if (i.partition !== '') s += `, partition "${escapeString(i.partition)}"`;
    this.w(s + '\n');
  }

  private attachmentsText(list: readonly Attachment[] | null, sep: string): string {
    if (list === null || list.length === 0) return '';
    let s = '';
    const kinds = this.m.context.md.kinds;
    for (const a of sortedAttachments(list)) s += `${sep}!${metadataIdentifier(kinds.name(a.kind))} ${this.mdRef(a.node)}`;
    return s;
  }

  private attrSetText(set: AttributeSet, inGroup = false): string {
    const typeText = (t: Type): string => this.type(t);
    return set.attributes.map((a) => formatAttribute(a, typeText, inGroup)).join(' ');
  }

  private printFunction(f: IRFunction): void {
    this.currentFunction = f;
    const attrs = f.attributes;
    if (!attrs.fn.isEmpty) {
      const nonString = attrs.fn.attributes.filter((a) => a.kind !== 'string');
      if (nonString.length > 0) this.w(`; Function Attrs: ${nonString.map((a) => formatAttribute(a, (t) => this.type(t))).join(' ')}\n`);
    }
    this.incorporateFunction(f);
    let s: string;
    if (f.isDeclaration) s = 'declare' + this.attachmentsText(f.attachments, ' ') + ' ';
    else s = 'define ';
    s += this.commonPrefix(f);
    if (f.callingConv !== 'ccc') s += f.callingConv + ' ';
    if (!attrs.ret.isEmpty) s += this.attrSetText(attrs.ret) + ' ';
    s += this.type(f.returnType) + ' ' + this.globalRef(f) + '(';
    const params: string[] = [];
    if (f.isDeclaration) {
      f.functionType.params.forEach((t, i) => {
        const pa = attrs.param(i);
        params.push(pa.isEmpty ? this.type(t) : `${this.type(t)} ${this.attrSetText(pa)}`);
      });
    } else {
      f.args.forEach((a, i) => {
        const pa = attrs.param(i);
        let p = this.type(a.type);
        if (!pa.isEmpty) p += ' ' + this.attrSetText(pa);
        p += ' ' + (a.name !== '' ? formatName('%', a.name) : `%${this.localSlots.get(a) ?? '<badref>'}`);
        params.push(p);
      });
    }
    if (f.functionType.varArgs) params.push('...');
    s += params.join(', ') + ')';
    if (f.unnamedAddr !== 'none') s += ' ' + f.unnamedAddr;
    if (f.addressSpace !== 0 || this.m.layout.programAddressSpace !== 0) s += ` addrspace(${f.addressSpace})`;
    if (!attrs.fn.isEmpty) s += ` #${this.attrSlot(attrs.fn)}`;
    if (f.section !== '') s += ` section "${escapeString(f.section)}"`;
    if (f.partition !== '') s += ` partition "${escapeString(f.partition)}"`;
    s += this.comdatSuffix(f);
    if (f.align !== undefined) s += ` align ${f.align}`;
    if (f.gc !== '') s += ` gc "${f.gc}"`;
    if (f.prefix) s += ' prefix ' + this.typedOperand(f.prefix);
    if (f.prologue) s += ' prologue ' + this.typedOperand(f.prologue);
    if (f.personality) s += ' personality ' + this.typedOperand(f.personality);
    if (f.isDeclaration) {
      this.w(s + '\n');
    } else {
      s += this.attachmentsText(f.attachments, ' ');
      this.w(s + ' {');
      f.blocks.forEach((b, i) => this.printBlock(b, i === 0));
      this.w('}\n');
    }
    this.currentFunction = undefined;
  }

  private printBlock(b: BasicBlock, isEntry: boolean): void {
    let label = '';
    if (b.name !== '') label = `\n${formatName('', b.name)}:`;
    else if (!isEntry) label = `\n${this.localSlots.get(b) ?? '<badref>'}:`;
    this.w(label);
    if (!isEntry) {
      const column = label.length - 1;
      const pad = Math.max(50 - column, 1);
      const preds = this.preds.get(b);
      this.w(' '.repeat(pad) + ';');
      if (preds === undefined || preds.length === 0) this.w(' No predecessors!');
      else this.w(' preds = ' + preds.map((p) => this.localRef(p)).join(', '));
    }
    this.w('\n');
    const insts = b.instructions;
    for (let i = 0; i < insts.length; i++) {
      const inst = insts[i]!;
      if (inst.debugRecords) for (const r of inst.debugRecords) this.w(`    ${this.debugRecordText(r)}\n`);
      this.buf += this.instructionText(inst) + '\n';
    }
  }

  private debugRecordText(r: DebugRecord): string {
    const ops = r.operands.map((op) => (op === null ? 'null' : this.metadataOperand(op)));
    return `#dbg_${r.kind}(${ops.join(', ')})`;
  }

  // --- instructions ------------------------------------------------------------------------------

  private localRef(v: Value): string {
    if ((v as { name?: string }).name) return formatName('%', (v as { name: string }).name);
    const n = this.localSlots.get(v);
    return n === undefined ? '<badref>' : `%${n}`;
  }

  private instructionText(inst: Instruction): string {
    let s = '  ';
    if (inst.name !== '') s += formatName('%', inst.name) + ' = ';
    else if (inst.type.kind !== 'void') s += `%${this.localSlots.get(inst) ?? '<badref>'} = `;
    const op = inst.opcode;
    const flags = inst.flags;
    if (op === 'call') {
      if (flags & Flag.MUSTTAIL) s += 'musttail ';
      else if (flags & Flag.TAIL) s += 'tail ';
      else if (flags & Flag.NOTAIL) s += 'notail ';
    }
    s += op;
    if (inst instanceof MemoryInst) {
      if ((op === 'load' || op === 'store') && flags & Flag.ATOMIC) s += ' atomic';
      if (op === 'cmpxchg' && flags & Flag.WEAK) s += ' weak';
      if (flags & Flag.VOLATILE) s += ' volatile';
    }
    s += optimizationFlags(op, flags);
    if (inst instanceof CmpInst) s += ' ' + inst.predicate;
    if (inst instanceof MemoryInst && op === 'atomicrmw') s += ' ' + inst.rmwOperation;
    const ops = inst.operands;
    switch (op) {
      case 'br':
        if (ops.length === 3) s += ` ${this.typedOperand(ops[0]!)}, ${this.typedOperand(ops[1]!)}, ${this.typedOperand(ops[2]!)}`;
        else s += ` ${this.typedOperand(ops[0]!)}`;
        break;
      case 'switch': {
        s += ` ${this.typedOperand(ops[0]!)}, ${this.typedOperand(ops[1]!)} [`;
        for (let i = 2; i < ops.length; i += 2) s += `\n    ${this.typedOperand(ops[i]!)}, ${this.typedOperand(ops[i + 1]!)}`;
        s += '\n  ]';
        break;
      }
      case 'indirectbr':
        s += ` ${this.typedOperand(ops[0]!)}, [${ops.slice(1).map((o) => this.typedOperand(o)).join(', ')}]`;
        break;
      case 'phi': {
        s += ` ${this.type(inst.type)} `;
        const parts: string[] = [];
        for (let i = 0; i < ops.length; i += 2) parts.push(`[ ${this.operand(ops[i]!)}, ${this.operand(ops[i + 1]!)} ]`);
        s += parts.join(', ');
        break;
      }
      case 'extractvalue':
      case 'insertvalue': {
        s += ' ' + ops.map((o) => this.typedOperand(o)).join(', ');
        for (const i of (inst as AggregateInst).indices) s += `, ${i}`;
        break;
      }
      case 'landingpad': {
        const lp = inst as LandingPadInst;
        s += ' ' + this.type(inst.type);
        const cleanup = (flags & Flag.CLEANUP) !== 0;
        if (cleanup || ops.length > 0) s += '\n';
        if (cleanup) s += '          cleanup';
        ops.forEach((c, i) => {
          if (i !== 0 || cleanup) s += '\n';
          s += `          ${lp.clauseKinds[i]} ${this.typedOperand(c)}`;
        });
        break;
      }
      case 'catchswitch': {
        const cs = inst as CatchSwitchInst;
        s += ` within ${this.operand(ops[0]!)} [`;
        s += ops.slice(1, 1 + cs.handlerCount).map((o) => this.typedOperand(o)).join(', ');
        s += '] unwind ';
        s += cs.hasUnwindDest ? this.typedOperand(ops[ops.length - 1]!) : 'to caller';
        break;
      }
      case 'catchpad':
      case 'cleanuppad':
        s += ` within ${this.operand(ops[0]!)} [${ops.slice(1).map((o) => this.typedOperand(o)).join(', ')}]`;
        break;
      case 'catchret':
        s += ` from ${this.operand(ops[0]!)} to ${this.typedOperand(ops[1]!)}`;
        break;
      case 'cleanupret':
        s += ` from ${this.operand(ops[0]!)} unwind ${ops.length > 1 ? this.typedOperand(ops[1]!) : 'to caller'}`;
        break;
      case 'ret':
        s += ops.length === 0 ? ' void' : ' ' + this.typedOperand(ops[0]!);
        break;
      case 'call':
      case 'invoke':
      case 'callbr':
        s += this.callText(inst as CallInst);
        break;
      case 'alloca': {
        const a = inst as AllocaInst;
        s += ' ';
        if (flags & Flag.INALLOCA) s += 'inalloca ';
        if (flags & Flag.SWIFTERROR) s += 'swifterror ';
        s += this.type(a.allocatedType);
        const size = ops[0]!;
        const isOne = size.vk === 'int' && size.value === 1;
        if (!isOne || size.type.kind !== 'integer' || size.type.bits !== 32) s += ', ' + this.typedOperand(size);
        if (a.align !== undefined) s += `, align ${a.align}`;
        if (a.addressSpace !== 0) s += `, addrspace(${a.addressSpace})`;
        break;
      }
      case 'va_arg':
        s += ` ${this.typedOperand(ops[0]!)}, ${this.type(inst.type)}`;
        break;
      case 'shufflevector': {
        s += ` ${this.typedOperand(ops[0]!)}, ${this.typedOperand(ops[1]!)}`;
        s += this.shuffleMaskText(inst.type, (inst as ShuffleVectorInst).mask);
        break;
      }
      default: {
        if (CAST_OPCODES.has(op)) {
          s += ` ${this.typedOperand(ops[0]!)} to ${this.type(inst.type)}`;
          break;
        }
        if (ops.length === 0) break;
        if (inst instanceof GetElementPtrInst) s += ` ${this.type(inst.sourceElementType)},`;
        else if (op === 'load') s += ` ${this.type(inst.type)},`;
        let printAll = op === 'select' || op === 'store' || op === 'cmpxchg' || op === 'atomicrmw';
        if (!printAll) {
          const t0 = ops[0]!.type;
          for (let i = 1; i < ops.length; i++) if (ops[i]!.type !== t0) printAll = true;
        }
        if (!printAll) s += ' ' + this.type(ops[0]!.type);
        s += ' ' + ops.map((o) => (printAll ? this.typedOperand(o) : this.operand(o))).join(', ');
      }
    }
    if (inst instanceof MemoryInst) {
      const scope = inst.syncScope !== '' ? ` syncscope("${escapeString(inst.syncScope)}")` : '';
      if (op === 'load' || op === 'store') {
        if (flags & Flag.ATOMIC) s += `${scope} ${inst.ordering}`;
        if (inst.align !== undefined) s += `, align ${inst.align}`;
      } else if (op === 'cmpxchg') {
        s += `${scope} ${inst.ordering} ${inst.failureOrdering}, align ${inst.align}`;
      } else if (op === 'atomicrmw') {
        s += `${scope} ${inst.ordering}, align ${inst.align}`;
      } else if (op === 'fence') {
        s += `${scope} ${inst.ordering}`;
      }
    }
    s += this.attachmentsText(inst.attachments, ', ');
    return s;
  }

  private shuffleMaskText(t: Type, mask: readonly number[]): string {
    const n = mask.length;
    const scalable = t.kind === 'vector' && t.scalable;
    const maskType = `<${scalable ? 'vscale x ' : ''}${n} x i32>`;
    if (mask.every((m) => m === 0)) return `, ${maskType} zeroinitializer`;
    // LLVM 16 spells undefined lanes `undef` (LLVM 17+ says `poison`)
    if (mask.every((m) => m === -1)) return `, ${maskType} undef`;
    return `, ${maskType} <${mask.map((m) => (m === -1 ? 'i32 undef' : `i32 ${m}`)).join(', ')}>`;
  }

  private callText(c: CallInst): string {
    let s = '';
    if (c.callingConv !== 'ccc') s += ' ' + c.callingConv;
    const attrs = c.attributes;
    if (!attrs.ret.isEmpty) s += ' ' + this.attrSetText(attrs.ret);
    const callee = c.callee;
    const fnType = c.functionType;
    // addrspace(N) only when it differs from what the parser would assume
    const calleeAS = callee.type.kind === 'pointer' ? callee.type.addressSpace : 0;
    const programAS = this.m.layout.programAddressSpace;
    if (callee.vk !== 'function' ? calleeAS !== programAS : callee.addressSpace !== programAS) s += ` addrspace(${calleeAS})`;
    s += ' ' + this.type(fnType.varArgs ? fnType : fnType.returnType) + ' ' + this.operand(callee) + '(';
    const n = c.argCount;
    const args: string[] = [];
    for (let i = 0; i < n; i++) {
      const a = c.arg(i);
      const pa = attrs.param(i);
      args.push(pa.isEmpty ? `${this.type(a.type)} ${this.operand(a)}` : `${this.type(a.type)} ${this.attrSetText(pa)} ${this.operand(a)}`);
    }
    if (c.opcode === 'call' && c.flags & Flag.MUSTTAIL && this.currentFunction?.functionType.varArgs) args.push('...');
    s += args.join(', ') + ')';
    if (!attrs.fn.isEmpty) s += ` #${this.attrSlot(attrs.fn)}`;
    if (c.bundles.length > 0) {
      const bundles = c.bundles.map((b) => `"${escapeString(b.tag)}"(${b.inputs.map((v) => this.typedOperand(v)).join(', ')})`);
      s += ` [ ${bundles.join(', ')} ]`;
    }
    const ops = c.operands;
    if (c.opcode === 'invoke') {
      s += `\n          to ${this.typedOperand(ops[ops.length - 2]!)} unwind ${this.typedOperand(ops[ops.length - 1]!)}`;
    } else if (c.opcode === 'callbr') {
      const indirect = ops.slice(ops.length - c.indirectDestCount);
      const def = ops[ops.length - c.indirectDestCount - 1]!;
      s += `\n          to ${this.typedOperand(def)} [${indirect.map((o) => this.typedOperand(o)).join(', ')}]`;
    }
    return s;
  }

  // --- operands and constants --------------------------------------------------------------------

  private typedOperand(v: Value): string {
    return `${this.type(v.type)} ${this.operand(v)}`;
  }

  /** `WriteAsOperandInternal` for values. */
  private operand(v: Value): string {
    switch (v.vk) {
      case 'global':
      case 'function':
      case 'alias':
      case 'ifunc':
        return this.globalRef(v);
      case 'argument':
      case 'block':
      case 'instruction':
        return this.localRef(v);
      case 'metadata':
        return this.metadataOperand(v.metadata);
      case 'asm': {
        let s = 'asm ';
        if (v.flags.sideEffect) s += 'sideeffect ';
        if (v.flags.alignStack) s += 'alignstack ';
        if (v.flags.intelDialect) s += 'inteldialect ';
        if (v.flags.canThrow) s += 'unwind ';
        return `${s}"${escapeString(v.asm)}", "${escapeString(v.constraints)}"`;
      }
      default:
        return this.constant(v);
    }
  }

  private constant(c: Constant): string {
    switch (c.vk) {
      case 'int':
        return c.type.bits === 1 ? (c.value === 0 ? 'false' : 'true') : String(c.value);
      case 'fp':
        return formatFP((c.type as { fp: import('./types.js').FloatKind }).fp, c.bits);
      case 'null':
        return 'null';
      case 'zero':
        return 'zeroinitializer';
      case 'undef':
        return 'undef';
      case 'poison':
        return 'poison';
      case 'none':
        return c.type.kind === 'target' ? 'zeroinitializer' : 'none';
      case 'string':
        return `c"${escapeString(c.bytes)}"`;
      case 'array': {
        const et = this.type((c.type as { element: Type }).element);
        return `[${c.elements.map((e) => `${et} ${this.operand(e)}`).join(', ')}]`;
      }
      case 'vector': {
        const et = this.type((c.type as { element: Type }).element);
        return `<${c.elements.map((e) => `${et} ${this.operand(e)}`).join(', ')}>`;
      }
      case 'struct': {
        const packed = c.type.kind === 'struct' && c.type.packed;
        const body = c.fields.length === 0 ? '{}' : `{ ${c.fields.map((f) => this.typedOperand(f)).join(', ')} }`;
        return packed ? `<${body}>` : body;
      }
      case 'blockaddress': {
        const fn = c.fn;
        const block = c.block;
        let blockText: string;
        if (typeof block === 'string') blockText = '<badref>';
        else if (block.name !== '') blockText = formatName('%', block.name);
        else {
          const slots = this.functionLocalSlots(block.parent);
          blockText = `%${slots.get(block) ?? '<badref>'}`;
        }
        return `blockaddress(${this.operand(fn)}, ${blockText})`;
      }
      case 'dso_local_equivalent':
        return `dso_local_equivalent ${this.operand(c.global)}`;
      case 'no_cfi':
        return `no_cfi ${this.operand(c.global)}`;
      case 'expr': {
        const e = c.extra;
        let s = c.opcode;
        if (e.flags) for (const f of e.flags) s += ' ' + f;
        if (e.inRange) s += ` inrange(${e.inRange[0]}, ${e.inRange[1]})`;
        if (e.predicate) s += ' ' + e.predicate;
        s += ' (';
        if (e.sourceElementType) s += this.type(e.sourceElementType) + ', ';
        s += c.operands.map((o, i) => (e.inRangeOperand === i ? 'inrange ' : '') + this.typedOperand(o)).join(', ');
        if (CAST_OPCODES.has(c.opcode)) s += ' to ' + this.type(c.type);
        if (c.opcode === 'shufflevector' && e.mask) s += this.shuffleMaskText(c.type, e.mask);
        if (e.indices) s += e.indices.map((i) => `, ${i}`).join('');
        return s + ')';
      }
      default:
        return this.globalRef(c);
    }
  }

  private functionLocalSlots(f: IRFunction): Map<Value, number> {
    if (f === this.currentFunction) return this.localSlots;
    const locals = new Map<Value, number>();
    let next = 0;
    for (const a of f.args) if (a.name === '') locals.set(a, next++);
    for (const b of f.blocks) {
      if (b.name === '') locals.set(b, next++);
      for (const inst of b.instructions) if (inst.name === '' && inst.type.kind !== 'void') locals.set(inst, next++);
    }
    return locals;
  }

  // --- metadata ----------------------------------------------------------------------------------

  private mdRef(n: Metadata): string {
    if (n.mk === 'expr') return this.expressionText(n);
    if (n.mk === 'tuple' || n.mk === 'di') {
      const slot = this.mdSlots.get(n);
      if (slot === undefined) return n.mk === 'di' && n.className === 'DILocation' ? this.mdBody(n) : '<badref>';
      return `!${slot}`;
    }
    return this.metadataOperand(n);
  }

  /** Metadata written as an operand (`WriteAsOperandInternal` for metadata). */
  private metadataOperand(md: Metadata): string {
    switch (md.mk) {
      case 'expr':
        return this.expressionText(md);
      case 'arglist':
        return `!DIArgList(${md.args.map((a) => this.typedOperand(a.value)).join(', ')})`;
      case 'string':
        return `!"${escapeString(md.value)}"`;
      case 'value':
        return this.typedOperand(md.value);
      default:
        return this.mdRef(md);
    }
  }

  private expressionText(e: DIExpression): string {
    return `!DIExpression(${e.elements.map(String).join(', ')})`;
  }

  private mdBody(n: MDNode): string {
    const prefix = n.distinct ? 'distinct ' : '';
    if (n.mk === 'tuple') {
      const ops = n.operands.map((op) => (op === null ? 'null' : op.mk === 'value' ? this.typedOperand(op.value) : this.metadataOperand(op)));
      return `${prefix}!{${ops.join(', ')}}`;
    }
    return prefix + printDINode(n, (md) => (md === null ? 'null' : this.metadataOperand(md)));
  }
}

const CAST_OPCODES: ReadonlySet<string> = new Set([
  'trunc', 'zext', 'sext', 'fptoui', 'fptosi', 'uitofp', 'sitofp', 'fptrunc', 'fpext', 'ptrtoint', 'inttoptr', 'bitcast', 'addrspacecast',
]);

/** `WriteOptimizationInfo`: fast-math flags, nuw/nsw, exact, inbounds, disjoint, nneg. */
function optimizationFlags(op: string, flags: number): string {
  if (flags === 0) return '';
  let s = '';
  const fmf = flags & FAST_MATH_MASK;
  if (fmf !== 0) {
    if (fmf === FAST_MATH_MASK) s += ' fast';
    else {
      if (fmf & Flag.REASSOC) s += ' reassoc';
      if (fmf & Flag.NNAN) s += ' nnan';
      if (fmf & Flag.NINF) s += ' ninf';
      if (fmf & Flag.NSZ) s += ' nsz';
      if (fmf & Flag.ARCP) s += ' arcp';
      if (fmf & Flag.CONTRACT) s += ' contract';
      if (fmf & Flag.AFN) s += ' afn';
    }
  }
  if (op === 'getelementptr') {
    if (flags & Flag.INBOUNDS) s += ' inbounds';
    else if (flags & Flag.NUSW) s += ' nusw';
    if (flags & Flag.NUW) s += ' nuw';
    return s;
  }
  if (flags & Flag.DISJOINT) s += ' disjoint';
  if (flags & Flag.NNEG) s += ' nneg';
  if (flags & Flag.NUW) s += ' nuw';
  if (flags & Flag.NSW) s += ' nsw';
  if (flags & Flag.EXACT) s += ' exact';
  if (flags & Flag.SAMESIGN) s += ' samesign';
  return s;
}

/** Attachments sorted by kind id (LLVM's `getAllMetadata` order). */
function sortedAttachments(list: readonly Attachment[] | null): readonly Attachment[] {
  if (list === null || list.length < 2) return list ?? [];
  for (let i = 1; i < list.length; i++) if (list[i - 1]!.kind > list[i]!.kind) return [...list].sort((a, b) => a.kind - b.kind);
  return list;
}

function isConstantValue(v: Value): boolean {
  switch (v.vk) {
    case 'argument':
    case 'block':
    case 'instruction':
    case 'asm':
    case 'metadata':
      return false;
    default:
      return true;
  }
}

function constantOperands(c: Value): readonly Value[] {
  switch (c.vk) {
    case 'array':
    case 'vector':
      return c.elements;
    case 'struct':
      return c.fields;
    case 'expr':
      return c.operands;
    case 'blockaddress':
      return [c.fn];
    case 'dso_local_equivalent':
    case 'no_cfi':
      return [c.global];
    default:
      return [];
  }
}
