/**
 * DeviceConfig: the built-in target table plus any user configuration file, and the names
 * `-fsycl-targets` accepts. Immutable: every change returns a new DeviceConfig.
 */

import { architectureByName, type ArchitectureInfo } from './architectures.js';
import { builtinAspectTable, type AspectTable } from './aspects.js';
import { BUILTIN_TARGET_ENTRIES } from './builtin-targets.js';
import { deepFreeze, type TargetConfigEntry } from './config-entry.js';
import {
  BUILTIN_KNOWN_TARGETS,
  deviceNameTraits,
  simulatedTraitsFor,
  type KnownTarget,
  type SimulatedDeviceTraits,
  type TargetKind,
} from './known-targets.js';
import { parseSyclTriple } from './triples.js';

/** A `-fsycl-targets` value resolved against a DeviceConfig. */
export interface ResolvedTarget {
  /** The value as the user wrote it. */
  readonly spelling: string;
  /** Canonical target name (aliases and triple spellings resolved), e.g. `intel_gpu_pvc`, `spir64`. */
  readonly name: string;
  readonly kind: TargetKind;
  /** Normalized device triple, when known. */
  readonly triple: string | undefined;
  readonly offloadArch: string | undefined;
  /** False for JIT targets (`spir64`, `spir`). */
  readonly aot: boolean;
  /** Configuration keys tried in order to find the target's entry (full triple before arch name, as the driver does). */
  readonly configKeys: readonly string[];
}

/** Everything known about one target, for listings and simulated devices. */
export interface TargetDescription {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly kind: TargetKind;
  readonly triple: string | undefined;
  readonly offloadArch: string | undefined;
  readonly aot: boolean;
  /** Whether `-fsycl-targets` accepts the name (`x86_64` is a configuration key only). */
  readonly selectable: boolean;
  readonly architecture: ArchitectureInfo | undefined;
  /** The configuration entry, or undefined when the target has none. */
  readonly entry: TargetConfigEntry | undefined;
  /** syclkit's addition: what a simulated device of this target reports. */
  readonly simulated: SimulatedDeviceTraits | undefined;
}

export class DeviceConfig {
  /** Table that aspect names in entries are checked against. */
  readonly aspectTable: AspectTable;
  readonly #entries: ReadonlyMap<string, TargetConfigEntry>;
  readonly #known: readonly KnownTarget[];
  readonly #knownBySpelling: ReadonlyMap<string, KnownTarget>;

  private constructor(entries: ReadonlyMap<string, TargetConfigEntry>, known: readonly KnownTarget[], aspectTable: AspectTable) {
    this.#entries = entries;
    this.#known = known;
    this.aspectTable = aspectTable;
    const bySpelling = new Map<string, KnownTarget>();
    for (const target of known) {
      bySpelling.set(target.name, target);
      for (const alias of target.aliases) bySpelling.set(alias, target);
    }
    this.#knownBySpelling = bySpelling;
    Object.freeze(this);
  }

  static #builtin: DeviceConfig | undefined;

