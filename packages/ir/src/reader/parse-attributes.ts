/**
 * Comdats, attribute groups and attribute lists (function, parameter and return attributes;
 * legacy memory attributes upgraded to `memory(...)`).
 */
import {
  ALLOC_KIND_FLAGS,
  AttributeSet,
  enumAttr,
  intAttr,
  isAttributeKeyword,
  attributeAppliesTo,
  type AttributePosition,
  packMemoryEffects,
  parseModRef,
  stringAttr,
  typeAttr,
  type Attribute,
} from '../model/attributes.js';
import { CallInst } from '../model/instructions.js';
import { GlobalVariable, IRFunction, type ComdatSelection } from '../model/values.js';
import { Tok, ownString } from './lexer.js';
import { TypeParser } from './parse-types.js';

/** Legacy function attributes LLVM 16 upgrades into `memory(...)` (none, read, write per location). */
const MEMORY_UPGRADES: Record<string, [number, number, number]> = {
  readnone: [0, 0, 0],
  readonly: [1, 1, 1],
  writeonly: [2, 2, 2],
  argmemonly: [3, 0, 0],
  inaccessiblememonly: [0, 3, 0],
  inaccessiblemem_or_argmemonly: [3, 3, 0],
};

const TYPE_ARG_ATTRS = new Set(['byval', 'sret', 'inalloca', 'preallocated', 'byref', 'elementtype']);

const NO_ATTRS: Attribute[] = [];

export abstract class AttributeParser extends TypeParser {
  // --- comdat, attribute groups -------------------------------------------------------------------

  protected parseComdat(): void {
    const name = this.lex.text;
    const loc = this.lex.start;
    this.next();
    this.expect(Tok.Equal, "expected '=' here");
    this.expectIdent('comdat', 'expected comdat type');
    const kinds = ['any', 'exactmatch', 'largest', 'nodeduplicate', 'samesize', 'noduplicates'];
    if (this.t() !== Tok.Ident || !kinds.includes(this.lex.text)) throw this.error('unknown selection kind');
    let selection = this.lex.text;
    if (selection === 'noduplicates') selection = 'nodeduplicate';
    this.next();
    const existing = this.m.comdats.get(name);
    if (existing !== undefined && this.definedComdats.has(name)) throw this.error(`redefinition of comdat '$${name}'`, loc);
    this.definedComdats.add(name);
    this.m.getOrCreateComdat(name).selection = selection as ComdatSelection;
  }

  protected parseAttributeGroup(): void {
    const keywordAt = this.lex.start;
    this.next();
    if (this.t() !== Tok.AttrGrpID) throw this.error('expected attribute group id');
    const id = this.lex.num;
    this.next();
    this.expect(Tok.Equal, "expected '=' here");
    this.expect(Tok.LBrace, "expected '{' here");
    const { attrs, memory, groups } = this.parseFnAttributes(true);
    if (groups.length > 0) throw this.error('attribute groups cannot reference other groups');
    // LLVM reads attributes up to '}': anything else is where the group stops being one
    if (this.t() !== Tok.RBrace) throw this.error('unterminated attribute group');
    this.next();
    let group = this.attrGroups.get(id);
    if (group) {
      group.attrs.push(...attrs);
      if (memory !== undefined) group.memory = memory;
    } else this.attrGroups.set(id, (group = { attrs, memory }));
    if (group.attrs.length === 0 && group.memory === undefined) throw this.error('attribute group has no attributes', keywordAt);
  }

  // --- attributes ---------------------------------------------------------------------------------

  /** LLVM's list of constants is empty at any of `} ] > )`, whichever closes it. */
  protected atEndOfValueList(): boolean {
    const k = this.t();
    return k === Tok.RBrace || k === Tok.RSquare || k === Tok.Greater || k === Tok.RParen;
  }

  /** `(T)` after a type attribute; `optional`: a bare keyword is read too (typed-pointer IR before LLVM 16). */
  protected parseAttrTypeArg(key: string, optional: boolean): Attribute {
    if (this.t() !== Tok.LParen) {
      if (optional) return typeAttr(key, undefined);
      throw this.error("expected '('");
    }
    this.next();
    const t = this.parseType();
    this.expect(Tok.RParen, "expected ')'");
    return typeAttr(key, t);
  }

  /**
   * `(N)`. `check`, when given, returns the error for a value LLVM refuses, reported (as LLVM
   * does) at the number.
   */
  protected parseParenUInt(key: string, check?: (value: number) => string | undefined): number {
    this.expect(Tok.LParen, `expected '(' after ${key}`);
    const at = this.lex.start;
    const v = this.expectUInt(`expected integer in ${key}`);
    this.expect(Tok.RParen, "expected ')'");
    const problem = check?.(v);
    if (problem !== undefined) throw this.error(problem, at);
    return v;
  }

