/**
 * Global variables, aliases and ifuncs, and the linkage/visibility words they share with functions.
 */
import { isAttributeKeyword } from '../model/attributes.js';
import { isSized, type Type } from '../model/types.js';
import {
  GlobalAlias,
  GlobalIFunc,
  GlobalVariable,
  type Comdat,
  type Constant,
  type GlobalValue,
  type Linkage,
} from '../model/values.js';
import { Tok } from './lexer.js';
import { ForwardGlobal, typeString } from './parser-state.js';
import { isValidGlobalValueType } from './parse-types.js';
import { InstructionParser } from './parse-instructions.js';

const LINKAGES = new Set<string>([
  'private', 'internal', 'available_externally', 'linkonce', 'weak', 'common', 'appending', 'extern_weak',
  'linkonce_odr', 'weak_odr', 'external',
]);

export abstract class GlobalParser extends InstructionParser {
  protected parseOptionalLinkage(): { linkage: Linkage | undefined; dsoLocal: boolean; visibility: 'default' | 'hidden' | 'protected'; dll: 'none' | 'dllimport' | 'dllexport' } {
    let linkage: Linkage | undefined;
    if (this.t() === Tok.Ident && LINKAGES.has(this.lex.text)) {
      linkage = this.lex.text as Linkage;
      this.next();
    }
    let dsoLocal = false;
    if (this.eatIdent('dso_local')) dsoLocal = true;
    else this.eatIdent('dso_preemptable');
    let visibility: 'default' | 'hidden' | 'protected' = 'default';
    if (this.t() === Tok.Ident && (this.lex.text === 'default' || this.lex.text === 'hidden' || this.lex.text === 'protected')) {
      visibility = this.lex.text as typeof visibility;
      this.next();
    }
    let dll: 'none' | 'dllimport' | 'dllexport' = 'none';
    if (this.t() === Tok.Ident && (this.lex.text === 'dllimport' || this.lex.text === 'dllexport')) {
      dll = this.lex.text as typeof dll;
      this.next();
    }
    return { linkage, dsoLocal, visibility, dll };
  }

  protected parseThreadLocal(): 'none' | 'localdynamic' | 'initialexec' | 'localexec' | 'generaldynamic' {
    if (!this.eatIdent('thread_local')) return 'none';
    if (!this.eat(Tok.LParen)) return 'generaldynamic';
    if (this.t() !== Tok.Ident || !['localdynamic', 'initialexec', 'localexec'].includes(this.lex.text)) throw this.error('expected localdynamic, initialexec or localexec');
    const mode = this.lex.text as 'localdynamic' | 'initialexec' | 'localexec';
    this.next();
    this.expect(Tok.RParen, "expected ')' after thread local model");
    return mode;
  }

  protected parseUnnamedAddr(): 'none' | 'unnamed_addr' | 'local_unnamed_addr' {
    if (this.eatIdent('unnamed_addr')) return 'unnamed_addr';
    if (this.eatIdent('local_unnamed_addr')) return 'local_unnamed_addr';
    return 'none';
  }

