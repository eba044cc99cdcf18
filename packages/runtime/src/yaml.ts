import { createRequire } from 'node:module';
import type * as YamlModule from 'yaml';

export type Yaml = typeof YamlModule;

let yaml: Yaml | undefined;

/**
 * The `yaml` package, loaded when the first YAML file is read rather than on import: it is about
 * 70 modules, and most runs describe devices without a file.
 */
export function loadYaml(): Yaml {
  return (yaml ??= createRequire(import.meta.url)('yaml') as Yaml);
}
