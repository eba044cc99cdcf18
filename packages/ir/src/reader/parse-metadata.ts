/**
 * Metadata: named and numbered nodes, specialized `DI*` nodes, attachments.
 */
import { checkDIFields, isKnownDIClass } from '../printer/di-printer.js';
import { diFieldExpected, diFieldProblem } from './di-fields.js';
import {
  DINode,
  type Attachment,
  type DIFieldValue,
  type MDNode,
  type MDTuple,
  type Metadata,
  type ValueAsMetadata,
} from '../model/metadata.js';
import type { Type } from '../model/types.js';
import type { Value } from '../model/values.js';
import { Tok } from './lexer.js';
import type { FunctionState } from './parser-state.js';
import { AttributeParser } from './parse-attributes.js';

/** Words that start a typed value in a DI field (`void ()* @f` with typed pointers). */
const TYPE_KEYWORDS = new Set(['ptr', 'half', 'bfloat', 'float', 'double', 'x86_fp80', 'fp128', 'ppc_fp128', 'target', 'void']);

export abstract class MetadataParser extends AttributeParser {
  protected abstract parseValue(t: Type, st: FunctionState | undefined): Value;
  protected abstract wrapValue(v: Value): ValueAsMetadata;

  protected mdSlot(id: number, loc: number): MDNode {
    let n = this.mdSlots.get(id);
    if (n === undefined) {
      n = this.ctx.md.shell('tuple', false);
      this.mdSlots.set(id, n);
      this.mdRefLoc.set(id, loc);
    }
    return n;
  }

  protected parseNamedMetadata(): void {
    const name = this.lex.text;
    if (name.startsWith('llvm.dbg.') || name === 'llvm.gcov') this.sawDebugInfo = true;
    this.next();
    this.expect(Tok.Equal, "expected '=' here");
    this.expect(Tok.Exclaim, "Expected '!' here");
    this.expect(Tok.LBrace, "Expected '{' here");
    const ops: MDNode[] = [];
    if (this.t() !== Tok.RBrace) {
      do {
        if (this.t() === Tok.MetadataVar && this.lex.text === 'DIExpression') {
          ops.push(this.parseMetadata() as unknown as MDNode);
          continue;
        }
        this.expect(Tok.Exclaim, "Expected '!' here");
        const loc = this.lex.start;
        const id = this.expectUInt('expected integer');
        ops.push(this.mdSlot(id, loc));
      } while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RBrace, "expected end of metadata node");
    const existing = this.m.namedMetadata.get(name);
    if (existing) existing.push(...ops);
    else this.m.namedMetadata.set(name, ops);
  }

  protected parseStandaloneMetadata(): void {
    this.next();
    const id = this.expectUInt('expected integer');
    this.expect(Tok.Equal, "expected '=' here");
    // LLVM reads the node first and reports a reused id after it
    const redefined = this.mdDefined.has(id);
    const distinct = this.eatIdent('distinct');
    let shell = redefined ? undefined : this.mdSlots.get(id);
    const bodyLoc = this.lex.start;
    if (this.t() === Tok.Exclaim && this.peek() === Tok.LBrace) {
      this.next();
      const ops = this.parseMDTupleBody();
      shell ??= this.ctx.md.shell('tuple', distinct);
      (shell as { distinct: boolean }).distinct = distinct;
      (shell as MDTuple).operands = ops;
    } else if (this.t() === Tok.MetadataVar) {
      const className = this.lex.text;
      if (className === 'DIExpression' || className === 'DIArgList') {
        // A numbered DIExpression is legal input; it is printed inline everywhere.
        const expr = this.parseMetadata();
        if (redefined) throw this.error('Metadata id is already used');
        this.exprSlots.set(id, expr);
        this.mdDefined.add(id);
        return;
      }
      this.next();
      const fields = this.parseDIFields(className, distinct, bodyLoc);
      const isDistinct = distinct || (this.odrTypeUniquing && becomesDistinct(className, fields));
      shell = shell === undefined ? this.ctx.md.shell('di', isDistinct, className) : convertShellToDI(shell, className, isDistinct);
      shell.fields = fields;
    } else {
      this.expect(Tok.Exclaim, "Expected '!' here");
      throw this.error("expected '{' here");
    }
    if (redefined) throw this.error('Metadata id is already used');
    this.mdSlots.set(id, shell);
    this.mdDefined.add(id);
  }

  protected parseMDTupleBody(): (Metadata | null)[] {
    this.expect(Tok.LBrace, "expected '{' here");
    const ops: (Metadata | null)[] = [];
    if (this.t() !== Tok.RBrace) {
      do {
        if (this.isIdent('null')) {
          this.next();
          ops.push(null);
        } else if (this.t() === Tok.Exclaim || this.t() === Tok.MetadataVar) ops.push(this.parseMetadata());
        else {
          const typeLoc = this.lex.start;
          const t = this.parseType(false, 'expected metadata operand');
          if (t.kind === 'metadata') throw this.error('invalid metadata-value-metadata roundtrip', typeLoc);
          ops.push(this.wrapValue(this.parseValue(t, this.pfs)));
        }
      } while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RBrace, "expected end of metadata node");
    return ops;
  }

