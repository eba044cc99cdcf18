/**
 * Values: locals, globals and forward references, constants and constant expressions.
 */
import { makeArray, makeConstantExpr, makeString, makeStruct, makeVector, nullValue } from '../model/constfold.js';
import { fpLiteralBits } from '../model/fp.js';
import {
  compareOperandsProblem,
  extractElementValid,
  insertElementValid,
  isIntOrIntVector,
  selectOperandsProblem,
  shuffleVectorValid,
  type CastOpcode,
} from '../verifier/operand-rules.js';
import { CAST_OPS, type Instruction } from '../model/instructions.js';
import { constantOperands } from '../analysis/uses.js';
import type { Metadata, ValueAsMetadata } from '../model/metadata.js';
import {
  FunctionType,
  isFirstClassType,
  type ArrayType,
  type FloatKind,
  type PointerType,
  type StructType,
  type Type,
  type VectorType,
} from '../model/types.js';
import {
  type Argument,
  BasicBlock,
  BlockAddress,
  DSOLocalEquivalent,
  MetadataAsValue,
  NoCFIValue,
  type Constant,
  type ConstantExprOpcode,
  type Value,
} from '../model/values.js';
import { Tok, intTokenNumber } from './lexer.js';
import { ForwardGlobal, ForwardLocal, type AnyValue, type FunctionState, typeString } from './parser-state.js';
import { MetadataParser } from './parse-metadata.js';

export const ICMP_PREDICATES = new Set(['eq', 'ne', 'ugt', 'uge', 'ult', 'ule', 'sgt', 'sge', 'slt', 'sle']);

export const FCMP_PREDICATES = new Set([
  'false', 'oeq', 'ogt', 'oge', 'olt', 'ole', 'one', 'ord', 'uno', 'ueq', 'ugt', 'uge', 'ult', 'ule', 'une', 'true',
]);

/** Constant expressions LLVM 16 no longer reads (LLVM 19 drops more: `and`, `or`, `lshr`, `select`...). */
const REMOVED_CONSTEXPR_OPS: ReadonlySet<string> = new Set(['udiv', 'sdiv', 'urem', 'srem', 'fneg', 'fadd', 'fsub', 'fmul', 'fdiv', 'frem', 'extractvalue', 'insertvalue']);

const INT_CONSTEXPR_OPS: ReadonlySet<string> = new Set(['add', 'sub', 'mul', 'shl', 'lshr', 'ashr']);

export abstract class ValueParser extends MetadataParser {
  protected abstract checkCast(op: CastOpcode, from: Type, to: Type, loc: number): void;
  protected abstract gepBase(source: Type, baseType: Type, sourceLoc: number, loc: number): PointerType;
  protected abstract gepIndex(t: Type, vectorLength: number, loc: number): number;
  protected abstract gepIndexedType(source: Type, ops: readonly Value[], loc: number): Type;
  protected abstract getBlock(st: FunctionState, nameOrId: string | number, loc: number): BasicBlock;

  protected parseTypeAndValue(st: FunctionState | undefined): Value {
    const t = this.parseType();
    // types compared by identity where one is known (see `parseType`)
    if (t === this.ctx.metadata) return this.parseMetadataAsValue(st);
    return this.parseValue(t, st);
  }

  protected parseMetadataAsValue(st: FunctionState | undefined): MetadataAsValue {
    const md = this.parseValueAsMetadataOrNode(st);
    return new MetadataAsValue(this.ctx.metadata, md);
  }

  /** After `metadata`: a node, string, DIArgList, or `<type> <value>` (possibly function-local). */
  protected parseValueAsMetadataOrNode(st: FunctionState | undefined = this.pfs, missingType = 'expected type'): Metadata {
    if (this.t() === Tok.MetadataVar && this.lex.text === 'DIArgList') {
      this.next();
      this.expect(Tok.LParen, "expected '(' here");
      const args: ValueAsMetadata[] = [];
      if (this.t() !== Tok.RParen) {
        do {
          const t = this.parseType();
          args.push(this.ctx.md.value(this.parseValue(t, st)));
        } while (this.eat(Tok.Comma));
      }
      this.expect(Tok.RParen, "expected ')' here");
      return this.ctx.md.argList(args);
    }
    if (this.t() === Tok.Exclaim || this.t() === Tok.MetadataVar) return this.parseMetadata();
    const loc = this.lex.start;
    const t = this.parseType(false, missingType);
    if (t.kind === 'metadata') throw this.error('invalid metadata-value-metadata roundtrip', loc);
    const v = this.parseValue(t, st);
    return this.wrapValue(v);
  }