  /** The built-in configuration (intel/llvm's table, see BUILTIN_TABLE_UPSTREAM_COMMIT). */
  static builtin(): DeviceConfig {
    DeviceConfig.#builtin ??= new DeviceConfig(
      new Map(BUILTIN_TARGET_ENTRIES.map((entry) => [entry.name, entry])),
      BUILTIN_KNOWN_TARGETS,
      builtinAspectTable,
    );
    return DeviceConfig.#builtin;
  }

  /** A configuration with only the given entries and the built-in known targets. */
  static fromEntries(entries: Iterable<TargetConfigEntry>, aspectTable: AspectTable = builtinAspectTable): DeviceConfig {
    return new DeviceConfig(new Map(), BUILTIN_KNOWN_TARGETS, aspectTable).withEntries(entries);
  }

  /**
   * A new configuration where each given entry adds a target or replaces the entry of the same
   * target (later entries win). Aliases are stored under their canonical name. Names that select
   * no known target become selectable `custom` targets (or GPU targets, by prefix).
   */
  withEntries(entries: Iterable<TargetConfigEntry>): DeviceConfig {
    const map = new Map(this.#entries);
    const known = [...this.#known];
    const knownNames = new Set(this.#knownBySpelling.keys());
    for (const given of entries) {
      const canonical = this.#knownBySpelling.get(given.name)?.name ?? given.name;
      // Copy before freezing so the caller's objects stay as they were.
      const entry: TargetConfigEntry = deepFreeze({
        name: canonical,
        aspects: [...given.aspects],
        maySupportOtherAspects: given.maySupportOtherAspects,
        subGroupSizes: [...given.subGroupSizes],
        aotToolchain: given.aotToolchain,
        aotToolchainOptions: given.aotToolchainOptions.map((option) => ({ ...option })),
        source: given.source.kind === 'file' ? { kind: 'file', location: { ...given.source.location } } : { kind: 'builtin' },
      });
      map.set(canonical, entry);
      const isConfigOnlyKey = BUILTIN_TARGET_ENTRIES.some((builtin) => builtin.name === canonical) && !knownNames.has(canonical);
      if (!knownNames.has(canonical) && parseSyclTriple(canonical) === undefined && !isConfigOnlyKey) {
        const traits = deviceNameTraits(canonical);
        known.push(
          deepFreeze({ name: canonical, aliases: [], ...traits, architecture: undefined, aot: true, simulated: simulatedTraitsFor(canonical, traits.kind), builtin: false }),
        );
        knownNames.add(canonical);
      }
    }
    return new DeviceConfig(map, known, this.aspectTable);
  }

  /** The entry stored under exactly this key (no alias or triple resolution). */
  entry(key: string): TargetConfigEntry | undefined {
    return this.#entries.get(key);
  }

  /** All entries: built-in order, replaced in place, then added ones in the order given. */
  entries(): readonly TargetConfigEntry[] {
    return [...this.#entries.values()];
  }

  /** Targets `-fsycl-targets` accepts by name (built-in, then added by configuration files). */
  knownTargets(): readonly KnownTarget[] {
    return this.#known;
  }

  /** Every name and alias `-fsycl-targets` accepts as a device or triple name. */
  selectableNames(): readonly string[] {
    return [...this.#knownBySpelling.keys()];
  }

  /** Resolves a `-fsycl-targets` value (name, alias or triple); undefined when it names nothing. */
  resolve(spelling: string): ResolvedTarget | undefined {
    const known = this.#knownBySpelling.get(spelling);
    if (known !== undefined && known.kind !== 'generic') {
      return { spelling, name: known.name, kind: known.kind, triple: known.triple, offloadArch: known.offloadArch, aot: known.aot, configKeys: [known.name] };
    }
    const triple = parseSyclTriple(spelling);
    if (triple === undefined) return undefined;
    const target = this.#knownBySpelling.get(triple.target);
    if (target === undefined) return undefined;
    return {
      spelling,
      name: target.name,
      kind: target.kind,
      triple: triple.normalized,
      offloadArch: undefined,
      aot: target.aot,
      configKeys: [...new Set([triple.normalized, triple.arch, target.name])],
    };
  }

  /** The configuration entry of a resolved target (the first of its configKeys that has one). */
  entryFor(target: ResolvedTarget): TargetConfigEntry | undefined {
    for (const key of target.configKeys) {
      const entry = this.#entries.get(key);
      if (entry !== undefined) return entry;
    }
    return undefined;
  }

  /** Describes a target by name, alias, triple or configuration key. */
  describe(spelling: string): TargetDescription | undefined {
    const resolved = this.resolve(spelling);
    if (resolved !== undefined) {
      const known = this.#knownBySpelling.get(resolved.name)!;
      return {
        name: known.name,
        aliases: known.aliases,
        kind: known.kind,
        triple: known.triple,
        offloadArch: known.offloadArch,
        aot: known.aot,
        selectable: true,
        architecture: known.architecture === undefined ? undefined : architectureByName(known.architecture),
        entry: this.entryFor(resolved),
        simulated: known.simulated,
      };
    }
    const entry = this.#entries.get(spelling);
    if (entry === undefined) return undefined;
    // A configuration key that -fsycl-targets does not accept (x86_64, or a full triple key).
    const architecture = architectureByName(entry.name);
    return {
      name: entry.name,
      aliases: [],
      kind: 'generic',
      triple: undefined,
      offloadArch: undefined,
      aot: true,
      selectable: false,
      architecture,
      entry,
      simulated: simulatedTraitsFor(entry.name, 'generic'),
    };
  }

  /** Descriptions of every known target, then of configuration keys that are not targets. */
  describeAll(): readonly TargetDescription[] {
    const descriptions = this.#known.map((target) => this.describe(target.name)!);
    const described = new Set(descriptions.map((d) => d.entry?.name).filter((name) => name !== undefined));
    for (const entry of this.#entries.values()) {
      if (!described.has(entry.name) && !this.#knownBySpelling.has(entry.name)) descriptions.push(this.describe(entry.name)!);
    }
    return descriptions;
  }
}
