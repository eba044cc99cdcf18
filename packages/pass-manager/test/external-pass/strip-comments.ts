/**
 * An example pass written outside the monorepo: a factory with a kebab-case name, typed
 * options, a command-line flag, declared diagnostics, and an honest PreservedAnalyses.
 */
import { definePass, flag, option, PreservedAnalyses } from '@syclkit/pass-manager';
import { textModuleKind } from './text-module.js';

const MARKERS = { asm: ';', shell: '#', cpp: '//' } as const;

export const stripComments = definePass({
  name: 'strip-comments',
  unit: textModuleKind,
  summary: 'Removes comment lines.',
  options: {
    keepLicense: option.boolean({ doc: 'Keep lines that mention a license' }),
    style: option.enum(['asm', 'shell', 'cpp'], { doc: 'Comment style: ; or # or //', default: 'asm' }),
  },
  flags: {
    extraMarkers: flag.stringList('strip-comments-extra-markers', { doc: 'More comment markers', valueName: 'marker' }),
  },
  preserves: 'all',
  diagnostics: {
    'comment-stripped': { severity: 'remark', summary: 'A comment line was removed.' },
  },
  create: (options, env) => {
    const markers = [MARKERS[options.style], ...env.flags.extraMarkers];
    return (module, ctx) => {
      const kept: string[] = [];
      module.lines.forEach((line, index) => {
        const comment = markers.some((marker) => line.trimStart().startsWith(marker));
        if (!comment || (options.keepLicense && /license/i.test(line))) {
          kept.push(line);
          return;
        }
        ctx.report({ code: 'comment-stripped', message: `removed '${line.trim()}'`, location: { file: module.name, line: index + 1, column: 1 } });
      });
      if (kept.length === module.lines.length) return PreservedAnalyses.all();
      module.lines = kept;
      return PreservedAnalyses.none();
    };
  },
});