  protected wrapValue(v: Value): ValueAsMetadata {
    const w = this.ctx.md.value(v);
    if ((v as AnyValue).vk === 'fwd' || this.containsForward(v)) this.wrappersOfForwardGlobals.push(w);
    return w;
  }

  /** Parses a value of type `t` (local or constant). */
  protected parseValue(t: Type, st: FunctionState | undefined): Value {
    const l = this.lex;
    const loc = l.start;
    if (t instanceof FunctionType) throw this.error('functions are not values, refer to them as pointers', loc);
    switch (l.kind) {
      case Tok.LocalVar:
      case Tok.LocalVarID: {
        if (st === undefined) throw this.error('invalid use of function-local name');
        const named = l.kind === Tok.LocalVar;
        const label = t === this.ctx.label;
        if (named && !label) {
          // the common case: a defined local, looked up without slicing its name
          const found = l.textIsSpan ? st.named.getHashed(l.src, l.textStart, l.textEnd, l.textHash) : st.named.get(l.text);
          if (found !== undefined && found.type === t) {
            this.next();
            // the parent first (a function's locals are its instructions and arguments): a use in
            // the defining block, the usual one, then reads nothing more
            if ((found as Instruction | Argument).parent !== st.block && found.vk === 'instruction') st.usesNonLocal = true;
            return found;
          }
        }
        const key = named ? l.text : l.num;
        this.next();
        if (label) return this.getBlock(st, key, loc);
        const v = named ? st.named.get(key as string) : st.numbered[key as number];
        if (v !== undefined) {
          if (v.type !== t) throw this.error(`'%${key}' defined with type '${typeString(v.type)}' but expected '${typeString(t)}'`, loc);
          if (v.vk === 'instruction' && v.parent !== st.block) st.usesNonLocal = true;
          return v;
        }
        if (named && st.blocksNamed.has(key as string)) throw this.error(`'%${key}' is not a basic block`, loc);
        return this.forwardLocal(st, key, t, loc);
      }
      default:
        return this.parseConstantValue(t, st);
    }
  }

  protected forwardLocal(st: FunctionState, key: string | number, t: Type, loc: number): Value {
    const map = typeof key === 'string' ? st.fwdNamed : st.fwdNumbered;
    let f = (map as Map<string | number, ForwardLocal>).get(key);
    if (f === undefined) {
      f = new ForwardLocal(t, typeof key === 'string' ? key : '', typeof key === 'number' ? key : -1, loc);
      (map as Map<string | number, ForwardLocal>).set(key, f);
    } else if (f.type !== t) throw this.error(`'%${key}' defined with type '${typeString(f.type)}' but expected '${typeString(t)}'`, loc);
    st.hasForwardLocals = true;
    st.usesNonLocal = true;
    st.usesForward = true;
    return f as unknown as Value;
  }

  protected globalRef(t: Type, loc: number): Value {
    const l = this.lex;
    const named = l.kind === Tok.GlobalVar;
    if (named && l.textIsSpan) {
      const found = this.globalIndex.getHashed(l.src, l.textStart, l.textEnd, l.textHash);
      if (found !== undefined && found.type === t) {
        this.next();
        return found;
      }
    }
    const name = l.text;
    const id = l.num;
    this.next();
    if (t.kind !== 'pointer') throw this.error('global variable reference must have pointer type', loc);
    const existing = named ? this.m.getGlobalValue(name) : this.numberedGlobals[id];
    if (existing !== undefined) {
      if (existing.type !== t) throw this.error(`'@${named ? name : id}' defined with type '${typeString(existing.type)}' but expected '${typeString(t)}'`, loc);
      return existing;
    }
    const map = named ? this.fwdGlobals : this.fwdGlobalIds;
    const key = named ? name : id;
    let f = (map as Map<string | number, ForwardGlobal>).get(key);
    if (f === undefined) {
      f = new ForwardGlobal(t, named ? name : '', named ? -1 : id, loc);
      (map as Map<string | number, ForwardGlobal>).set(key, f);
    }
    f.uses++;
    this.sawForwardGlobal = true;
    this.forwardRefs++;
    return f as unknown as Value;
  }

