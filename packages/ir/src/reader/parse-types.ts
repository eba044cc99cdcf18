/**
 * Types: type definitions, type syntax (typed pointers too) and its checks.
 */
import type { AttributePosition, Attribute } from '../model/attributes.js';
import type { FloatKind, FunctionType, StructType, Type } from '../model/types.js';
import { Tok } from './lexer.js';
import { ParserState } from './parser-state.js';

const FLOAT_KINDS = new Set<string>(['half', 'bfloat', 'float', 'double', 'x86_fp80', 'fp128', 'ppc_fp128']);

export abstract class TypeParser extends ParserState {
  protected abstract parseParamAttributes(position?: AttributePosition): Attribute[];

  protected parseTypeDefinition(): void {
    const loc = this.lex.start;
    const isNamed = this.t() === Tok.LocalVar;
    const name = this.lex.text;
    const id = this.lex.num;
    this.next();
    this.expect(Tok.Equal, "expected '=' after name");
    this.expectIdent('type', isNamed ? "expected 'type' after name" : "expected 'type' after '='");
    const key = isNamed ? name : id;
    if (this.typeAliases.has(key)) throw this.error(`redefinition of type`, loc);
    const known = isNamed ? this.namedTypes.get(name) : this.numberedTypes.get(id);
    if (known?.defined) throw this.error(`redefinition of type`, loc);
    if (this.isIdent('opaque') || this.t() === Tok.LBrace || (this.t() === Tok.Less && this.peek() === Tok.LBrace)) {
      const entry = isNamed ? this.namedTypeEntry(name, loc) : this.numberedTypeEntry(id, loc);
      entry.defined = true;
      const t = entry.type;
      if (this.eatIdent('opaque')) return;
      const packed = this.eat(Tok.Less);
      t.setBody(this.parseStructBody(), packed);
      if (packed) this.expect(Tok.Greater, "expected '>' in packed struct");
      return;
    }
    // any other type: a name for it, which LLVM still reads from old files; it cannot be used before
    if (known !== undefined) throw this.error('forward references to non-struct type', loc);
    this.typeAliases.set(key, this.parseType());
  }

  protected namedTypeEntry(name: string, loc: number): { type: StructType; defined: boolean; loc: number } {
    let e = this.namedTypes.get(name);
    if (e === undefined) {
      e = { type: this.ctx.createStruct(name), defined: false, loc };
      this.namedTypes.set(name, e);
    }
    return e;
  }

  protected numberedTypeEntry(id: number, loc: number): { type: StructType; defined: boolean; loc: number } {
    let e = this.numberedTypes.get(id);
    if (e === undefined) {
      e = { type: this.ctx.createStruct(''), defined: false, loc };
      this.numberedTypes.set(id, e);
    }
    return e;
  }

  /** Parses `{ T, T }` (current token is `{`). */
  protected parseStructBody(): Type[] {
    this.expect(Tok.LBrace, "expected '{'");
    const elements: Type[] = [];
    if (this.eat(Tok.RBrace)) return elements;
    do elements.push(this.parseType());
    while (this.eat(Tok.Comma));
    this.expect(Tok.RBrace, "expected '}' at end of struct");
    return elements;
  }

  /** `missing`: the error when no type starts here (LLVM words it by context). */
  protected parseType(allowVoid = false, missing = 'expected type'): Type {
    const loc = this.lex.start;
    const t = this.parseBaseType(missing);
    const k = this.lex.kind;
    if (k !== Tok.Star && k !== Tok.LParen && k !== Tok.Ident) {
      // no suffix (the common case); void by identity: `t.kind` read here sees every kind of type,
      // and V8 reads a property of that many shapes through its slow (megamorphic) cache
      if (!allowVoid && t === this.ctx.void) throw this.error('void type only allowed for function results', loc);
      return t;
    }
    return this.parseTypeSuffixes(t, loc, allowVoid);
  }