  /** `!N`, `!{...}`, `!"str"`, `!DIxxx(...)`, `distinct !{...}` inline. */
  protected parseMetadata(): Metadata {
    const l = this.lex;
    const loc = l.start;
    if (this.isIdent('distinct')) {
      this.next();
      if (this.t() === Tok.Exclaim && this.peek() === Tok.LBrace) {
        this.next();
        return this.ctx.md.distinctTuple(this.parseMDTupleBody());
      }
      if (this.t() === Tok.MetadataVar) {
        const className = l.text;
        const classLoc = l.start;
        this.next();
        return this.ctx.md.di(className, this.parseDIFields(className, true, classLoc), true);
      }
      throw this.error('expected metadata node');
    }
    if (l.kind === Tok.MetadataVar) {
      const className = l.text;
      this.next();
      if (className === 'DIExpression') return this.parseDIExpressionBody();
      if (className === 'DIArgList') throw this.error('DIArgList is only valid as a call argument', loc);
      const fields = this.parseDIFields(className, false, loc);
      if (this.odrTypeUniquing && becomesDistinct(className, fields)) return this.ctx.md.di(className, fields, true);
      const node = this.ctx.md.shell('di', false, className);
      node.fields = fields;
      this.inlineNodes.push(node);
      return node;
    }
    this.expect(Tok.Exclaim, "expected '!' here");
    if (l.kind === Tok.String) {
      const s = l.text;
      this.next();
      return this.ctx.md.string(s);
    }
    if (l.kind === Tok.LBrace) {
      const node = this.ctx.md.shell('tuple', false);
      node.operands = this.parseMDTupleBody();
      this.inlineNodes.push(node);
      return node;
    }
    // `!N`: LLVM reads the number with its plain integer reader
    const idLoc = l.start;
    const id = this.expectUInt('expected integer');
    const expr = this.exprSlots.get(id);
    if (expr !== undefined) return expr;
    return this.mdSlot(id, idLoc);
  }

  protected parseDIExpressionBody(): Metadata {
    this.expect(Tok.LParen, "expected '(' here");
    const elements: (string | bigint)[] = [];
    if (this.t() !== Tok.RParen) {
      do {
        if (this.t() === Tok.Ident) {
          elements.push(this.lex.text);
          this.next();
        } else if (this.t() === Tok.Int) elements.push(this.expectInt('expected integer'));
        else throw this.error('expected unsigned integer');
      } while (this.eat(Tok.Comma));
    }
    this.expect(Tok.RParen, "expected ')' here");
    return this.ctx.md.expression(elements);
  }

  /** The fields of `!className(...)`; `nodeLoc` is where `!className` is. */
  protected parseDIFields(className: string, distinct: boolean, nodeLoc: number): Map<string, DIFieldValue> {
    if (!isKnownDIClass(className)) throw this.error('expected metadata type', nodeLoc);
    if (!distinct && (className === 'DICompileUnit' || className === 'DIAssignID'))
      throw this.error(`missing 'distinct', required for !${className}${className === 'DIAssignID' ? '()' : ''}`, nodeLoc);
    this.expect(Tok.LParen, "expected '(' here");
    const fields = new Map<string, DIFieldValue>();
    if (this.t() !== Tok.RParen) {
      do {
        if (this.t() !== Tok.LabelStr) throw this.error(`expected field label here`);
        const name = this.lex.text;
        if (fields.has(name)) throw this.error(`field '${name}' cannot be specified more than once`);
        const problem = checkDIFields(className, new Map([[name, null]]));
        if (problem !== undefined && problem.startsWith('invalid field')) throw this.error(problem);
        this.next();
        const valueLoc = this.lex.start;
        const value = this.parseDIFieldValue(className, name);
        const wrongKind = diFieldProblem(className, name, value);
        if (wrongKind !== undefined) throw this.error(wrongKind, valueLoc);
        fields.set(name, value);
      } while (this.eat(Tok.Comma));
    }
    const missing = checkDIFields(className, fields);
    if (missing !== undefined) throw this.error(missing);
    this.expect(Tok.RParen, "expected ')' here");
    if (className === 'DISubprogram' && !distinct && isSubprogramDefinition(fields))
      throw this.error("missing 'distinct', required for !DISubprogram that is a Definition", nodeLoc);
    return fields;
  }