  /** The value after `align`: `N` or `(N)`; LLVM reports a bad one at the token after `align`. */
  protected parseAlignValue(): number {
    const at = this.lex.start;
    const v = this.t() === Tok.LParen ? this.parseParenUInt('align') : this.expectUInt('expected integer');
    if (v === 0 || (v & (v - 1)) !== 0 || v > 2 ** 32) throw this.error('alignment is not a power of two', at);
    return v;
  }

  /**
   * `=N` after `align` or `alignstack` in an attribute group. LLVM 16 does not check the value
   * there: it keeps the power of two at or below it, and 0 gives no attribute (undefined).
   */
  protected parseGroupAlignment(): number | undefined {
    this.expect(Tok.Equal, "expected '=' here");
    const at = this.lex.start;
    const v = this.expectUInt('expected integer');
    if (v > 0xffffffff) throw this.error('expected 32-bit integer (too large)', at);
    return v === 0 ? undefined : 2 ** (31 - Math.clz32(v));
  }

  /**
   * Attributes of a parameter or a return value. Stops at the first token that is not an
   * attribute; an attribute LLVM 16 does not take in this position is an error.
   */
  protected parseParamAttributes(position: AttributePosition = 'parameter'): Attribute[] {
    if (this.lex.kind !== Tok.Ident && this.lex.kind !== Tok.String) return NO_ATTRS;
    const attrs: Attribute[] = [];
    for (;;) {
      const l = this.lex;
      if (l.kind === Tok.String) {
        attrs.push(this.parseStringAttribute());
        continue;
      }
      if (l.kind !== Tok.Ident) return attrs;
      const w = l.text;
      if (isAttributeKeyword(w) && !attributeAppliesTo(w, position))
        throw this.error(`this attribute does not apply to ${position === 'parameter' ? 'parameters' : 'return values'}`);
      switch (w) {
        case 'align':
          this.next();
          attrs.push(intAttr('align', this.parseAlignValue()));
          continue;
        case 'alignstack':
          this.next();
          attrs.push(intAttr('alignstack', this.parseParenUInt('alignstack', stackAlignmentProblem)));
          continue;
        case 'dereferenceable':
        case 'dereferenceable_or_null':
          this.next();
          attrs.push(intAttr(w, this.parseParenUInt(w, dereferenceableProblem)));
          continue;
        case 'byval':
        case 'sret':
        case 'inalloca':
        case 'preallocated':
        case 'byref':
        case 'elementtype':
          this.next();
          attrs.push(this.parseAttrTypeArg(w, this.typed && (w === 'byval' || w === 'sret' || w === 'inalloca')));
          continue;
        case 'nofpclass':
        case 'range':
        case 'initializes':
        case 'captures':
          this.next();
          attrs.push({ kind: 'raw', key: w, text: this.captureBalancedParens() });
          continue;
        default:
          // (a keyword that does not apply here was refused above)
          if (isAttributeKeyword(w) && !TYPE_ARG_ATTRS.has(w)) {
            this.next();
            attrs.push(enumAttr(w));
            continue;
          }
          return attrs;
      }
    }
  }

  /**
   * Parses parameter attributes into a set, sharing one set per distinct spelling (DPC++ code
   * repeats the same few attribute lists thousands of times).
   */
  protected parseParamAttributeSet(position: AttributePosition = 'parameter'): AttributeSet {
    const l = this.lex;
    const k = l.kind;
    if (k !== Tok.Ident && k !== Tok.String) return AttributeSet.empty;
    const single = k === Tok.Ident && position === 'parameter';
    if (single && this.valueFollows()) {
      // `noundef %x`: a keyword read before, and the value right after it
      const set = this.singleAttributeSets.get(l.text);
      if (set !== undefined) {
        this.next();
        return set;
      }
    }
    const start = l.start;
    const attrs = this.parseParamAttributes(position);
    if (attrs.length === 0) return AttributeSet.empty;
    // looked up by the source span: no string for each argument's `noundef align 4`
    const src = l.src;
    const end = l.start;
    let set = this.attrSetCache.getSpan(src, start, end);
    if (set === undefined) {
      set = AttributeSet.of(attrs);
      this.attrSetCache.set(ownString(src.slice(start, end)), set);
    }
    // an enum attribute is one token: the set of that keyword alone
    if (single && attrs.length === 1 && attrs[0]!.kind === 'enum') this.singleAttributeSets.set(attrs[0]!.key, set);
    return set;
  }

  /** Whether a local or global value (`%x`, `@g`) starts right after the current token, on its line. */
  protected valueFollows(): boolean {
    const src = this.lex.src;
    let p = this.lex.pos;
    let c = src.charCodeAt(p);
    while (c === 32 || c === 9) c = src.charCodeAt(++p);
    return c === 37 || c === 64;
  }