  /** Typed-pointer and function-type suffixes after the base type `t` (which starts at `loc`). */
  protected parseTypeSuffixes(t: Type, loc: number, allowVoid: boolean): Type {
    for (;;) {
      if (this.t() === Tok.Star) {
        if (t.kind === 'label') throw this.error('basic block pointers are invalid');
        if (t.kind === 'void') throw this.error('pointers to void are invalid - use i8* instead');
        if (t.kind === 'pointer' && t.pointee === undefined && this.lex.src.slice(loc, loc + 3) === 'ptr')
          throw this.error('ptr* is invalid - use ptr instead');
        if (this.typed) {
          this.checkPointee(t);
          this.next();
          t = this.ctx.typedPtr(t, 0);
          continue;
        }
        if (this.rejectTyped) throw this.typedInOpaqueError(loc);
        this.next();
        t = this.ctx.ptr(0);
        continue;
      }
      if (this.isIdent('addrspace')) {
        if (this.typed) {
          if (t.kind === 'label') throw this.error('basic block pointers are invalid');
          if (t.kind === 'void') throw this.error('pointers to void are invalid; use i8* instead');
          this.checkPointee(t);
        }
        const as = this.parseAddrSpace();
        if (this.t() !== Tok.Star) throw this.error("expected '*' in address space");
        if (this.rejectTyped) throw this.typedInOpaqueError(loc);
        this.next();
        t = this.typed ? this.ctx.typedPtr(t, as) : this.ctx.ptr(as);
        continue;
      }
      if (this.t() === Tok.LParen) {
        if (t.kind === 'function' || t.kind === 'label' || t.kind === 'metadata') throw this.error('invalid function return type');
        t = this.parseFunctionTypeParams(t);
        continue;
      }
      break;
    }
    if (!allowVoid && t === this.ctx.void) throw this.error('void type only allowed for function results', loc);
    return t;
  }

  /** Typed pointers; void and label have their own messages, checked before this. */
  protected checkPointee(t: Type): void {
    if (!isValidPointerElementType(t)) throw this.error('pointer to this type is invalid');
  }

  protected typedInOpaqueError(at: number): Error {
    return this.error(`typed pointer type in a module that uses opaque pointers (its first pointer type, 'ptr' at ${this.decidedWhere()}, decides)`, at);
  }

  protected parseAddrSpace(): number {
    this.expectIdent('addrspace');
    this.expect(Tok.LParen, "expected '(' in address space");
    if (this.t() === Tok.String) {
      const s = this.lex.text;
      this.next();
      this.expect(Tok.RParen, "expected ')' in address space");
      const dl = this.m.layout;
      if (s === 'A') return dl.allocaAddressSpace;
      if (s === 'G') return dl.globalsAddressSpace;
      if (s === 'P') return dl.programAddressSpace;
      throw this.error(`invalid symbolic addrspace '${s}'`);
    }
    const as = this.expectUInt('expected integer or string constant');
    this.expect(Tok.RParen, "expected ')' in address space");
    return as;
  }

  protected parseFunctionTypeParams(ret: Type): FunctionType {
    this.expect(Tok.LParen, "expected '('");
    const params: Type[] = [];
    let varArgs = false;
    let problem: { message: string; at: number } | undefined;
    if (!this.eat(Tok.RParen)) {
      for (;;) {
        if (this.eat(Tok.DotDotDot)) {
          varArgs = true;
          break;
        }
        // read like a parameter list; LLVM refuses names and attributes once the list is read
        const typeLoc = this.lex.start;
        const param = this.parseType();
        if (param.kind === 'function') throw this.error('invalid type for function argument', typeLoc);
        params.push(param);
        const attrs = this.parseParamAttributes('parameter');
        if (this.t() === Tok.LocalVar) {
          problem ??= { message: 'argument name invalid in function type', at: typeLoc };
          this.next();
        } else if (this.t() === Tok.LocalVarID) {
          if (this.lex.num !== params.length - 1) throw this.error(`argument expected to be numbered '%${params.length - 1}'`, typeLoc);
          this.next();
        }
        if (attrs.length > 0) problem ??= { message: 'argument attributes invalid in function type', at: typeLoc };
        if (!this.eat(Tok.Comma)) break;
      }
      this.expect(Tok.RParen, "expected ')' at end of argument list");
    }
    if (problem !== undefined) throw this.error(problem.message, problem.at);
    return this.ctx.fn(ret, params, varArgs);
  }

