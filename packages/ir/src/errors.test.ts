import { describe, expect, it } from 'vitest';
import { IrSyntaxError } from './errors.js';
import { parseModule } from './reader/parser.js';
import { printModule } from './printer/printer.js';

function syntaxError(text: string): IrSyntaxError {
  try {
    parseModule(text, { filename: 'bad.ll' });
  } catch (error) {
    if (error instanceof IrSyntaxError) return error;
    throw new Error(`expected IrSyntaxError, got ${String(error)}`);
  }
  throw new Error('expected the module to be rejected');
}

describe('syntax errors carry file:line:col and a caret', () => {
  it('points at the token after an alloca without a type', () => {
    const e = syntaxError('define void @f() {\n  %x = alloca\n  ret void\n}\n');
    expect(e.line).toBe(3);
    expect(e.column).toBe(3);
    expect(e.message).toBe('expected type');
    expect(e.render()).toBe('bad.ll:3:3: error: expected type\n  ret void\n  ^\n');
  });

  it('reports a use of an undefined global at the use', () => {
    const e = syntaxError('define void @f() {\n  call void @g()\n  ret void\n}\n');
    expect([e.line, e.column]).toEqual([2, 13]);
    expect(e.message).toBe("use of undefined value '@g'");
  });

  it('reports a use of an undefined local value', () => {
    const e = syntaxError('define i32 @f() {\n  ret i32 %nope\n}\n');
    expect(e.message).toBe("use of undefined value '%nope'");
    expect([e.line, e.column]).toEqual([2, 11]);
  });

  it('rejects a value used with a different type than defined', () => {
    const e = syntaxError('define i32 @f(i64 %a) {\n  ret i32 %a\n}\n');
    expect(e.message).toContain("'%a' defined with type 'i64' but expected 'i32'");
  });

  it('rejects out-of-sequence numbered values like LLParser', () => {
    const e = syntaxError('define i32 @f() {\n  %2 = add i32 1, 2\n  ret i32 %2\n}\n');
    expect(e.message).toBe("instruction expected to be numbered '%1'"); // the unnamed entry block is %0
  });

  it('rejects float constants that are not exact in the type', () => {
    const e = syntaxError('@x = global float 3.14\n');
    expect(e.message).toBe('floating point constant invalid for type');
    expect([e.line, e.column]).toEqual([1, 19]);
  });

  it('rejects references to undefined metadata', () => {
    const e = syntaxError('!named = !{!0}\n');
    expect(e.message).toBe("use of undefined metadata '!0'");
  });

  it('rejects redefinition of a global', () => {
    const e = syntaxError('@a = global i32 0\n@a = global i32 1\n');
    expect(e.message).toBe("redefinition of global '@a'");
    expect(e.line).toBe(2);
  });

  it('reads an attribute group that is never defined as an empty one, as LLVM 16 does', () => {
    const m = parseModule('declare void @f() #3\ndefine void @g() {\n  call void @f() #4\n  ret void\n}\n', { filename: 'ok.ll' });
    expect(m.getFunction('f')!.attributes.fn.isEmpty).toBe(true);
    expect(printModule(m)).toContain('declare void @f()\n');
    expect(printModule(m)).toContain('  call void @f()\n');
  });

  it('rejects an unterminated string', () => {
    const e = syntaxError('source_filename = "abc\n');
    expect(e.message).toBe('end of file in string constant');
  });

  it('keeps tabs in the caret line so the caret lines up', () => {
    const e = syntaxError('define void @f() {\n\t%x = alloca\n\tret void\n}\n');
    expect(e.render().split('\n')[2]).toBe('\t^');
  });
});
