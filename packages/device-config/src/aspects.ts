/**
 * `enum class aspect`: names and numbers, and the AspectTable that maps between them.
 *
 * The numbers are those of intel/llvm `sycl/include/sycl/info/aspects.def` and
 * `aspects_deprecated.def` (mainline up to value 81, extended to 87 by a 2025 tree synced with
 * upstream). A module's own `!sycl_aspects` table always wins over these: build one with
 * `AspectTable.fromPairs` and pass it wherever an aspect number is needed.
 */

/**
 * - `current`: an enumerator of today's enum.
 * - `deprecated`: still an enumerator, marked deprecated upstream.
 * - `alias`: another spelling of an enumerator's value (no enumerator of its own in C++, or a
 *   former name kept so that old configuration files still load).
 * - `removed`: a name whose value is a gap in today's enum; kept so old modules and files resolve.
 */
export type AspectStatus = 'current' | 'deprecated' | 'alias' | 'removed';

export interface AspectDefinition {
  readonly name: string;
  readonly value: number;
  readonly status: AspectStatus;
  /** Why it is deprecated, removed or an alias (upstream deprecation text where there is one). */
  readonly note?: string;
}

const current = (name: string, value: number): AspectDefinition => ({ name, value, status: 'current' });

/** Built-in aspect definitions, in enum declaration order (value order), then aliases and removed names. */
export const BUILTIN_ASPECTS: readonly AspectDefinition[] = Object.freeze([
  { name: 'host', value: 0, status: 'deprecated', note: 'removed in SYCL 2020' },
  current('cpu', 1),
  current('gpu', 2),
  current('accelerator', 3),
  current('custom', 4),
  current('fp16', 5),
  current('fp64', 6),
  { name: 'int64_base_atomics', value: 7, status: 'deprecated', note: 'use atomic64 instead' },
  { name: 'int64_extended_atomics', value: 8, status: 'deprecated', note: 'use atomic64 instead' },
  current('image', 9),
  current('online_compiler', 10),
  current('online_linker', 11),
  current('queue_profiling', 12),
  current('usm_device_allocations', 13),
  current('usm_host_allocations', 14),
  current('usm_shared_allocations', 15),
  { name: 'usm_restricted_shared_allocations', value: 16, status: 'deprecated', note: 'deprecated in SYCL 2020' },
  current('usm_system_allocations', 17),
  current('ext_intel_pci_address', 18),
  current('ext_intel_gpu_eu_count', 19),
  current('ext_intel_gpu_eu_simd_width', 20),
  current('ext_intel_gpu_slices', 21),
  current('ext_intel_gpu_subslices_per_slice', 22),
  current('ext_intel_gpu_eu_count_per_subslice', 23),
  current('ext_intel_max_mem_bandwidth', 24),
  current('ext_intel_mem_channel', 25),
  current('usm_atomic_host_allocations', 26),
  current('usm_atomic_shared_allocations', 27),
  current('atomic64', 28),
  current('ext_intel_device_info_uuid', 29),
  current('ext_oneapi_srgb', 30),
  current('ext_oneapi_native_assert', 31),
  current('host_debuggable', 32),
  current('ext_intel_gpu_hw_threads_per_eu', 33),
  current('ext_oneapi_cuda_async_barrier', 34),
  current('ext_intel_free_memory', 36),
  current('ext_intel_device_id', 37),
  current('ext_intel_memory_clock_rate', 38),
  current('ext_intel_memory_bus_width', 39),
  current('emulated', 40),
  current('ext_intel_legacy_image', 41),
  current('ext_oneapi_bindless_images', 42),
  current('ext_oneapi_bindless_images_shared_usm', 43),
  current('ext_oneapi_bindless_images_1d_usm', 44),
  current('ext_oneapi_bindless_images_2d_usm', 45),
  current('ext_oneapi_external_memory_import', 46),
  current('ext_oneapi_external_semaphore_import', 48),
  current('ext_oneapi_mipmap', 50),
  current('ext_oneapi_mipmap_anisotropy', 51),
  current('ext_oneapi_mipmap_level_reference', 52),
  current('ext_intel_esimd', 53),
  current('ext_oneapi_ballot_group', 54),
  current('ext_oneapi_fixed_size_group', 55),
  current('ext_oneapi_opportunistic_group', 56),
  current('ext_oneapi_tangle_group', 57),
  current('ext_intel_matrix', 58),
  current('ext_oneapi_is_composite', 59),
  current('ext_oneapi_is_component', 60),
  current('ext_oneapi_graph', 61),
  current('ext_intel_fpga_task_sequence', 62),
  current('ext_oneapi_limited_graph', 63),
  current('ext_oneapi_private_alloca', 64),
  current('ext_oneapi_cubemap', 65),
  current('ext_oneapi_cubemap_seamless_filtering', 66),
  current('ext_oneapi_bindless_sampled_image_fetch_1d_usm', 67),
  current('ext_oneapi_bindless_sampled_image_fetch_1d', 68),
  current('ext_oneapi_bindless_sampled_image_fetch_2d_usm', 69),
  current('ext_oneapi_bindless_sampled_image_fetch_2d', 70),
  current('ext_oneapi_bindless_sampled_image_fetch_3d', 72),
  current('ext_oneapi_queue_profiling_tag', 73),
  current('ext_oneapi_virtual_mem', 74),
  current('ext_oneapi_cuda_cluster_group', 75),
  current('ext_oneapi_image_array', 76),
  current('ext_oneapi_unique_addressing_per_dim', 77),
  current('ext_oneapi_bindless_images_sample_1d_usm', 78),
  current('ext_oneapi_bindless_images_sample_2d_usm', 79),
  current('ext_oneapi_atomic16', 80),
  current('ext_oneapi_virtual_functions', 81),
  current('ext_intel_spill_memory_size', 82),
  current('ext_oneapi_bindless_images_gather', 83),
  current('ext_intel_current_clock_throttle_reasons', 84),
  current('ext_intel_fan_speed', 85),
  current('ext_intel_power_limits', 86),
  current('ext_oneapi_async_memory_alloc', 87),
  // Upstream __SYCL_ASPECT_DEPRECATED_ALIAS: same value as usm_system_allocations.
  { name: 'usm_system_allocator', value: 17, status: 'alias', note: 'use usm_system_allocations instead' },
  // Former names of renamed enumerators; DeviceConfigFile.td @89110f9e still spells them this way.
  { name: 'ext_oneapi_interop_memory_import', value: 46, status: 'alias', note: 'renamed to ext_oneapi_external_memory_import' },
  { name: 'ext_oneapi_interop_semaphore_import', value: 48, status: 'alias', note: 'renamed to ext_oneapi_external_semaphore_import' },
  // Values that are gaps in today's enum; older modules may still carry them.
  { name: 'ext_oneapi_bfloat16_math_functions', value: 35, status: 'removed', note: 'removed from aspects.def' },
  { name: 'ext_oneapi_interop_memory_export', value: 47, status: 'removed', note: 'removed from aspects.def' },
  { name: 'ext_oneapi_interop_semaphore_export', value: 49, status: 'removed', note: 'removed from aspects.def' },
  { name: 'ext_oneapi_bindless_sampled_image_fetch_3d_usm', value: 71, status: 'removed', note: 'removed from aspects.def' },
] satisfies AspectDefinition[]);