  protected parseDIFieldValue(className: string, fieldName: string): DIFieldValue {
    const l = this.lex;
    switch (l.kind) {
      case Tok.Int:
        return { k: 'int', v: this.expectInt('expected integer') };
      case Tok.String: {
        const s = l.text;
        this.next();
        return { k: 'str', v: s };
      }
      case Tok.Exclaim:
      case Tok.MetadataVar:
        return { k: 'md', v: this.parseMetadata() };
      case Tok.IntType:
      case Tok.LBrace:
      case Tok.LSquare:
      case Tok.Less:
      case Tok.LocalVar:
      case Tok.LocalVarID: {
        const t = this.parseType();
        return { k: 'md', v: this.wrapValue(this.parseValue(t, this.pfs)) };
      }
      case Tok.Ident: {
        const w = l.text;
        if (w === 'true' || w === 'false') {
          this.next();
          return { k: 'bool', v: w === 'true' };
        }
        if (w === 'null') {
          this.next();
          return { k: 'md', v: null };
        }
        if (w === 'distinct') return { k: 'md', v: this.parseMetadata() };
        if (TYPE_KEYWORDS.has(w)) {
          // a typed value, e.g. `value: ptr @g` in DITemplateValueParameter
          const t = this.parseType();
          return { k: 'md', v: this.wrapValue(this.parseValue(t, this.pfs)) };
        }
        const parts: (string | bigint)[] = [];
        this.next();
        parts.push(w);
        let isFlags = false;
        while (this.eat(Tok.Bar)) {
          isFlags = true;
          if (this.t() === Tok.Int) parts.push(this.expectInt('expected integer'));
          else if (this.t() === Tok.Ident) {
            parts.push(this.lex.text);
            this.next();
          } else throw this.error('expected flag');
        }
        if (isFlags || fieldName === 'flags' || fieldName === 'spFlags') return { k: 'flags', v: parts };
        return { k: 'enum', v: w };
      }
      default:
        throw this.error(diFieldExpected(className, fieldName) ?? `invalid value for field '${fieldName}' of !${className}`);
    }
  }

  /** `!kind !N` (no leading comma). */
  protected parseAttachmentNoComma(list: Attachment[]): void {
    const attachment = this.parseOneAttachment();
    const kind = attachment.kind;
    for (let i = 0; i < list.length; i++) {
      if (list[i]!.kind === kind) {
        list[i] = attachment;
        return;
      }
    }
    list.push(attachment);
  }

  /** One `!kind !node` (the current token is the `!kind`). */
  protected parseOneAttachment(): Attachment {
    return this.parseOneAttachmentList()[0]!;
  }

  /**
   * One `!kind !node` as a frozen list of one, shared by every instruction with just that
   * attachment (`!tbaa !8` on thousands of loads and stores): one list instead of one each.
   */
  protected parseOneAttachmentList(): readonly Attachment[] {
    if (this.t() !== Tok.MetadataVar) throw this.error('expected metadata attachment');
    const kind = this.ctx.md.kinds.id(this.lex.text);
    if (kind === 0 || kind === 38 || this.lex.text === 'heapallocsite') this.sawDebugInfo = true;
    this.next();
    const node = this.parseMetadata();
    if (node.mk !== 'tuple' && node.mk !== 'di') throw this.error('expected metadata node');
    let list = this.sharedAttachments.get(node);
    if (list === undefined || list[0]!.kind !== kind) {
      const fresh = Object.freeze([{ kind, node }]);
      if (list === undefined) this.sharedAttachments.set(node, fresh);
      list = fresh;
    }
    return list;
  }

  /** `, !kind !N` after a global variable (comma already consumed). */
  protected parseAttachment(list: Attachment[]): void {
    this.parseAttachmentNoComma(list);
  }
}

/**
 * Whether a `!DISubprogram` is a definition: its `spFlags` has `DISPFlagDefinition`, or, in older
 * IR without `spFlags`, `isDefinition` is true (its default).
 */
function isSubprogramDefinition(fields: ReadonlyMap<string, DIFieldValue>): boolean {
  const sp = fields.get('spFlags');
  if (sp !== undefined) {
    const parts = sp.k === 'flags' ? sp.v : sp.k === 'enum' ? [sp.v] : sp.k === 'int' ? [sp.v] : [];
    return parts.some((p) => p === 'DISPFlagDefinition' || (typeof p === 'bigint' && (p & 8n) !== 0n));
  }
  const def = fields.get('isDefinition');
  return def === undefined || (def.k === 'bool' && def.v);
}

/**
 * A forward-referenced `!N` starts as an empty tuple shell; when its definition turns out to be a
 * specialized node, the same object becomes that node so no reference needs rewriting.
 */
function convertShellToDI(shell: MDNode, className: string, distinct: boolean): DINode {
  if (shell.mk === 'di') {
    (shell as { distinct: boolean }).distinct = distinct;
    return shell;
  }
  const node = shell as unknown as Record<string, unknown>;
  Object.setPrototypeOf(node, DINode.prototype);
  node['mk'] = 'di';
  delete node['operands'];
  node['className'] = className;
  node['fields'] = new Map<string, DIFieldValue>();
  node['distinct'] = distinct;
  return node as unknown as DINode;
}

/** With ODR type uniquing (opt's setting) a DICompositeType with an identifier is built distinct. */
function becomesDistinct(className: string, fields: ReadonlyMap<string, DIFieldValue>): boolean {
  if (className !== 'DICompositeType') return false;
  const id = fields.get('identifier');
  return id !== undefined && id.k === 'str' && id.v !== '';
}