  /** Constants (and global references) of type `t`. */
  protected parseConstantValue(t: Type, st?: FunctionState): Value {
    const l = this.lex;
    const ctx = this.ctx;
    const loc = l.start;
    switch (l.kind) {
      case Tok.GlobalVar:
      case Tok.GlobalID:
        return this.globalRef(t, loc);
      case Tok.Int: {
        const small = l.intNumber;
        if (small !== undefined && t.kind === 'integer') {
          this.next();
          return ctx.constInt(t, small);
        }
        const text = l.text;
        this.next();
        if (t.kind === 'integer') return ctx.constInt(t, intTokenNumber(text));
        throw this.error('integer constant must have integer type', loc);
      }
      case Tok.Float:
      case Tok.HexFloat: {
        const text = l.text;
        const hex = l.kind === Tok.HexFloat;
        this.next();
        if (t.kind !== 'float') throw this.error('floating point constant invalid for type', loc);
        return this.fpConstant(t.fp, text, hex, loc);
      }
      case Tok.LBrace: {
        this.next();
        const fields: Constant[] = [];
        if (!this.atEndOfValueList()) {
          do fields.push(this.parseTypeAndValue(st) as Constant);
          while (this.eat(Tok.Comma));
        }
        this.expect(Tok.RBrace, "expected end of struct constant");
        if (t.kind !== 'struct') throw this.error('constant expression type mismatch', loc);
        this.checkStructFields(t, fields, false, loc);
        return this.track(makeStruct(ctx, t, fields));
      }
      case Tok.Less: {
        this.next();
        if (this.eat(Tok.LBrace)) {
          const fields: Constant[] = [];
          if (!this.atEndOfValueList()) {
            do fields.push(this.parseTypeAndValue(st) as Constant);
            while (this.eat(Tok.Comma));
          }
          this.expect(Tok.RBrace, "expected end of packed struct");
          this.expect(Tok.Greater, "expected end of constant");
          if (t.kind !== 'struct') throw this.error('constant expression type mismatch', loc);
          this.checkStructFields(t, fields, true, loc);
          return this.track(makeStruct(ctx, t, fields));
        }
        const elements: Constant[] = [];
        const firstLoc = this.lex.start;
        if (!this.atEndOfValueList()) {
          do elements.push(this.parseTypeAndValue(st) as Constant);
          while (this.eat(Tok.Comma));
        }
        this.expect(Tok.Greater, "expected end of constant");
        if (elements.length === 0) throw this.error('constant vector must not be empty', loc);
        const first = elements[0]!.type;
        if (first.kind !== 'integer' && first.kind !== 'float' && first.kind !== 'pointer')
          throw this.error('vector elements must have integer, pointer or floating point type', firstLoc);
        this.checkSameElementTypes('vector', elements, firstLoc);
        this.literalTypeIs(ctx.vector(first, elements.length), t, loc);
        return this.track(makeVector(ctx, t as VectorType, elements));
      }
      case Tok.LSquare: {
        this.next();
        const elements: Constant[] = [];
        const firstLoc = this.lex.start;
        if (!this.atEndOfValueList()) {
          do elements.push(this.parseTypeAndValue(st) as Constant);
          while (this.eat(Tok.Comma));
        }
        this.expect(Tok.RSquare, "expected end of array constant");
        if (elements.length > 0) {
          const first = elements[0]!.type;
          if (!isFirstClassType(first) || first.kind === 'label') throw this.error(`invalid array element type: ${typeString(first)}`, firstLoc);
          this.checkSameElementTypes('array', elements, firstLoc);
          this.literalTypeIs(ctx.array(first, elements.length), t, loc);
        } else if (t.kind !== 'array' || t.length !== 0) {
          throw this.error('invalid empty array initializer', loc);
        }
        return this.track(makeArray(ctx, t as ArrayType, elements));
      }
      case Tok.Exclaim:
      case Tok.MetadataVar:
        // metadata where a value of another type belongs: LLVM has no value starting this way
        throw this.error('expected value token', loc);
      case Tok.Ident:
        return this.parseKeywordConstant(t, st, loc);
      default:
        throw this.error('expected value token', loc);
    }
  }

  /** Every element of a vector or array literal has the first one's type (LLVM's message lacks the closing quote). */
  protected checkSameElementTypes(what: 'vector' | 'array', elements: readonly Constant[], loc: number): void {
    const first = elements[0]!.type;
    elements.forEach((e, i) => {
      if (e.type !== first) throw this.error(`${what} element #${i} is not of type '${typeString(first)}`, loc);
    });
  }

