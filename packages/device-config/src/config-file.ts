/**
 * User device configuration files (`-fsycl-device-config-file=<file.yaml>`), in the format of
 * intel/llvm's DeviceConfigFile.md:
 *
 *     intel_gpu_skl:
 *       aspects: [fp16, fp64]
 *       may_support_other_aspects: false
 *       sub-group-sizes: [8, 16, 32]
 *       aot-toolchain: ocloc
 *       aot-toolchain-ocloc-device: skl
 *
 * Loading never mutates anything: it returns a new DeviceConfig, or throws a
 * DeviceConfigFileError (with every problem, each at its file:line:col) and applies nothing.
 */

import { readFileSync } from 'node:fs';
import type { Document, Node, Pair, Scalar } from 'yaml';
import { loadYaml } from './yaml.js';
import type { AspectTable } from './aspects.js';
import type { AotToolchainOption, TargetConfigEntry } from './config-entry.js';
import type { DeviceConfig } from './config.js';
import { DiagnosticError, didYouMean, hasErrors, type Diagnostic } from '@syclkit/pass-manager';
import { configDiagnostic, type DeviceConfigDiagnosticCode, type FileLocation } from './diagnostics.js';
import { oclocDeviceFor } from './builtin-targets.js';

export interface ConfigFileOptions {
  /** File name used in diagnostics (default `<config>`). */
  readonly file?: string;
  /** Table that aspect names are checked against (default: the base configuration's). */
  readonly aspectTable?: AspectTable;
}

export interface ConfigFileResult {
  /** The base configuration with the file's entries applied. */
  readonly config: DeviceConfig;
  /** Warnings (never errors: those throw). */
  readonly diagnostics: readonly Diagnostic[];
}

/** A configuration file that could not be applied: carries every diagnostic; `render()` prints them clang-style. */
export class DeviceConfigFileError extends DiagnosticError {
  override readonly name = 'DeviceConfigFileError';
  constructor(
    readonly file: string,
    diagnostics: readonly Diagnostic[],
  ) {
    super(diagnostics);
  }
}

const KEY_ASPECTS = 'aspects';
const KEY_MAY_SUPPORT_OTHER = 'may_support_other_aspects';
const KEY_SUB_GROUP_SIZES = 'sub-group-sizes';
const KEY_AOT_TOOLCHAIN = 'aot-toolchain';
const AOT_OPTION_PREFIX = 'aot-toolchain-';
const ENTRY_KEYS = [KEY_ASPECTS, KEY_MAY_SUPPORT_OTHER, KEY_SUB_GROUP_SIZES, KEY_AOT_TOOLCHAIN] as const;
const REQUIRED_KEYS = [KEY_ASPECTS, KEY_SUB_GROUP_SIZES] as const;
const TARGET_NAME = /^[A-Za-z0-9_.-]+$/;

/** Reads and applies a configuration file from disk (see applyDeviceConfigYaml). */
export function loadDeviceConfigFile(base: DeviceConfig, path: string, options: Omit<ConfigFileOptions, 'file'> = {}): ConfigFileResult {
  return applyDeviceConfigYaml(base, readFileSync(path, 'utf8'), { ...options, file: path });
}

/**
 * Applies the entries of a YAML configuration file to `base`. Each entry adds a target or
 * replaces the entry of a built-in one. When a file names a target twice (also through an
 * alias), the last entry wins and a warning says so.
 */
export function applyDeviceConfigYaml(base: DeviceConfig, text: string, options: ConfigFileOptions = {}): ConfigFileResult {
  const reader = new ConfigFileReader(base, text, options.file ?? '<config>', options.aspectTable ?? base.aspectTable);
  const entries = reader.read();
  const diagnostics = [...reader.diagnostics].sort(byLocation);
  if (hasErrors(diagnostics)) throw new DeviceConfigFileError(reader.file, diagnostics);
  return { config: base.withEntries(entries), diagnostics };
}

function byLocation(a: Diagnostic, b: Diagnostic): number {
  return (a.location?.line ?? 0) - (b.location?.line ?? 0) || (a.location?.column ?? 0) - (b.location?.column ?? 0);
}