  protected parseGlobalEntity(): void {
    const loc = this.lex.start;
    const named = this.t() === Tok.GlobalVar;
    const name = named ? this.lex.text : '';
    const id = named ? -1 : this.lex.num;
    this.next();
    this.expect(Tok.Equal, "expected '=' in global variable");
    if (!named && id !== this.numberedGlobals.length) throw this.error(`variable expected to be numbered '@${this.numberedGlobals.length}'`, loc);
    const { linkage, dsoLocal, visibility, dll } = this.parseOptionalLinkage();
    const threadLocal = this.parseThreadLocal();
    const unnamedAddr = this.parseUnnamedAddr();
    if (this.isIdent('alias') || this.isIdent('ifunc')) {
      const isAlias = this.lex.text === 'alias';
      this.next();
      const valueTypeLoc = this.lex.start;
      const valueType = this.parseType();
      this.expect(Tok.Comma, "expected comma after alias or ifunc's type");
      const aliaseeLoc = this.lex.start;
      const aliaseeType = this.parseType();
      const aliasee = this.parseConstantValue(aliaseeType);
      let ptrType = aliaseeType.kind === 'pointer' ? aliaseeType : this.ctx.ptr(0);
      if (this.typed) {
        if (aliaseeType.kind !== 'pointer') throw this.error('An alias or ifunc must have pointer type', aliaseeLoc);
        const pointee = aliaseeType.pointee!;
        if (isAlias && pointee !== valueType)
          throw this.error(`explicit pointee type doesn't match operand's pointee type (${typeString(valueType)} vs ${typeString(pointee)})`, valueTypeLoc);
        if (!isAlias && pointee.kind !== 'function') throw this.error('explicit pointee type should be a function type', valueTypeLoc);
        ptrType = this.ctx.typedPtr(valueType, aliaseeType.addressSpace);
      }
      if (named && this.m.getGlobalValue(name) !== undefined) throw this.error(`redefinition of global '@${name}'`, loc);
      const gv = isAlias ? new GlobalAlias(name, valueType, ptrType, aliasee as Constant) : new GlobalIFunc(name, valueType, ptrType, aliasee as Constant);
      gv.linkage = linkage ?? 'external';
      gv.dsoLocal = dsoLocal || gv.isImplicitDSOLocal();
      gv.visibility = visibility;
      gv.dllStorage = dll;
      gv.threadLocal = threadLocal;
      gv.unnamedAddr = unnamedAddr;
      while (this.eat(Tok.Comma)) {
        if (this.eatIdent('partition')) gv.partition = this.expectString();
        else throw this.error('unknown alias or ifunc property!');
      }
      if (gv instanceof GlobalAlias) this.m.addAlias(gv);
      else this.m.addIFunc(gv);
      this.defineGlobal(gv, named, loc);
      return;
    }
    const addressSpace = this.isIdent('addrspace') ? this.parseAddrSpace() : this.m.layout.globalsAddressSpace;
    const externallyInitialized = this.eatIdent('externally_initialized');
    let isConstant: boolean;
    if (this.eatIdent('constant')) isConstant = true;
    else if (this.eatIdent('global')) isConstant = false;
    else throw this.error("expected 'global' or 'constant'");
    const typeLoc = this.lex.start;
    const valueType = this.parseType();
    // checked once the global's kind and type are read, as LLVM does
    if (named && this.m.getGlobalValue(name) !== undefined) throw this.error(`redefinition of global '@${name}'`, loc);
    const gv = new GlobalVariable(name, valueType, this.pointerTo(valueType, addressSpace));
    gv.linkage = linkage ?? 'external';
    gv.visibility = visibility;
    gv.dllStorage = dll;
    gv.threadLocal = threadLocal;
    gv.unnamedAddr = unnamedAddr;
    gv.isConstant = isConstant;
    gv.externallyInitialized = externallyInitialized;
    gv.dsoLocal = dsoLocal || gv.isImplicitDSOLocal();
    this.m.addGlobalVariable(gv);
    this.defineGlobal(gv, named, loc);
    if (linkage === undefined || (linkage !== 'extern_weak' && linkage !== 'external')) {
      // an opaque type takes zeroinitializer, as in LLVM; a type that holds itself has no value
      // at all (LLVM 16 crashes on one)
      if (!isSized(valueType) && containsItself(valueType)) throw this.error('global variable with a recursive type cannot have an initializer');
      gv.initializer = this.parseConstantValue(valueType) as Constant;
    }
    if (!isValidGlobalValueType(valueType)) throw this.error('invalid type for global variable', typeLoc);
    while (this.eat(Tok.Comma)) {
      if (this.isIdent('section')) {
        this.next();
        gv.section = this.expectString();
      } else if (this.isIdent('partition')) {
        this.next();
        gv.partition = this.expectString();
      } else if (this.isIdent('align')) {
        this.next();
        gv.align = this.parseAlignValue();
      } else if (this.isIdent('comdat')) {
        gv.comdat = this.parseComdatRef(gv.name);
      } else if (this.isIdent('code_model')) {
        this.next();
        gv.codeModel = this.expectString();
      } else if (this.t() === Tok.Ident && ['no_sanitize_address', 'no_sanitize_hwaddress', 'sanitize_memtag', 'sanitize_address_dyninit'].includes(this.lex.text)) {
        const f = (gv.sanitizer ??= {});
        const w = this.lex.text;
        if (w === 'no_sanitize_address') f.noAddress = true;
        else if (w === 'no_sanitize_hwaddress') f.noHWAddress = true;
        else if (w === 'sanitize_memtag') f.memtag = true;
        else f.isDynInit = true;
        this.next();
      } else if (this.t() === Tok.MetadataVar) {
        this.parseAttachment(gv.attachments);
      } else throw this.error('unknown global variable property!');
    }
    // attributes as in a function header; LLVM keeps an `align` among them as an attribute
    if (this.t() === Tok.AttrGrpID || (this.t() === Tok.String && this.peek() === Tok.Equal) || (this.t() === Tok.Ident && isAttributeKeyword(this.lex.text))) {
      const attrLoc = this.lex.start;
      gv.attributes = this.recordFnAttrs(gv, this.parseFnAttributes(false), attrLoc);
    }
  }

  protected parseComdatRef(defaultName: string): Comdat {
    const keywordAt = this.lex.start;
    this.expectIdent('comdat');
    if (this.eat(Tok.LParen)) {
      if (this.t() !== Tok.ComdatVar) throw this.error('expected comdat variable');
      const name = this.lex.text;
      this.noteComdatUse(name, this.lex.start);
      this.next();
      this.expect(Tok.RParen, "expected ')' after comdat var");
      return this.m.getOrCreateComdat(name);
    }
    if (defaultName === '') throw this.error('comdat cannot be unnamed');
    this.noteComdatUse(defaultName, keywordAt);
    return this.m.getOrCreateComdat(defaultName);
  }

  /** The first use of each comdat not defined yet: one never defined is an error at the end. */
  protected noteComdatUse(name: string, at: number): void {
    if (!this.definedComdats.has(name) && !this.comdatUses.has(name)) this.comdatUses.set(name, at);
  }

  /** Registers a defined global, resolving an earlier forward reference of the same name. */
  protected defineGlobal(gv: GlobalValue, named: boolean, loc: number): void {
    let fwd: ForwardGlobal | undefined;
    if (named) {
      this.globalIndex.set(gv.name, gv);
      fwd = this.fwdGlobals.get(gv.name);
      this.fwdGlobals.delete(gv.name);
    } else {
      const id = this.numberedGlobals.length;
      this.numberedGlobals.push(gv);
      fwd = this.fwdGlobalIds.get(id);
      this.fwdGlobalIds.delete(id);
    }
    if (fwd !== undefined) {
      if (fwd.type !== gv.type) throw this.error(`forward reference and definition of global have different types`, loc);
      this.resolvedForward.set(fwd, gv);
    }
  }
}

/** Whether a struct holds itself by value, through its elements (`%T = type { %T }`). */
function containsItself(t: Type, path: Set<Type> = new Set()): boolean {
  const elements = t.kind === 'struct' ? t.elements ?? [] : t.kind === 'array' || t.kind === 'vector' ? [t.element] : [];
  if (elements.length === 0) return false;
  if (path.has(t)) return true;
  path.add(t);
  const found = elements.some((e) => containsItself(e, path));
  path.delete(t);
  return found;
}
