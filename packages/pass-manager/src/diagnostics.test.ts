import { describe, expect, it } from 'vitest';
import {
  DiagnosticError,
  applyPolicy,
  diagnosticOf,
  diagnosticToJSON,
  hasErrors,
  formatDiagnostic,
  formatDiagnostics,
  formatDiagnosticsJSON,
  isDiagnosticCode,
  parseDiagnosticFlags,
  sortDiagnostics,
  type Diagnostic,
} from './index.js';

const mismatch: Diagnostic = {
  severity: 'warning',
  code: 'sycl-aspect-mismatch',
  message: "function 'func1(int)' uses aspect 'fp16' not listed in its 'sycl::device_has' attribute",
  pass: 'sycl-propagate-aspects-usage',
  location: { file: 'file.cpp', line: 12, column: 5, function: '_Z5func1i' },
  notes: [
    { message: "propagated from call to function 'func2(int, int)'", location: { file: 'file.cpp', line: 20, column: 3 } },
    { message: "propagated from call to function 'func3(int, int, int)'", location: { file: 'file.cpp', line: 30, column: 3 } },
  ],
  fatal: false,
};

describe('formatDiagnostic', () => {
  it('renders like clang: location, severity, message, flag, then one note line each', () => {
    expect(formatDiagnostic(mismatch)).toBe(
      "file.cpp:12:5: warning: function 'func1(int)' uses aspect 'fp16' not listed in its 'sycl::device_has' attribute [-Wsycl-aspect-mismatch]\n" +
        "file.cpp:20:3: note: propagated from call to function 'func2(int, int)'\n" +
        "file.cpp:30:3: note: propagated from call to function 'func3(int, int, int)'\n",
    );
  });

  it('shows -Werror for promoted warnings, -R for remarks, the code for errors and "fatal error" for fatal ones', () => {
    const base = { code: 'c', message: 'm', notes: [], fatal: false } as const;
    expect(formatDiagnostic({ ...base, severity: 'error', reportedSeverity: 'warning' })).toBe('error: m [-Werror,-Wc]\n');
    expect(formatDiagnostic({ ...base, severity: 'remark' })).toBe('remark: m [-Rc]\n');
    expect(formatDiagnostic({ ...base, severity: 'error' })).toBe('error: m [c]\n');
    expect(formatDiagnostic({ ...base, severity: 'error', fatal: true })).toBe('fatal error: m [c]\n');
    expect(formatDiagnostic({ ...base, severity: 'note' })).toBe('note: m\n');
  });

  it('can leave out codes for byte-exact intel/llvm output', () => {
    expect(formatDiagnostic(mismatch, { showCodes: false }).split('\n')[0]).toBe(
      "file.cpp:12:5: warning: function 'func1(int)' uses aspect 'fp16' not listed in its 'sycl::device_has' attribute",
    );
  });

  it('falls back to the debug location, then to the function name, then to the given file', () => {
    const base = { severity: 'warning', code: 'c', message: 'm', notes: [], fatal: false } as const;
    expect(formatDiagnostic({ ...base, location: { debugLoc: { line: 4, column: 2, file: 'a.cpp' } } })).toBe('a.cpp:4:2: warning: m [-Wc]\n');
    expect(formatDiagnostic({ ...base, location: { function: 'kernel' } }, { file: 'in.ll' })).toBe("in.ll: in function 'kernel': warning: m [-Wc]\n");
    expect(formatDiagnostic({ ...base, location: { function: 'kernel' } })).toBe("in function 'kernel': warning: m [-Wc]\n");
    expect(formatDiagnostic({ ...base, location: { line: 7 } }, { file: 'in.ll' })).toBe('in.ll:7: warning: m [-Wc]\n');
  });

  it('ends a list with clang’s summary line', () => {
    const error: Diagnostic = { ...mismatch, severity: 'error', notes: [] };
    expect(formatDiagnostics([mismatch, mismatch, error]).split('\n').at(-2)).toBe('2 warnings and 1 error generated.');
    expect(formatDiagnostics([error])).toMatch(/\n1 error generated\.\n$/);
    expect(formatDiagnostics([])).toBe('');
    expect(formatDiagnostics([error], { summary: false })).not.toMatch(/generated/);
  });
});

describe('JSON form', () => {
  it('has a fixed key order and leaves out absent fields', () => {
    const json = diagnosticToJSON({ ...mismatch, notes: [{ message: 'n' }] });
    expect(Object.keys(json)).toEqual(['severity', 'code', 'message', 'pass', 'fatal', 'location', 'notes']);
    expect(json.notes).toEqual([{ message: 'n' }]);
    expect(json.location).toEqual({ file: 'file.cpp', line: 12, column: 5, function: '_Z5func1i' });
  });

  it('keeps debug locations with their inlined-at chain', () => {
    const d: Diagnostic = { ...mismatch, location: { debugLoc: { line: 1, column: 2, scope: 'f', inlinedAt: { line: 9 } } }, notes: [] };
    expect(JSON.parse(formatDiagnosticsJSON([d]))[0].location).toEqual({ debugLoc: { line: 1, column: 2, scope: 'f', inlinedAt: { line: 9 } } });
  });
});