class ConfigFileReader {
  readonly diagnostics: Diagnostic[] = [];
  readonly #yaml = loadYaml();
  readonly #lineCounter = new this.#yaml.LineCounter();
  #document: Document.Parsed | undefined;

  constructor(
    readonly base: DeviceConfig,
    readonly text: string,
    readonly file: string,
    readonly aspectTable: AspectTable,
  ) {}

  read(): TargetConfigEntry[] {
    const document = this.#yaml.parseDocument(this.text, { lineCounter: this.#lineCounter, uniqueKeys: false, prettyErrors: false });
    this.#document = document;
    for (const error of document.errors) this.#report('error', 'yaml-syntax', error.message, error.pos[0]);
    for (const warning of document.warnings) this.#report('warning', 'yaml-warning', warning.message, warning.pos[0]);
    if (document.errors.length > 0) return [];
    const root = document.contents;
    if (root === null || (this.#yaml.isScalar(root) && root.value === null)) {
      this.#report('warning', 'empty-config-file', 'the device configuration file defines no targets', 0);
      return [];
    }
    if (!this.#yaml.isMap(root)) {
      this.#report('error', 'expected-mapping', 'the top level of a device configuration file must map target names to entries', this.#start(root));
      return [];
    }
    const entries: TargetConfigEntry[] = [];
    const firstDefinition = new Map<string, { spelling: string; location: FileLocation }>();
    for (const pair of root.items) {
      const key = this.#keyText(pair, 'target names');
      if (key === undefined) continue;
      const keyLocation = this.#location(this.#start(pair.key as Node));
      if (!TARGET_NAME.test(key)) {
        this.#reportAt('error', 'invalid-target-name', `invalid target name '${key}': use letters, digits, '_', '-' and '.' only`, keyLocation);
        continue;
      }
      const canonical = this.base.knownTargets().find((t) => t.name === key || t.aliases.includes(key))?.name ?? key;
      const previous = firstDefinition.get(canonical);
      if (previous !== undefined) {
        const sameSpelling = previous.spelling === key;
        this.diagnostics.push(
          configDiagnostic(
            'duplicate-target',
            sameSpelling
              ? `target '${key}' is defined more than once; the last definition is used`
              : `'${key}' names the same target as '${previous.spelling}' (${canonical}); the last definition is used`,
            keyLocation,
            [{ message: `previous definition of '${previous.spelling}' is here`, location: previous.location }],
          ),
        );
      } else {
        firstDefinition.set(canonical, { spelling: key, location: keyLocation });
      }
      const entry = this.#entry(canonical, key, pair.value as Node | null, keyLocation);
      if (entry !== undefined) entries.push(entry);
    }
    return entries;
  }

  #entry(name: string, spelling: string, rawValue: Node | null, keyLocation: FileLocation): TargetConfigEntry | undefined {
    const value = this.#deref(rawValue);
    if (value === null || (this.#yaml.isScalar(value) && value.value === null)) {
      this.#reportAt('error', 'empty-entry', `target '${spelling}' has no entry; it needs at least '${KEY_ASPECTS}' and '${KEY_SUB_GROUP_SIZES}'`, keyLocation);
      return undefined;
    }
    if (!this.#yaml.isMap(value)) {
      this.#report('error', 'expected-mapping', `the entry of target '${spelling}' must be a mapping of ${ENTRY_KEYS.join(', ')} and aot-toolchain-<option>`, this.#start(value));
      return undefined;
    }
    const errorsBefore = this.diagnostics.filter((d) => d.severity === 'error').length;
    const seen = new Set<string>();
    let aspects: string[] | undefined;
    let maySupportOtherAspects = false;
    let subGroupSizes: number[] | undefined;
    let aotToolchain: string | undefined;
    const aotToolchainOptions: AotToolchainOption[] = [];
    for (const pair of value.items) {
      const key = this.#keyText(pair, 'entry keys');
      if (key === undefined) continue;
      const keyOffset = this.#start(pair.key as Node);
      if (seen.has(key)) {
        this.#report('error', 'duplicate-key', `key '${key}' appears more than once in the entry of target '${spelling}'`, keyOffset);
        continue;
      }
      seen.add(key);
      const node = this.#deref(pair.value as Node | null);
      if (key === KEY_ASPECTS) aspects = this.#aspects(node, spelling, keyOffset);
      else if (key === KEY_SUB_GROUP_SIZES) subGroupSizes = this.#subGroupSizes(node, spelling, keyOffset);
      else if (key === KEY_MAY_SUPPORT_OTHER) maySupportOtherAspects = this.#boolean(node, key, keyOffset) ?? false;
      else if (key === KEY_AOT_TOOLCHAIN) aotToolchain = this.#string(node, key, keyOffset);
      else if (key.startsWith(AOT_OPTION_PREFIX) && key.length > AOT_OPTION_PREFIX.length) {
        const optionValue = this.#string(node, key, keyOffset);
        if (optionValue !== undefined) aotToolchainOptions.push({ name: key.slice(AOT_OPTION_PREFIX.length), value: optionValue });
      } else {
        this.#report('error', 'unknown-key', `unknown key '${key}' in the entry of target '${spelling}'${didYouMean(key, ENTRY_KEYS)}`, keyOffset);
      }
    }
    for (const required of REQUIRED_KEYS) {
      if (!seen.has(required)) this.#reportAt('error', 'missing-key', `target '${spelling}' is missing the required key '${required}'`, keyLocation);
    }
    if (this.diagnostics.filter((d) => d.severity === 'error').length > errorsBefore || aspects === undefined || subGroupSizes === undefined) return undefined;
    // Auto-detection (DeviceConfigFile.md): intel_gpu_<x> compiles with ocloc for device <x>, unless the file says otherwise.
    if (name.startsWith('intel_gpu_')) {
      aotToolchain ??= 'ocloc';
      if (aotToolchain === 'ocloc' && !aotToolchainOptions.some((option) => option.name === 'ocloc-device')) {
        aotToolchainOptions.push({ name: 'ocloc-device', value: oclocDeviceFor(name) });
      }
    }
    return {
      name,
      aspects,
      maySupportOtherAspects,
      subGroupSizes,
      aotToolchain: aotToolchain ?? '',
      aotToolchainOptions,
      source: { kind: 'file', location: keyLocation },
    };
  }

  #aspects(node: Node | null, target: string, keyOffset: number): string[] | undefined {
    if (!this.#yaml.isSeq(node)) {
      this.#report('error', 'expected-list', `'${KEY_ASPECTS}' of target '${target}' must be a list of aspect names, e.g. [fp16, fp64]`, node === null ? keyOffset : this.#start(node));
      return undefined;
    }
    const names: string[] = [];
    for (const item of node.items) {
      const scalar = this.#deref(item as Node | null);
      const offset = scalar === null ? keyOffset : this.#start(scalar);
      if (!this.#yaml.isScalar(scalar) || typeof scalar.value !== 'string') {
        const numeric = this.#yaml.isScalar(scalar) && typeof scalar.value === 'number' ? this.aspectTable.nameOf(scalar.value) : undefined;
        const hint = numeric === undefined ? '' : `; aspect ${String((scalar as Scalar).value)} is '${numeric}'`;
        this.#report('error', 'expected-aspect-name', `aspects must be given by name, got ${this.#describe(scalar)}${hint}`, offset);
        continue;
      }
      const name = scalar.value;
      const definition = this.aspectTable.definition(name);
      if (definition === undefined) {
        this.#report('error', 'unknown-aspect', `unknown aspect '${name}' in target '${target}'${didYouMean(name, this.aspectTable.names())}`, offset);
        continue;
      }
      if (definition.status !== 'current') {
        this.#report('warning', 'deprecated-aspect', `aspect '${name}' is ${definition.status === 'alias' ? 'an alias' : definition.status}${definition.note === undefined ? '' : `: ${definition.note}`}`, offset);
      }
      if (names.includes(name)) {
        this.#report('warning', 'duplicate-aspect', `aspect '${name}' is listed more than once for target '${target}'`, offset);
        continue;
      }
      names.push(name);
    }
    return names;
  }