  /** A vector or array literal of type `got` where `expected` is wanted: LLVM's mismatch message. */
  protected literalTypeIs(got: Type, expected: Type, loc: number): void {
    if (got !== expected) throw this.error(`constant expression type mismatch: got type '${typeString(got)}' but expected '${typeString(expected)}'`, loc);
  }

  protected checkStructFields(t: StructType, fields: Constant[], packed: boolean, loc: number): void {
    const expected = t.elements ?? [];
    if (expected.length !== fields.length) throw this.error('initializer with struct type has wrong # elements', loc);
    if (t.packed !== packed) throw this.error("packed'ness of initializer and type don't match", loc);
    fields.forEach((f, i) => {
      if (f.type !== expected[i]) throw this.error(`element ${i} of struct initializer doesn't match struct element type`, loc);
    });
  }

  protected fpConstant(kind: FloatKind, text: string, hex: boolean, loc: number): Value {
    const bits = fpLiteralBits(kind, text, hex);
    if (typeof bits === 'string') throw this.error(bits, loc);
    return this.ctx.constFP(this.ctx.floatType(kind), bits);
  }

  protected parseKeywordConstant(t: Type, st: FunctionState | undefined, loc: number): Value {
    const ctx = this.ctx;
    const w = this.lex.text;
    switch (w) {
      case 'true':
      case 'false':
        this.next();
        if (t !== ctx.i1) throw this.error(`'${w}' must have i1 type (or vector of i1)`, loc);
        return ctx.bool(w === 'true');
      case 'null':
        this.next();
        if (t.kind !== 'pointer') throw this.error('null must be a pointer type', loc);
        return ctx.nullPtr(t);
      case 'undef':
        this.next();
        return ctx.undef(t);
      case 'poison':
        this.next();
        return ctx.poison(t);
      case 'zeroinitializer':
        this.next();
        if (t.kind === 'void' || t.kind === 'label' || t.kind === 'function') throw this.error('invalid type for null constant', loc);
        return nullValue(ctx, t);
      case 'none':
        this.next();
        if (t.kind !== 'token' && t.kind !== 'target') throw this.error('invalid type for none constant', loc);
        return ctx.none(t);
      case 'c': {
        this.next();
        if (this.t() !== Tok.String) throw this.error('expected string', loc);
        const bytes = this.lex.text;
        this.next();
        if (t.kind !== 'array' || t.element !== ctx.i8 || t.length !== bytes.length) throw this.error('constant expression type mismatch', loc);
        return makeString(ctx, t, bytes);
      }
      case 'asm':
        throw this.error('inline asm is only valid as a call operand', loc);
      case 'blockaddress': {
        this.next();
        this.expect(Tok.LParen, "expected '(' in block address expression");
        const fn = this.typed ? this.blockAddressFunction() : this.parseValue(ctx.ptr(this.m.layout.programAddressSpace), undefined);
        this.expect(Tok.Comma, "expected comma in block address expression");
        if (this.t() !== Tok.LocalVar && this.t() !== Tok.LocalVarID) throw this.error('expected basic block name in block address');
        const blockName = this.t() === Tok.LocalVar ? this.lex.text : `#${this.lex.num}`;
        this.next();
        this.expect(Tok.RParen, "expected ')' in block address expression");
        const ba = new BlockAddress(t, fn, blockName);
        this.blockAddresses.push({ ba, loc });
        return ba;
      }
      case 'dso_local_equivalent':
      case 'no_cfi': {
        this.next();
        const gv = this.parseValue(t, undefined);
        return this.track(w === 'no_cfi' ? new NoCFIValue(t, gv) : new DSOLocalEquivalent(t, gv));
      }
      case 'splat': {
        this.next();
        this.expect(Tok.LParen, "expected '(' after splat");
        const scalar = this.parseTypeAndValue(st) as Constant;
        this.expect(Tok.RParen, "expected ')' after splat");
        if (t.kind !== 'vector') throw this.error('splat must have vector type', loc);
        return this.track(makeVector(ctx, t, new Array<Constant>(t.length).fill(scalar)));
      }
      default:
        return this.parseConstantExpr(t, st, loc);
    }
  }

  /**
   * Typed pointers: the function of a `blockaddress` is named without a type, so it is looked up by
   * name (a function defined later is resolved at the end of the module).
   */
  protected blockAddressFunction(): Value {
    const l = this.lex;
    const loc = l.start;
    if (l.kind !== Tok.GlobalVar && l.kind !== Tok.GlobalID) throw this.error('expected function name in blockaddress');
    const named = l.kind === Tok.GlobalVar;
    const key = named ? l.text : l.num;
    this.next();
    const existing = named ? this.m.getGlobalValue(key as string) : this.numberedGlobals[key as number];
    if (existing !== undefined) return existing;
    const placeholder = new ForwardGlobal(this.ctx.label, named ? (key as string) : '', named ? -1 : (key as number), loc);
    this.blockAddressForwards.push(placeholder);
    return placeholder as unknown as Value;
  }

