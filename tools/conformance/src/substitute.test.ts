import { describe, expect, it } from 'vitest';
import { parseTestScript, ScriptError } from './script.js';
import { applySubstitutions, defaultSubstitutions, substituteIfElse, substituteLine } from './substitute.js';

const paths = { sourcePath: '/corpus/llvm/test/dir/case.ll', tmpDir: '/work/7/Output', tmpBase: '/work/7/Output/case.ll' };
const defaults = defaultSubstitutions(paths);
const sub = (line: string): string => substituteLine(line, defaults);

describe('lit substitutions', () => {
  it('replaces %s with the test file and %S, %p with its folder', () => {
    expect(sub('opt < %s -S | FileCheck %s')).toBe('opt < /corpus/llvm/test/dir/case.ll -S | FileCheck /corpus/llvm/test/dir/case.ll');
    expect(sub('-I %p/../../include %S')).toBe('-I /corpus/llvm/test/dir/../../include /corpus/llvm/test/dir');
  });

  it('replaces %t with <tmpBase>.tmp, keeping suffixes, and %T with the temp folder', () => {
    expect(sub('-o %t.table %t_0.ll %tA.table %t2')).toBe(
      '-o /work/7/Output/case.ll.tmp.table /work/7/Output/case.ll.tmp_0.ll /work/7/Output/case.ll.tmpA.table /work/7/Output/case.ll.tmp2',
    );
    expect(sub('ls %T')).toBe('ls /work/7/Output');
  });

  it('turns %% into a literal % that no later substitution touches', () => {
    expect(sub('printf 100%% %%s %%t')).toBe('printf 100% %s %t');
  });

  it('replaces %{pathsep}, %basename_t and the %/x and %:x path variants', () => {
    expect(sub('a%{pathsep}b %basename_t %/s %:T')).toBe('a:b case.ll /corpus/llvm/test/dir/case.ll work/7/Output');
  });

  it('trims the substituted line like lit', () => {
    expect(sub('   echo %s   ')).toBe('echo /corpus/llvm/test/dir/case.ll');
  });

  it('applies DEFINE before the built-ins so its value may use them, and REDEFINE from then on', () => {
    const script = parseTestScript('; DEFINE: %{check} = FileCheck %s\n; RUN: x | %{check}\n; REDEFINE: %{check} = cat %t\n; RUN: %{check}\n');
    expect(applySubstitutions(script.directives, defaults).map((c) => c.command)).toEqual([
      'x | FileCheck /corpus/llvm/test/dir/case.ll',
      'cat /work/7/Output/case.ll.tmp',
    ]);
  });

  it('reports the line span and raw text of each command', () => {
    const script = parseTestScript('; RUN: a \\\n; RUN: b %s\n');
    expect(applySubstitutions(script.directives, defaults)).toEqual([
      { startLine: 1, endLine: 2, raw: ' a  b %s', command: 'a  b /corpus/llvm/test/dir/case.ll' },
    ]);
  });

  it('rejects redefining an unknown name and defining an existing one', () => {
    const redefine = parseTestScript('; REDEFINE: %{nope} = 1\n; RUN: true\n');
    expect(() => applySubstitutions(redefine.directives, defaults)).toThrow(ScriptError);
    const twice = parseTestScript('; DEFINE: %{x} = 1\n; DEFINE: %{x} = 2\n; RUN: true\n');
    expect(() => applySubstitutions(twice.directives, defaults)).toThrow(/already defined/);
  });

  it('picks the %if branch by feature availability, the %else branch otherwise', () => {
    expect(substituteIfElse('run %if asserts %{ -debug %} %else %{ -quiet %} end', ['asserts'])).toBe('run  -debug  end');
    expect(substituteIfElse('run %if asserts %{ -debug %} %else %{ -quiet %} end', [])).toBe('run  -quiet  end');
    expect(substituteIfElse('a %if x %{ b %if y %{ c %} %}', ['x', 'y'])).toBe('a  b  c  ');
    expect(() => substituteIfElse('%if x b', [])).toThrow(/'%\{' is missing/);
  });
});
