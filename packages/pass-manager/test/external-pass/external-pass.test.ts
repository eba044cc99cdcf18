/**
 * A contributor's view: define a pass in its own module, register it, and run it from pipeline
 * text, importing only `@syclkit/pass-manager` (the built package entry, as users get it).
 */
import { describe, expect, it } from 'vitest';
import { createRegistry, formatDiagnostics, parseDiagnosticFlags, verifyAnalysisInvalidation } from '@syclkit/pass-manager';
import { stripComments } from './strip-comments.js';
import { textModuleKind, type TextModule } from './text-module.js';

const registry = createRegistry({ passes: [stripComments], presets: { tidy: 'strip-comments<keep-license>' } });
const source = (): TextModule => ({ name: 'input.txt', lines: ['; SPDX-License-Identifier: MIT', 'code 1', '  ; note', '# hash', 'code 2'] });

describe('a pass defined outside the monorepo', () => {
  it('runs from pipeline text with its options', () => {
    const module = source();
    const result = registry.build<TextModule>('strip-comments<keep-license>', { unit: textModuleKind }).run(module, {
      instrumentations: [verifyAnalysisInvalidation()],
    });
    expect(module.lines).toEqual(['; SPDX-License-Identifier: MIT', 'code 1', '# hash', 'code 2']);
    expect(result.diagnostics.map((d) => [d.pass, d.code, d.severity])).toEqual([['strip-comments', 'comment-stripped', 'remark']]);
    expect(formatDiagnostics(result.diagnostics)).toBe("input.txt:3:1: remark: removed '; note' [-Rcomment-stripped]\n");
  });

  it('prints its canonical pipeline and presets like --print-pipeline', () => {
    expect(registry.print(registry.parse('tidy'))).toBe('strip-comments<keep-license;style=asm>');
    expect(registry.print(registry.parse('strip-comments<style=cpp>'))).toBe('strip-comments<no-keep-license;style=cpp>');
  });

  it('reads its command-line flag through the registry', () => {
    expect(registry.commandLineFlags().map((f) => f.syntax)).toEqual(['-strip-comments-extra-markers=<marker,...>']);
    const flags = registry.parseFlags([['strip-comments-extra-markers', '#']]);
    const module = source();
    registry.build<TextModule>('strip-comments', { unit: textModuleKind, flags }).run(module);
    expect(module.lines).toEqual(['code 1', 'code 2']);
  });

  it('lets users silence its remarks by code', () => {
    const { policy } = parseDiagnosticFlags(['-Rno-comment-stripped'], { knownCodes: registry.diagnosticCodes().keys() });
    const result = registry.build<TextModule>('strip-comments', { unit: textModuleKind }).run(source(), { policy });
    expect(result.diagnostics).toEqual([]);
  });
});