  protected parseConstantExpr(t: Type, st: FunctionState | undefined, loc: number): Value {
    const ctx = this.ctx;
    const op = this.lex.text;
    this.next();
    const typeAndConst = (): Constant => this.parseTypeAndValue(st) as Constant;
    if (CAST_OPS.has(op)) {
      this.expect(Tok.LParen, "expected '(' after constantexpr cast");
      const v = typeAndConst();
      this.expectIdent('to', "expected 'to' in constantexpr cast");
      const dest = this.parseType();
      this.expect(Tok.RParen, "expected ')' at end of constantexpr cast");
      if (dest !== t) throw this.error('constant expression type mismatch', loc);
      this.checkCast(op as CastOpcode, v.type, dest, loc);
      return this.track(makeConstantExpr(ctx, op as ConstantExprOpcode, dest, [v]));
    }
    if (op === 'getelementptr') {
      const flags: string[] = [];
      let inRange: [bigint, bigint] | undefined;
      for (;;) {
        if (this.isIdent('inbounds') || this.isIdent('nusw') || this.isIdent('nuw')) {
          flags.push(this.lex.text);
          this.next();
        } else if (this.isIdent('inrange')) {
          this.next();
          this.expect(Tok.LParen, "expected '('");
          const lo = this.expectInt('expected integer');
          this.expect(Tok.Comma, "expected ','");
          const hi = this.expectInt('expected integer');
          this.expect(Tok.RParen, "expected ')'");
          inRange = [lo, hi];
        } else break;
      }
      this.expect(Tok.LParen, "expected '(' in constantexpr");
      const sourceLoc = this.lex.start;
      const source = this.parseType();
      const ops: Constant[] = [];
      let inRangeOperand: number | undefined;
      while (this.eat(Tok.Comma)) {
        if (this.eatIdent('inrange')) inRangeOperand = ops.length;
        ops.push(typeAndConst());
      }
      this.expect(Tok.RParen, "expected ')' in constantexpr");
      const extra = { flags, sourceElementType: source, ...(inRangeOperand !== undefined ? { inRangeOperand } : {}), ...(inRange ? { inRange } : {}) };
      const baseType = ops[0]?.type;
      if (baseType === undefined) throw this.error('base of getelementptr must be a pointer', loc);
      const base = this.gepBase(source, baseType, sourceLoc, loc);
      let vectorLength = baseType.kind === 'vector' ? baseType.length : -1;
      for (let i = 1; i < ops.length; i++) vectorLength = this.gepIndex(ops[i]!.type, vectorLength, loc);
      const indexed = this.gepIndexedType(source, ops, loc);
      if (this.typed) {
        // the result type follows from the indices; it must be the type the context expects
        const resultPointer = ctx.typedPtr(indexed, base.addressSpace);
        const resultType = vectorLength >= 0 ? ctx.vector(resultPointer, vectorLength) : resultPointer;
        if (resultType !== t) throw this.error(`constant expression type mismatch: got type '${typeString(resultType)}' but expected '${typeString(t)}'`, loc);
      }
      return this.track(makeConstantExpr(ctx, 'getelementptr', t, ops, extra));
    }
    if (op === 'icmp' || op === 'fcmp') {
      const preds = op === 'icmp' ? ICMP_PREDICATES : FCMP_PREDICATES;
      if (this.t() !== Tok.Ident || !preds.has(this.lex.text)) throw this.error(predicateError(op));
      const predicate = this.lex.text;
      this.next();
      this.expect(Tok.LParen, "expected '(' in compare constantexpr");
      const a = typeAndConst();
      this.expect(Tok.Comma, "expected comma in compare constantexpr");
      const b = typeAndConst();
      this.expect(Tok.RParen, "expected ')' in compare constantexpr");
      if (a.type !== b.type) throw this.error('compare operands must have the same type', loc);
      const problem = compareOperandsProblem(op, a.type, true);
      if (problem !== undefined) throw this.error(problem, loc);
      return this.track(makeConstantExpr(ctx, op, t, [a, b], { predicate }));
    }
    const generic = new Set(['add', 'sub', 'mul', 'udiv', 'sdiv', 'urem', 'srem', 'shl', 'lshr', 'ashr', 'and', 'or', 'xor', 'fneg', 'fadd', 'fsub', 'fmul', 'fdiv', 'frem', 'select', 'extractelement', 'insertelement', 'shufflevector', 'extractvalue', 'insertvalue']);
    if (generic.has(op)) {
      if (REMOVED_CONSTEXPR_OPS.has(op)) throw this.error(`${op} constexprs are no longer supported`, loc);
      const flags: string[] = [];
      while (this.t() === Tok.Ident && ['nuw', 'nsw', 'exact'].includes(this.lex.text)) {
        flags.push(this.lex.text);
        this.next();
      }
      this.expect(Tok.LParen, "expected '(' in constantexpr");
      const ops: Constant[] = [];
      do ops.push(typeAndConst());
      while (this.eat(Tok.Comma) && this.t() !== Tok.Int);
      const indices: number[] = [];
      if (op === 'extractvalue' || op === 'insertvalue') while (this.t() === Tok.Int) {
        indices.push(this.expectUInt('expected index'));
        this.eat(Tok.Comma);
      }
      this.expect(Tok.RParen, "expected ')' in constantexpr");
      const problem = constantExprOperandProblem(op, ops);
      if (problem !== undefined) throw this.error(problem, loc);
      const extra: Record<string, unknown> = {};
      if (flags.length) extra['flags'] = flags;
      if (indices.length) extra['indices'] = indices;
      if (op === 'shufflevector') extra['mask'] = shuffleMaskOf(ops[2]!);
      return this.track(makeConstantExpr(ctx, op as ConstantExprOpcode, t, op === 'shufflevector' ? ops.slice(0, 2) : ops, extra));
    }
    throw this.error('expected value token', loc);
  }