  /** Captures `( ... )` verbatim (for attributes we carry without interpreting). */
  protected captureBalancedParens(): string {
    if (this.t() !== Tok.LParen) throw this.error("expected '('");
    const start = this.lex.start;
    let depth = 0;
    do {
      if (this.t() === Tok.LParen) depth++;
      else if (this.t() === Tok.RParen) depth--;
      else if (this.t() === Tok.Eof) throw this.error('unterminated attribute');
      this.next();
    } while (depth > 0);
    return ownString(this.lex.src.slice(start, this.lex.start).trimEnd());
  }

  protected parseStringAttribute(): Attribute {
    const key = this.lex.text;
    this.next();
    if (this.eat(Tok.Equal)) return stringAttr(key, this.expectString());
    return stringAttr(key, '');
  }

  /**
   * Function attributes (also used for call sites and attribute groups): keywords, string
   * attributes, `#N` group references, and LLVM 16's upgrade of legacy memory attributes.
   */
  protected parseFnAttributes(inGroup: boolean, onFunction = false): { attrs: Attribute[]; groups: number[]; memory: number | undefined } {
    const attrs: Attribute[] = [];
    const groups: number[] = [];
    let memory: [number, number, number] | undefined;
    for (;;) {
      const l = this.lex;
      if (l.kind === Tok.AttrGrpID) {
        if (inGroup) throw this.error('cannot have an attribute group reference in an attribute group');
        groups.push(l.num);
        this.next();
        continue;
      }
      if (l.kind === Tok.String) {
        attrs.push(this.parseStringAttribute());
        continue;
      }
      if (l.kind !== Tok.Ident) break;
      const w = l.text;
      if (isAttributeKeyword(w) && !attributeAppliesTo(w, 'function')) throw this.error('this attribute does not apply to functions');
      if (w === 'builtin' && onFunction) throw this.error("'builtin' attribute not valid on function");
      const upgrade = MEMORY_UPGRADES[w];
      if (upgrade !== undefined) {
        this.next();
        // like `MemoryEffects &=`: the intersection of the allowed accesses per location
        memory = memory ? [memory[0] & upgrade[0], memory[1] & upgrade[1], memory[2] & upgrade[2]] : [...upgrade];
        continue;
      }
      switch (w) {
        case 'align':
        case 'alignstack': {
          this.next();
          const value = inGroup ? this.parseGroupAlignment() : w === 'align' ? this.parseAlignValue() : this.parseParenUInt(w, stackAlignmentProblem);
          if (value !== undefined) attrs.push(intAttr(w, value));
          continue;
        }
        case 'allocsize':
        case 'vscale_range': {
          this.next();
          this.expect(Tok.LParen, `expected '(' after ${w}`);
          const a = this.expectUInt(`expected integer in ${w}`);
          let b: number | undefined;
          if (this.eat(Tok.Comma)) b = this.expectUInt(`expected integer in ${w}`);
          this.expect(Tok.RParen, "expected ')'");
          // LLVM's "not present" value: vscale_range(0) and (0,0) leave no attribute
          if (w === 'vscale_range' && a === 0 && (b ?? a) === 0) continue;
          attrs.push(intAttr(w, [a, w === 'vscale_range' ? (b ?? a) : b]));
          continue;
        }
        case 'uwtable': {
          this.next();
          let kind = 2;
          if (this.eat(Tok.LParen)) {
            if (this.eatIdent('sync')) kind = 1;
            else if (this.eatIdent('async')) kind = 2;
            else throw this.error("expected 'sync' or 'async'");
            this.expect(Tok.RParen, "expected ')'");
          }
          attrs.push(intAttr('uwtable', kind));
          continue;
        }
        case 'memory':
          this.next();
          attrs.push(intAttr('memory', this.parseMemoryEffects()));
          continue;
        case 'allockind': {
          this.next();
          this.expect(Tok.LParen, "expected '('");
          const at = this.lex.start;
          const text = this.expectString();
          this.expect(Tok.RParen, "expected ')'");
          let bits = 0;
          for (const part of text.split(',')) {
            const i = (ALLOC_KIND_FLAGS as readonly string[]).indexOf(part);
            if (i < 0) throw this.error(`unknown allockind ${part}`, at);
            bits |= 1 << i;
          }
          attrs.push(intAttr('allockind', bits));
          continue;
        }
        case 'dereferenceable':
        case 'dereferenceable_or_null':
          this.next();
          attrs.push(intAttr(w, this.parseParenUInt(w)));
          continue;
        case 'nofpclass':
        case 'range':
          this.next();
          attrs.push({ kind: 'raw', key: w, text: this.captureBalancedParens() });
          continue;
        default:
          if (isAttributeKeyword(w) && !TYPE_ARG_ATTRS.has(w)) {
            this.next();
            attrs.push(enumAttr(w));
            continue;
          }
          if (TYPE_ARG_ATTRS.has(w) && (inGroup || w === 'preallocated')) {
            this.next();
            attrs.push(this.parseAttrTypeArg(w, false));
            continue;
          }
      }
      break;
    }
    return { attrs, groups, memory: memory === undefined ? undefined : packMemoryEffects({ argmem: memory[0], inaccessiblemem: memory[1], other: memory[2] }) };
  }

