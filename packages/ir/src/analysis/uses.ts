/**
 * Who uses each global value: one {@link forEachReference} walk of the module, looking through
 * constant expressions and aggregates. Metadata references are recorded apart: in LLVM they are
 * not uses (deleting a global turns them into `null`).
 */
import { CallInst, type Instruction } from '../model/instructions.js';
import type { Metadata, MDNode } from '../model/metadata.js';
import type { Module } from '../model/module.js';
import type { Constant, GlobalValue, IRFunction, Value } from '../model/values.js';
import { forEachOperand } from '../transforms/mapper.js';
import { forEachReference } from './references.js';

/** An instruction, or the global whose initializer / aliasee / resolver / personality holds the use. */
export type GlobalUser = Instruction | GlobalValue;

export interface UsesOptions {
  /**
   * Uses in the initializers of `@llvm.used` and `@llvm.compiler.used` do not make a function
   * address-taken (LLVM's `hasAddressTaken(IgnoreLLVMUsed)`); they are still users.
   */
  readonly ignoreLLVMUsed?: boolean;
}

/** Operands of a constant (aggregate elements, expression operands, referenced globals). */
export function constantOperands(c: Value): readonly Value[] {
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

const NO_GLOBALS: readonly GlobalValue[] = [];

/**
 * Global values referenced by constants, memoized per constant object (constants are immutable,
 * so the answer never changes). Each result lists a global once, in first-reference order.
 */
export class ConstantGlobals {
  private readonly memo = new Map<Constant, readonly GlobalValue[]>();

  of(c: Value): readonly GlobalValue[] {
    switch (c.vk) {
      case 'global':
      case 'function':
      case 'alias':
      case 'ifunc':
        return [c];
      case 'array':
      case 'vector':
      case 'struct':
      case 'expr':
      case 'blockaddress':
      case 'dso_local_equivalent':
      case 'no_cfi':
        break;
      default:
        return NO_GLOBALS;
    }
    let found = this.memo.get(c);
    if (found !== undefined) return found;
    let list: GlobalValue[] | undefined;
    let seen: Set<GlobalValue> | undefined;
    for (const op of constantOperands(c)) {
      for (const g of this.of(op)) {
        if (list === undefined) {
          list = [g];
          continue;
        }
        seen ??= new Set(list);
        if (!seen.has(g)) {
          seen.add(g);
          list.push(g);
        }
      }
    }
    found = list ?? NO_GLOBALS;
    this.memo.set(c, found);
    return found;
  }

  /** Calls `visit` for each global `of(c)` lists, without a list for a value that is a global itself. */
  forEach(c: Value, visit: (global: GlobalValue) => void): void {
    switch (c.vk) {
      case 'global':
      case 'function':
      case 'alias':
      case 'ifunc':
        visit(c);
        return;
      default:
        for (const g of this.of(c)) visit(g);
    }
  }
}

/** The result of {@link computeUses}. */
export class GlobalUses {
  /** @internal */ constructor(
    private readonly usersByValue: ReadonlyMap<GlobalValue, readonly GlobalUser[]>,
    private readonly metadataUsed: ReadonlySet<GlobalValue>,
    private readonly addressTaken: ReadonlySet<IRFunction>,
    private readonly module: Module,
  ) {}

  /** Distinct users of `gv`, in module walk order (variables, aliases, ifuncs, then functions in order). */
  users(gv: GlobalValue): readonly GlobalUser[] {
    return this.usersByValue.get(gv) ?? [];
  }

  /** Whether anything but metadata refers to `gv`. */
  isUsed(gv: GlobalValue): boolean {
    return this.usersByValue.has(gv);
  }

  /**
   * Distinct global values whose definitions refer to `gv`: the functions containing the
   * instruction users and the globals whose initializer, aliasee, resolver or personality does.
   */
  containingGlobals(gv: GlobalValue): GlobalValue[] {
    const out: GlobalValue[] = [];
    const seen = new Set<GlobalValue>();
    for (const u of this.users(gv)) {
      const owner = u.vk === 'instruction' ? u.function : u;
      if (owner !== undefined && !seen.has(owner)) {
        seen.add(owner);
        out.push(owner);
      }
    }
    return out;
  }

  /** Whether some metadata (named metadata, attachments, metadata operands) refers to `gv`. */
  isUsedInMetadata(gv: GlobalValue): boolean {
    return this.metadataUsed.has(gv);
  }

  /** LLVM's `hasAddressTaken`: used other than as the callee of a call with its own function type. */
  isAddressTaken(fn: IRFunction): boolean {
    return this.addressTaken.has(fn);
  }

  /** Address-taken functions in module order. */
  addressTakenFunctions(): IRFunction[] {
    return this.module.functions.filter((f) => this.addressTaken.has(f));
  }
}

/** Computes users, metadata references and address-taken functions in one walk of `m`. */
export function computeUses(m: Module, options: UsesOptions = {}): GlobalUses {
  const users = new Map<GlobalValue, GlobalUser[]>();
  const addressTaken = new Set<IRFunction>();
  const inConstants = new ConstantGlobals();
  const addUse = (gv: GlobalValue, user: GlobalUser): void => {
    const list = users.get(gv);
    if (list === undefined) users.set(gv, [user]);
    else if (list[list.length - 1] !== user) list.push(user);
  };
  /** A use of the globals `v` mentions by `user`; `countsAsAddress`: they are address-taken. */
  const use = (v: Value, user: GlobalUser, countsAsAddress: boolean): void => {
    for (const g of inConstants.of(v)) {
      addUse(g, user);
      if (countsAsAddress && g.vk === 'function') addressTaken.add(g);
    }
  };
  const ignoreUsed = options.ignoreLLVMUsed ?? false;
  forEachReference(m, (value, holder, operand) => {
    if (operand === 0 && value.vk === 'function' && holder instanceof CallInst) {
      // the callee of a call: a use, and an address taken only through a mismatched type
      addUse(value, holder);
      if (value.functionType !== holder.functionType) addressTaken.add(value);
      return;
    }
    use(value, holder, !(ignoreUsed && holder.vk === 'global' && (holder.name === 'llvm.used' || holder.name === 'llvm.compiler.used')));
  });
  return new GlobalUses(users, globalsInMetadata(m), addressTaken, m);
}

/** Globals referenced from metadata anywhere in the module (nodes are visited once). */
export function globalsInMetadata(m: Module): Set<GlobalValue> {
  const found = new Set<GlobalValue>();
  const visited = new Set<Metadata>();
  const inConstants = new ConstantGlobals();
  const stack: Metadata[] = [];
  const push = (md: Metadata | null): void => {
    if (md !== null && !visited.has(md)) {
      visited.add(md);
      stack.push(md);
    }
  };
  const drain = (): void => {
    while (stack.length > 0) {
      const md = stack.pop()!;
      switch (md.mk) {
        case 'value':
          for (const g of inConstants.of(md.value)) found.add(g);
          break;
        case 'arglist':
          for (const a of md.args) push(a);
          break;
        case 'tuple':
        case 'di':
          forEachOperand(md as MDNode, push);
          break;
        default:
          break;
      }
    }
  };
  for (const ops of m.namedMetadata.values()) for (const n of ops) push(n);
  for (const g of m.globals) for (const a of g.attachments) push(a.node);
  for (const f of m.functions) {
    for (const a of f.attachments) push(a.node);
    for (const b of f.blocks) {
      for (const inst of b.instructions) {
        if (inst.attachments) for (const a of inst.attachments) push(a.node);
        for (const op of inst.operands) if (op.vk === 'metadata') push(op.metadata);
        if (inst.debugRecords) for (const r of inst.debugRecords) for (const op of r.operands) push(op);
      }
    }
  }
  drain();
  return found;
}