  protected containsForward(v: Value): boolean {
    return this.forwardConstants.has(v as Constant);
  }

  /** Remembers constants built from forward references so they can be rebuilt at the end. */
  protected track(c: Value): Value {
    if (!this.sawForwardGlobal) return c;
    const ops = constantOperands(c);
    if (ops.some((o) => (o as AnyValue).vk === 'fwd' || this.forwardConstants.has(o as Constant))) {
      this.forwardConstants.add(c as Constant);
      this.forwardRefs++;
    }
    return c;
  }
}

/** What LLParser says about the operand types of a constant expression, or undefined when fine. */
function constantExprOperandProblem(op: string, ops: readonly Constant[]): string | undefined {
  const [a, b, c] = ops.map((o) => o.type);
  if (INT_CONSTEXPR_OPS.has(op) || op === 'and' || op === 'or' || op === 'xor') {
    if (a !== b) return 'operands of constexpr must have same type';
    if (INT_CONSTEXPR_OPS.has(op)) return isIntOrIntVector(a!) ? undefined : 'constexpr requires integer operands';
    return isIntOrIntVector(a!) ? undefined : 'constexpr requires integer or integer vector operands';
  }
  switch (op) {
    case 'select':
      return ops.length === 3 ? selectOperandsProblem(a!, b!, c!) : 'expected three operands to select';
    case 'extractelement':
      return ops.length === 2 && extractElementValid(a!, b!) ? undefined : 'invalid extractelement operands';
    case 'insertelement':
      return ops.length === 3 && insertElementValid(a!, b!, c!) ? undefined : 'invalid insertelement operands';
    case 'shufflevector':
      return ops.length === 3 && shuffleVectorValid(a!, b!, ops[2]!) ? undefined : 'invalid operands to shufflevector';
    default:
      return undefined;
  }
}

/** Mask elements of a shufflevector mask constant (-1 for undef/poison lanes). */
export function shuffleMaskOf(mask: Value): number[] {
  const t = mask.type;
  const n = t.kind === 'vector' ? t.length : 0;
  switch (mask.vk) {
    case 'zero':
      return new Array<number>(n).fill(0);
    case 'undef':
    case 'poison':
      return new Array<number>(n).fill(-1);
    case 'vector':
      return mask.elements.map((e) => (e.vk === 'int' ? Number(e.value) : -1));
    default:
      return new Array<number>(n).fill(-1);
  }
}

export function predicateError(op: 'icmp' | 'fcmp'): string {
  return op === 'icmp' ? "expected icmp predicate (e.g. 'eq')" : "expected fcmp predicate (e.g. 'oeq')";
}