  /**
   * `memory(...)` as LLVM 16's parseMemoryAttr reads it: locations not named have no access
   * unless a default access kind comes first (`memory(read, argmem: readwrite)`).
   */
  protected parseMemoryEffects(): number {
    this.expect(Tok.LParen, "expected '('");
    const effects = { argmem: 0, inaccessiblemem: 0, other: 0 };
    let seenLocation = false;
    for (;;) {
      let location: 'argmem' | 'inaccessiblemem' | undefined;
      const t = this.t();
      if ((t === Tok.Ident || t === Tok.LabelStr) && (this.lex.text === 'argmem' || this.lex.text === 'inaccessiblemem')) {
        location = this.lex.text;
        // `argmem:` lexes as a label (colon included); `argmem :` as an identifier and a colon
        this.next();
        if (t === Tok.Ident && !this.eat(Tok.Colon)) throw this.error("expected ':' after location");
      }
      if (this.t() === Tok.LabelStr && parseModRef(this.lex.text) !== undefined) {
        // `read:` is an access kind and a colon to LLVM: the colon ends nothing
        const colon = this.lex.start + this.lex.text.length;
        throw this.error(location === undefined && seenLocation ? 'default access kind must be specified first' : 'unterminated memory attribute', colon);
      }
      const mr = this.t() === Tok.Ident ? parseModRef(this.lex.text) : undefined;
      if (mr === undefined) {
        throw this.error(location === undefined ? 'expected memory location (argmem, inaccessiblemem) or access kind (none, read, write, readwrite)' : 'expected access kind (none, read, write, readwrite)');
      }
      this.next();
      if (location !== undefined) {
        seenLocation = true;
        effects[location] = mr;
      } else {
        if (seenLocation) throw this.error('default access kind must be specified first');
        effects.argmem = effects.inaccessiblemem = effects.other = mr;
      }
      if (this.eat(Tok.RParen)) return packMemoryEffects(effects);
      if (!this.eat(Tok.Comma)) throw this.error('unterminated memory attribute');
    }
  }

  /**
   * Whether the current token can start a function attribute: a `#N`, a string or an attribute
   * keyword. After a call's `)` the next token is usually the next line's opcode (`store`, `br`).
   */
  protected startsFnAttribute(): boolean {
    const k = this.lex.kind;
    if (k === Tok.AttrGrpID || k === Tok.String) return true;
    if (k !== Tok.Ident) return false;
    const w = this.lex.text;
    return isAttributeKeyword(w) || MEMORY_UPGRADES[w] !== undefined;
  }

  /** The one set that stands for `#id` alone, completed when the group is read. */
  protected groupPlaceholder(id: number): AttributeSet {
    let set = this.groupPlaceholders.get(id);
    if (set === undefined) {
      set = AttributeSet.placeholder();
      this.groupPlaceholders.set(id, set);
    }
    return set;
  }

  protected recordFnAttrs(target: IRFunction | CallInst | GlobalVariable, parsed: { attrs: Attribute[]; groups: number[]; memory: number | undefined }, loc: number): AttributeSet {
    // just `#N`: share one set per group, completed when the group is read
    if (parsed.groups.length === 1 && parsed.attrs.length === 0 && parsed.memory === undefined) return this.groupPlaceholder(parsed.groups[0]!);
    if (parsed.groups.length > 0) {
      this.pendingAttrs.push({ target, inline: parsed.attrs, groups: parsed.groups, memory: parsed.memory, loc });
    }
    if (parsed.attrs.length === 0 && parsed.memory === undefined) return AttributeSet.empty;
    const all = parsed.memory === undefined ? parsed.attrs : [...parsed.attrs, intAttr('memory', parsed.memory)];
    return AttributeSet.of(all);
  }
}

function stackAlignmentProblem(value: number): string | undefined {
  return value === 0 || (value & (value - 1)) !== 0 ? 'stack alignment is not a power of two' : undefined;
}

function dereferenceableProblem(value: number): string | undefined {
  return value === 0 ? 'dereferenceable bytes must be non-zero' : undefined;
}
