import { describe, expect, it } from 'vitest';
import { Lexer, Tok, WARM_UP_TEXT, decimalValue, warmUpLexer } from './lexer.js';
import { AttributeList } from '../model/attributes.js';
import { GlobalVariable, IRFunction } from '../model/values.js';
import { parseModule } from './parser.js';

/** Every token of `text`, as kind and text (where the token has one). */
function tokens(text: string): { kind: Tok; text?: string; num?: number }[] {
  const lexer = new Lexer(text, 't.ll');
  const out: { kind: Tok; text?: string; num?: number }[] = [];
  for (let kind = lexer.next(); kind !== Tok.Eof; kind = lexer.next()) {
    if (kind === Tok.LocalVarID || kind === Tok.GlobalID || kind === Tok.AttrGrpID || kind === Tok.LabelID || kind === Tok.IntType) out.push({ kind, num: lexer.num });
    else if (kind === Tok.Error || kind === Tok.Equal || kind === Tok.Comma) out.push({ kind });
    else out.push({ kind, text: lexer.text });
  }
  return out;
}

describe('the lexer warm-up text', () => {
  it('holds every kind of token, so V8 has seen each one before it optimizes the lexer', () => {
    const seen = new Set<number>(tokens(WARM_UP_TEXT).map((t) => t.kind));
    // every kind after Eof, up to the last one (Ident); a const enum has no runtime object to list
    const missing: number[] = [];
    for (let kind: number = Tok.Error; kind <= Tok.Ident; kind++) if (!seen.has(kind)) missing.push(kind);
    expect(missing).toEqual([]);
  });

  it('warming up changes nothing the lexer or parser produces, and runs once', () => {
    const ir = 'define i32 @f(i32 %0) {\n1:\n  %x = add i32 %0, -7\n  ret i32 %x\n}\n';
    const before = tokens(ir);
    warmUpLexer();
    warmUpLexer();
    expect(tokens(ir)).toEqual(before);
    const m = parseModule(ir);
    expect(m.functions[0]!.blocks[0]!.instructions.map((i) => i.opcode)).toEqual(['add', 'ret']);
  });
});

describe('decimalValue', () => {
  it('reads short and long digit runs as Number does', () => {
    for (const digits of ['0', '7', '32', '8388608', '123456789012345', '1234567890123456', '99999999999999999999', '000012']) {
      const src = `i${digits}:`;
      expect(decimalValue(src, 1, 1 + digits.length)).toBe(Number(digits));
    }
  });

  it('gives integer widths and numbered values', () => {
    expect(tokens('i32 %12 @7 #3 42:')).toEqual([
      { kind: Tok.IntType, num: 32 },
      { kind: Tok.LocalVarID, num: 12 },
      { kind: Tok.GlobalID, num: 7 },
      { kind: Tok.AttrGrpID, num: 3 },
      { kind: Tok.LabelID, num: 42 },
    ]);
  });
});

describe('object shapes', () => {
  // V8 gives objects with the same fields in the same order one hidden class; a field first
  // assigned after construction gives a second one, and optimized code made for the first is
  // thrown away (it was, for the lexer, at the first `peek`).
  it('a lexer has all its fields from construction on', () => {
    const lexer = new Lexer('%a = add i32 1, 2 ; x', 't.ll');
    const fields = Object.keys(lexer);
    lexer.next();
    lexer.save();
    lexer.next();
    lexer.restore();
    while (lexer.next() !== Tok.Eof) void lexer.text;
    expect(Object.keys(lexer)).toEqual(fields);
  });

  it('parsed functions and globals have the fields of freshly constructed ones', () => {
    const m = parseModule(
      [
        '$c = comdat any',
        '@g = global i32 0, align 4, comdat($c)',
        '@h = external global i32',
        'declare void @d()',
        'define void @f() comdat($c) align 4 personality ptr @d {',
        '  ret void',
        '}',
      ].join('\n'),
    );
    const ctx = m.context;
    const fresh = {
      global: new GlobalVariable('x', ctx.i32, ctx.ptr(0)),
      fn: new IRFunction('x', ctx.fn(ctx.void, [], false), ctx.ptr(0), AttributeList.empty),
    };
    for (const g of m.globals) expect(Object.keys(g)).toEqual(Object.keys(fresh.global));
    for (const f of m.functions) expect(Object.keys(f)).toEqual(Object.keys(fresh.fn));
  });
});

describe('identifier text', () => {
  // the lexer interns a keyword while it scans it: the parser compares keywords by identity and
  // `isIdent` only compares the kind and the string
  it('is one string per spelling, the same one V8 keeps for the literal', () => {
    const lexer = new Lexer('add nsw add x-y: add: addrspace', 't.ll');
    const texts: string[] = [];
    const isAdd: boolean[] = [];
    for (let kind = lexer.next(); kind !== Tok.Eof; kind = lexer.next()) {
      texts.push(lexer.text);
      isAdd.push(lexer.isIdent('add'));
    }
    expect(texts).toEqual(['add', 'nsw', 'add', 'x-y', 'add', 'addrspace']);
    expect(Object.is(texts[0], texts[2])).toBe(true);
    // a label spelled like a keyword is no identifier, nor is a longer word starting with one
    expect(isAdd).toEqual([true, false, true, false, false, false]);
  });

  it('keeps its text across a lookahead', () => {
    const lexer = new Lexer('align 4, addrspace(1)', 't.ll');
    lexer.next();
    lexer.save();
    lexer.next();
    lexer.next();
    lexer.next();
    expect(lexer.isIdent('addrspace')).toBe(true);
    lexer.restore();
    expect(lexer.isIdent('align')).toBe(true);
    expect(lexer.text).toBe('align');
  });
});
