/**
 * A unit kind of the contributor's own: a text module (a name and its lines). It stands in for
 * the module adapter `@syclkit/ir` will provide; only the public pass-manager API is used.
 */
import type { UnitKind } from '@syclkit/pass-manager';

export interface TextModule {
  name: string;
  lines: string[];
}

export const textModuleKind: UnitKind<TextModule> = {
  name: 'text-module',
  fingerprint: (m) => m.lines.join('\n'),
  print: (m) => m.lines.join('\n') + '\n',
  label: (m) => m.name,
};
