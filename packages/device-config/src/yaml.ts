import { createRequire } from 'node:module';
import type * as YamlModule from 'yaml';

export type Yaml = typeof YamlModule;

let yaml: Yaml | undefined;

/**
 * The `yaml` package, loaded when the first YAML file is read rather than on import: it is about
 * 70 modules, and most commands (every `syclkit opt` run) read no YAML at all. Shared by every
 * syclkit package that reads YAML (device configuration files here, device descriptions in the
 * runtime).
 */
export function loadYaml(): Yaml {
  return (yaml ??= createRequire(import.meta.url)('yaml') as Yaml);
}