  protected parseBaseType(missing: string): Type {
    const l = this.lex;
    const ctx = this.ctx;
    switch (l.kind) {
      case Tok.IntType: {
        const t = ctx.int(l.num);
        this.next();
        return t;
      }
      case Tok.Ident: {
        // the type most operands have in opaque-pointer IR: by the keyword's identity, before the
        // set lookup and the switch
        if (!this.typed && l.text === 'ptr') {
          this.next();
          return this.isIdent('addrspace') ? ctx.ptr(this.parseAddrSpace()) : ctx.ptr(0);
        }
        const w = l.text;
        if (FLOAT_KINDS.has(w)) {
          this.next();
          return ctx.floatType(w as FloatKind);
        }
        switch (w) {
          case 'void':
            this.next();
            return ctx.void;
          case 'label':
            this.next();
            return ctx.label;
          case 'metadata':
            this.next();
            return ctx.metadata;
          case 'token':
            this.next();
            return ctx.token;
          case 'x86_mmx':
            this.next();
            return ctx.x86_mmx;
          case 'x86_amx':
            this.next();
            return ctx.x86_amx;
          case 'ptr': {
            if (this.typed) throw this.error(`opaque pointer type 'ptr' in a module that uses typed pointers (its first pointer type, at ${this.decidedWhere()}, decides)`);
            this.next();
            const as = this.isIdent('addrspace') ? this.parseAddrSpace() : 0;
            return ctx.ptr(as);
          }
          case 'target':
            return this.parseTargetExtType();
          case 'opaque':
            throw this.error("'opaque' is only valid in a type definition");
          default:
            throw this.error(missing);
        }
      }
      case Tok.LBrace:
        return ctx.literalStruct(this.parseStructBody(), false);
      case Tok.LSquare: {
        this.next();
        const n = this.expectUInt('expected number in address space'); // sic: LLVM 16's message for both
        this.expectIdent('x', "expected 'x' after element count");
        const elem = this.parseType();
        this.expect(Tok.RSquare, 'expected end of sequential type');
        return ctx.array(elem, n);
      }
      case Tok.Less: {
        this.next();
        if (this.t() === Tok.LBrace) {
          const t = ctx.literalStruct(this.parseStructBody(), true);
          this.expect(Tok.Greater, "expected '>' at end of packed struct");
          return t;
        }
        const scalable = this.eatIdent('vscale');
        if (scalable) this.expectIdent('x', "expected 'x' after vscale");
        const n = this.expectUInt('expected number in address space');
        this.expectIdent('x', "expected 'x' after element count");
        const elem = this.parseType();
        this.expect(Tok.Greater, 'expected end of sequential type');
        return ctx.vector(elem, n, scalable);
      }
      case Tok.LocalVar: {
        const alias = this.typeAliases.size === 0 ? undefined : this.typeAliases.get(l.text);
        const t = alias ?? this.namedTypeEntry(l.text, l.start).type;
        this.next();
        return t;
      }
      case Tok.LocalVarID: {
        const alias = this.typeAliases.size === 0 ? undefined : this.typeAliases.get(l.num);
        const t = alias ?? this.numberedTypeEntry(l.num, l.start).type;
        this.next();
        return t;
      }
      default:
        throw this.error(missing);
    }
  }

  protected parseTargetExtType(): Type {
    this.expectIdent('target');
    this.expect(Tok.LParen, "expected '(' in target extension type");
    const name = this.expectString();
    const types: Type[] = [];
    const ints: number[] = [];
    while (this.eat(Tok.Comma)) {
      if (this.t() === Tok.Int) ints.push(this.expectUInt('expected type parameter'));
      else {
        if (ints.length > 0) throw this.error('expected uint32 param');
        types.push(this.parseType(true));
      }
    }
    this.expect(Tok.RParen, "expected ')' in target extension type");
    return this.ctx.targetExt(name, types, ints);
  }
}

/** LLVM's `PointerType::isValidElementType`. */
function isValidPointerElementType(t: Type): boolean {
  return t.kind !== 'void' && t.kind !== 'label' && t.kind !== 'metadata' && t.kind !== 'token' && t.kind !== 'x86_amx';
}

/** LLVM's test for a global's value type: not a function, nor a type no pointer can point to. */
export function isValidGlobalValueType(t: Type): boolean {
  return t.kind !== 'function' && isValidPointerElementType(t);
}