describe('applyPolicy', () => {
  it('promotes warnings under -Werror unless a per-code override says otherwise', () => {
    expect(applyPolicy(mismatch, { warningsAsErrors: true })).toMatchObject({ severity: 'error', reportedSeverity: 'warning' });
    expect(applyPolicy(mismatch, { warningsAsErrors: true, overrides: { 'sycl-aspect-mismatch': 'warning' } })).toBe(mismatch);
    expect(applyPolicy(mismatch, { overrides: { 'sycl-aspect-mismatch': 'off' } })).toBeUndefined();
    expect(applyPolicy(mismatch, { overrides: { 'sycl-aspect-mismatch': 'fatal' } })).toMatchObject({ severity: 'error', fatal: true });
    expect(applyPolicy(mismatch, { overrides: { 'sycl-aspect-mismatch': 'remark' } })).toMatchObject({ severity: 'remark' });
  });

  it('never drops or downgrades a fatal diagnostic', () => {
    const fatal: Diagnostic = { ...mismatch, severity: 'error', fatal: true };
    expect(applyPolicy(fatal, { overrides: { 'sycl-aspect-mismatch': 'off' } })).toBe(fatal);
  });

  it('ignores inherited object keys as codes', () => {
    const d: Diagnostic = { ...mismatch, code: 'constructor' };
    expect(applyPolicy(d, { overrides: {} })).toBe(d);
  });
});

describe('parseDiagnosticFlags', () => {
  it('reads clang-style flags, later ones winning', () => {
    const { policy, diagnostics } = parseDiagnosticFlags(['-Werror', '-Wno-error=a', '-Wno-b', '-Rc', '-Werror=d', '-Wd', '-We', '-Rno-f']);
    expect(policy).toEqual({ warningsAsErrors: true, overrides: { a: 'warning', b: 'off', c: 'remark', d: 'warning', e: 'warning', f: 'off' } });
    expect(diagnostics).toEqual([]);
    expect(parseDiagnosticFlags(['-Werror', '-Wno-error']).policy.warningsAsErrors).toBeUndefined();
  });

  it('warns about unknown codes with a suggestion, like clang', () => {
    const { policy, diagnostics } = parseDiagnosticFlags(['-Wno-sycl-aspect-mismatc'], { knownCodes: ['sycl-aspect-mismatch'] });
    expect(policy.overrides).toEqual({});
    expect(formatDiagnostic(diagnostics[0]!)).toBe(
      "warning: unknown warning option '-Wno-sycl-aspect-mismatc'; did you mean '-Wno-sycl-aspect-mismatch'? [-Wunknown-warning-option]\n",
    );
  });

  it('throws on arguments that are not diagnostic flags', () => {
    expect(() => parseDiagnosticFlags(['-O2'])).toThrow(TypeError);
    expect(() => parseDiagnosticFlags(['-W'])).toThrow(TypeError);
  });
});

describe('codes and ordering', () => {
  it('accepts kebab-case codes only', () => {
    expect(isDiagnosticCode('sycl-aspect-mismatch')).toBe(true);
    expect(isDiagnosticCode('fp64-emulation2')).toBe(true);
    for (const bad of ['', 'Sycl', 'a--b', '-a', 'a-', 'a_b', '1a']) expect(isDiagnosticCode(bad)).toBe(false);
  });

  it('sorts by file, line, column, then severity and code', () => {
    const at = (file: string, line: number, column: number, code = 'c', severity: Diagnostic['severity'] = 'warning'): Diagnostic => ({
      severity,
      code,
      message: 'm',
      location: { file, line, column },
      notes: [],
      fatal: false,
    });
    const sorted = sortDiagnostics([at('b', 1, 1), at('a', 2, 1), at('a', 1, 9), at('a', 1, 2, 'z'), at('a', 1, 2, 'a'), at('a', 1, 2, 'z', 'error')]);
    expect(sorted.map((d) => `${d.location!.file}:${d.location!.line}:${d.location!.column} ${d.severity} ${d.code}`)).toEqual([
      'a:1:2 error z',
      'a:1:2 warning a',
      'a:1:2 warning z',
      'a:1:9 warning c',
      'a:2:1 warning c',
      'b:1:1 warning c',
    ]);
  });
});

describe('errors that carry their diagnostics', () => {
  const catalog = { 'bad-thing': { severity: 'error', summary: 'A bad thing.' }, 'odd-thing': { severity: 'warning', summary: 'An odd thing.' } } as const;

  it('diagnosticOf takes the severity from the catalog and refuses codes it does not list', () => {
    expect(diagnosticOf(catalog, 'odd-thing', 'odd')).toEqual({ severity: 'warning', code: 'odd-thing', message: 'odd', notes: [], fatal: false });
    expect(diagnosticOf(catalog, 'odd-thing', 'odd', { severity: 'error' }).severity).toBe('error');
    expect(() => diagnosticOf(catalog, 'other-thing', 'x')).toThrow(TypeError);
  });

  it('renders the source line with a caret (tabs kept, ~ for a length) under the message', () => {
    const d = diagnosticOf(catalog, 'bad-thing', 'expected type', { location: { file: 'a.ll', line: 3, column: 6, source: '\t%x = alloca', length: 6 } });
    expect(formatDiagnostic(d, { showCodes: false })).toBe('a.ll:3:6: error: expected type\n\t%x = alloca\n\t    ^~~~~~\n');
    const end = diagnosticOf(catalog, 'bad-thing', 'end', { location: { file: 'p', line: 1, column: 4, source: 'abc', length: 3 } });
    expect(formatDiagnostic(end, { showCodes: false })).toBe('p:1:4: error: end\nabc\n   ^\n');
  });

  it('DiagnosticError: the message is the first error, render() prints every diagnostic without code flags', () => {
    const error = new DiagnosticError([diagnosticOf(catalog, 'odd-thing', 'first a warning'), diagnosticOf(catalog, 'bad-thing', 'then the error', { location: { file: 'f', line: 2, column: 1 } })]);
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('then the error');
    expect(error.diagnostic.code).toBe('bad-thing');
    expect(error.render()).toBe('warning: first a warning\nf:2:1: error: then the error\n');
    expect(hasErrors(error.diagnostics)).toBe(true);
    expect(() => new DiagnosticError([])).toThrow(TypeError);
  });
});