/** Anything that names an aspect: its name, or its number in some AspectTable. */
export type AspectRef = string | number;

/**
 * A two-way map between aspect names and numbers. Several names may share a number (aliases);
 * `nameOf` returns the canonical one: the first enumerator (not alias, not removed) declared with
 * that number, or the first name at all when there is none.
 */
export class AspectTable {
  readonly definitions: readonly AspectDefinition[];
  readonly #byName = new Map<string, AspectDefinition>();
  readonly #namesByValue = new Map<number, string[]>();
  readonly #canonicalByValue = new Map<number, string>();

  private constructor(definitions: readonly AspectDefinition[]) {
    for (const definition of definitions) {
      if (typeof definition.name !== 'string' || definition.name === '') throw new RangeError('aspect names must be non-empty strings');
      if (!Number.isSafeInteger(definition.value)) throw new RangeError(`aspect '${definition.name}' has a non-integer value ${String(definition.value)}`);
      const existing = this.#byName.get(definition.name);
      if (existing !== undefined) {
        if (existing.value !== definition.value) {
          throw new RangeError(`aspect '${definition.name}' is given two values: ${existing.value} and ${definition.value}`);
        }
        continue;
      }
      this.#byName.set(definition.name, definition);
      const names = this.#namesByValue.get(definition.value) ?? [];
      names.push(definition.name);
      this.#namesByValue.set(definition.value, names);
    }
    for (const [value, names] of this.#namesByValue) {
      const enumerator = names.find((name) => {
        const status = this.#byName.get(name)!.status;
        return status === 'current' || status === 'deprecated';
      });
      this.#canonicalByValue.set(value, enumerator ?? names[0]!);
    }
    this.definitions = Object.freeze([...this.#byName.values()]);
  }

  /** A table from full definitions (status and notes included). */
  static fromDefinitions(definitions: Iterable<AspectDefinition>): AspectTable {
    return new AspectTable([...definitions].map((d) => Object.freeze({ ...d })));
  }

  /**
   * A table from plain (name, value) pairs, e.g. the operands of a module's `!sycl_aspects`, in
   * declaration order. The first name declared for a number is its canonical name.
   */
  static fromPairs(pairs: Iterable<readonly [string, number]>): AspectTable {
    return new AspectTable([...pairs].map(([name, value]) => Object.freeze({ name, value, status: 'current' as const })));
  }

  /** Number of a name, or undefined when this table does not know it. */
  valueOf(name: string): number | undefined {
    return this.#byName.get(name)?.value;
  }

  /** Canonical name of a number, or undefined. */
  nameOf(value: number): string | undefined {
    return this.#canonicalByValue.get(value);
  }

  /** Every name declared for a number, in declaration order. */
  namesOf(value: number): readonly string[] {
    return this.#namesByValue.get(value) ?? [];
  }

  definition(name: string): AspectDefinition | undefined {
    return this.#byName.get(name);
  }

  hasName(name: string): boolean {
    return this.#byName.has(name);
  }

  hasValue(value: number): boolean {
    return this.#namesByValue.has(value);
  }

  /** All names, in declaration order. */
  names(): readonly string[] {
    return this.definitions.map((d) => d.name);
  }

  /** Distinct numbers, ascending. */
  values(): readonly number[] {
    return [...this.#namesByValue.keys()].sort((a, b) => a - b);
  }

  /**
   * Distinct numbers that are enumerators of the enum (not removed), ascending, each with its
   * canonical name: what generated headers specialize on.
   */
  enumerators(): readonly { readonly name: string; readonly value: number }[] {
    return this.values()
      .map((value) => ({ name: this.nameOf(value)!, value }))
      .filter(({ name }) => this.#byName.get(name)!.status !== 'removed' && this.#byName.get(name)!.status !== 'alias');
  }

  /** The number an aspect reference stands for; numbers must be known to this table. */
  resolve(ref: AspectRef): number | undefined {
    if (typeof ref === 'number') return this.hasValue(ref) ? ref : undefined;
    return this.valueOf(ref);
  }

  /** The canonical name of an aspect reference, or undefined when unknown. */
  canonicalName(ref: AspectRef): string | undefined {
    const value = this.resolve(ref);
    return value === undefined ? undefined : this.nameOf(value);
  }
}

/** The built-in table (current intel/llvm numbers, deprecated and former names kept). */
export const builtinAspectTable: AspectTable = AspectTable.fromDefinitions(BUILTIN_ASPECTS);