  #subGroupSizes(node: Node | null, target: string, keyOffset: number): number[] | undefined {
    if (!this.#yaml.isSeq(node)) {
      this.#report('error', 'expected-list', `'${KEY_SUB_GROUP_SIZES}' of target '${target}' must be a list of positive integers, e.g. [8, 16, 32]`, node === null ? keyOffset : this.#start(node));
      return undefined;
    }
    const sizes: number[] = [];
    for (const item of node.items) {
      const scalar = this.#deref(item as Node | null);
      const offset = scalar === null ? keyOffset : this.#start(scalar);
      const source = this.#yaml.isScalar(scalar) ? (scalar.source ?? String(scalar.value)) : undefined;
      if (!this.#yaml.isScalar(scalar) || typeof scalar.value !== 'number' || !/^[0-9]+$/.test(String(source)) || scalar.value <= 0) {
        this.#report('error', 'invalid-sub-group-size', `sub-group size must be a positive integer, got ${this.#describe(scalar)}`, offset);
        continue;
      }
      if (sizes.includes(scalar.value)) {
        this.#report('warning', 'duplicate-sub-group-size', `sub-group size ${scalar.value} is listed more than once for target '${target}'`, offset);
        continue;
      }
      sizes.push(scalar.value);
    }
    return sizes;
  }

  #boolean(node: Node | null, key: string, keyOffset: number): boolean | undefined {
    if (this.#yaml.isScalar(node) && typeof node.value === 'boolean') return node.value;
    this.#report('error', 'expected-boolean', `'${key}' must be true or false, got ${this.#describe(node)}`, node === null ? keyOffset : this.#start(node));
    return undefined;
  }

  #string(node: Node | null, key: string, keyOffset: number): string | undefined {
    if (this.#yaml.isScalar(node) && node.value !== null && typeof node.value !== 'object') return node.source ?? String(node.value);
    this.#report('error', 'expected-string', `'${key}' must be a single value, got ${this.#describe(node)}`, node === null ? keyOffset : this.#start(node));
    return undefined;
  }

  /** The text of a mapping key, or undefined (after reporting) when it is not a plain scalar. */
  #keyText(pair: Pair, what: string): string | undefined {
    const key = this.#deref(pair.key as Node | null);
    if (this.#yaml.isScalar(key) && (typeof key.value === 'string' || typeof key.value === 'number')) return key.source ?? String(key.value);
    this.#report('error', 'invalid-key', `${what} must be plain strings, got ${this.#describe(key)}`, key === null ? 0 : this.#start(key));
    return undefined;
  }

  #describe(node: Node | null): string {
    if (node === null || (this.#yaml.isScalar(node) && node.value === null)) return 'nothing';
    if (this.#yaml.isMap(node)) return 'a mapping';
    if (this.#yaml.isSeq(node)) return 'a list';
    if (this.#yaml.isScalar(node)) return `'${node.source ?? String(node.value)}'`;
    return 'an unsupported value';
  }

  #deref(node: Node | null): Node | null {
    if (node !== null && this.#yaml.isAlias(node)) return (node.resolve(this.#document!) as Node | undefined) ?? null;
    return node;
  }

  #start(node: Node): number {
    return node.range?.[0] ?? 0;
  }

  #location(offset: number): FileLocation {
    const { line, col } = this.#lineCounter.linePos(offset);
    return { file: this.file, line, column: col };
  }

  #report(severity: Diagnostic['severity'], code: DeviceConfigDiagnosticCode, message: string, offset: number): void {
    this.#reportAt(severity, code, message, this.#location(offset));
  }

  /** `severity` restates the catalog's, so each call reads as what it is. */
  #reportAt(severity: Diagnostic['severity'], code: DeviceConfigDiagnosticCode, message: string, location: FileLocation): void {
    const diagnostic = configDiagnostic(code, message, location);
    this.diagnostics.push(diagnostic.severity === severity ? diagnostic : { ...diagnostic, severity });
  }
}
