import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractRunLines, parseTestScript, scanKeywords, ScriptError, substituteLineNumbers } from './script.js';
import { defaultCorpus, defaultRepoRoot } from './main.js';

const corpus = defaultCorpus(defaultRepoRoot());
const corpusFile = (path: string): string => readFileSync(join(corpus, path), 'utf8');

describe('RUN-line extraction', () => {
  it('finds RUN: behind any comment prefix', () => {
    const text = ['; RUN: semicolon', '// RUN: slashes', '# RUN: hash', 'RUN: bare', '  ;;  RUN:   indented'].join('\n');
    expect(extractRunLines(text)).toEqual([' semicolon', ' slashes', ' hash', ' bare', '   indented']);
  });

  it('keeps the text after RUN: verbatim apart from trailing whitespace and a CR', () => {
    expect(extractRunLines('; RUN: echo "a  b"   \r\n')).toEqual([' echo "a  b"']);
  });

  it('joins a trailing-backslash line with the next RUN: line, dropping only the backslash', () => {
    const text = ['; RUN: FileCheck %s \\', ';RUN:   --check-prefix=A \\', '; RUN: --implicit-check-not B', '; RUN: next'].join('\n');
    const script = parseTestScript(text);
    expect(script.directives).toEqual([
      { kind: 'run', startLine: 1, endLine: 3, command: ' FileCheck %s    --check-prefix=A  --implicit-check-not B' },
      { kind: 'run', startLine: 4, endLine: 4, command: ' next' },
    ]);
  });

  it('does not treat RUN without a colon as a RUN line, so such a test has none', () => {
    expect(() => parseTestScript('; RUN opt -passes=x %s -S | FileCheck %s\n')).toThrow(new ScriptError("Test has no 'RUN:' line"));
  });

  it('reports the inert corpus test (RUN written without a colon) as having no RUN line', () => {
    const text = corpusFile(
      'llvm/test/SYCLLowerIR/PropagateAspectsUsage/PropagateFunctionWithSyclDetailAspect/propagate-aspects-from-function-with-sycl-detail-2.ll',
    );
    expect(() => parseTestScript(text)).toThrow(/no 'RUN:' line/);
  });

  it('treats the first keyword of a line as the directive, wherever it appears', () => {
    expect(scanKeywords('; CHECK: foo RUN: bar\n; XRUN: baz').map((k) => [k.line, k.keyword, k.value])).toEqual([
      [1, 'RUN:', ' bar'],
      [2, 'RUN:', ' baz'],
    ]);
  });

  it('counts line numbers across lines without keywords', () => {
    expect(scanKeywords('a\nb\n; RUN: x\n\n; RUN: y').map((k) => k.line)).toEqual([3, 5]);
  });

  it('rejects a continuation that never ends', () => {
    expect(() => parseTestScript('; RUN: echo \\\n; CHECK: x\n')).toThrow(/unterminated 'RUN:' directive .* at line 1/);
  });

  it('substitutes %(line), %(line+N) and %(line-N) when reading the line', () => {
    expect(substituteLineNumbers(10, 'a %(line) b %(line+2) c %(line - 3)')).toEqual('a 10 b 12 c 7');
    expect(extractRunLines('\n\n; RUN: echo %(line)')).toEqual([' echo 3']);
  });

  it('collects REQUIRES, UNSUPPORTED and XFAIL lists, joining backslash continuations', () => {
    const script = parseTestScript('; REQUIRES: a, b\\\n; REQUIRES: c\n; UNSUPPORTED: windows\n; XFAIL: *\n; RUN: true\n');
    expect(script.requires).toEqual(['a', 'bc']);
    expect(script.unsupported).toEqual(['windows']);
    expect(script.xfails).toEqual(['*']);
  });

  it('rejects a malformed feature expression', () => {
    expect(() => parseTestScript('; REQUIRES: a &&\n; RUN: true\n')).toThrow(ScriptError);
  });

  it('reads DEFINE and REDEFINE into the ordered script, with continuations', () => {
    const script = parseTestScript('; DEFINE: %{x} = a \\\n; DEFINE:   b\n; RUN: %{x}\n; REDEFINE: %{x}=c\n; RUN: %{x}\n');
    expect(script.directives.map((d) => (d.kind === 'run' ? ['run', d.command] : [d.kind, d.name, d.value]))).toEqual([
      ['define', '%{x}', 'a b'],
      ['run', ' %{x}'],
      ['redefine', '%{x}', 'c'],
      ['run', ' %{x}'],
    ]);
  });

  it('rejects a DEFINE whose name is not %{name}', () => {
    expect(() => parseTestScript('; DEFINE: x = 1\n; RUN: true\n')).toThrow(/malformed/);
  });

  it('reads ALLOW_RETRIES and stops scanning at END.', () => {
    const script = parseTestScript('; ALLOW_RETRIES: 2\n; RUN: first\n; END.\n; RUN: ignored\n');
    expect(script.allowedRetries).toBe(2);
    expect(script.directives).toHaveLength(1);
  });

  it('joins the continued RUN lines of a corpus test into one FileCheck command each', () => {
    const runs = extractRunLines(corpusFile('llvm/test/tools/sycl-post-link/device-code-split/per-joint-matrix-2.ll')).map((r) => r.trim());
    expect(runs[0]).toBe('sycl-post-link -split=auto -symbols -S %s -o %t.table');
    expect(runs[1]).toBe('FileCheck %s -input-file=%t_0.ll --check-prefixes CHECK-IR-K2  --implicit-check-not Kernel1 --implicit-check-not Kernel3');
    expect(runs.every((r) => !r.endsWith('\\'))).toBe(true);
  });

  it('reads the six-line sycl-post-link command of multiple-filtered-outputs.ll as one directive', () => {
    const script = parseTestScript(corpusFile('llvm/test/tools/sycl-post-link/multiple-filtered-outputs.ll'));
    const first = script.directives[0]!;
    expect(first).toMatchObject({ kind: 'run', startLine: 6, endLine: 11 });
    expect(first.kind === 'run' && first.command.replace(/\s+/g, ' ').trim()).toBe(
      'sycl-post-link %s -symbols -split=auto -o %t.table -o intel_gpu_pvc,%t-pvc.table -o intel_gpu_tgllp,%t-tgllp.table -o intel_gpu_cfl,%t-cfl.table -o unrecognized_target,%t-unrecognized.table',
    );
  });
});
