/**
 * What the driver stores for each target's images, as DPC++ does: SPIR-V for `spir64` and the
 * other SPIR-V based targets (Intel GPUs and CPUs, whose AOT compiler takes SPIR-V; without one
 * the SPIR-V is stored), translated per image by llvm-spirv; the device IR itself for others.
 * `-fsycl-device-obj=llvmir` keeps the IR everywhere; `-aot` picks a backend per target.
 */
import { availableParallelism } from 'node:os';
import type { DeviceConfig, ResolvedTarget } from '@syclkit/device-config';
import { aotCompilerFor, llvmSpirvCompiler, type AotCompiler, type SpirvTranslatorOptions } from '@syclkit/offload-wrapper';
import { CliError } from '../command.js';

/** `-fsycl-device-obj`: what the images of SPIR-V based targets are. */
export const DEVICE_OBJ_KINDS = ['spirv', 'llvmir'] as const;
export type DeviceObj = (typeof DEVICE_OBJ_KINDS)[number];

/** What `compile` makes when neither `-fsycl-device-obj` nor `SYCLKIT_DEVICE_OBJ` says. */
export const DEFAULT_DEVICE_OBJ: DeviceObj = 'spirv';

/** The environment variable that sets the default of `-fsycl-device-obj` (e.g. for a CI without llvm-spirv). */
export const DEVICE_OBJ_ENV = 'SYCLKIT_DEVICE_OBJ';

/**
 * The default of `-fsycl-device-obj`: `SYCLKIT_DEVICE_OBJ` when set (`spirv` or `llvmir`), else
 * `DEFAULT_DEVICE_OBJ`. Another value is an error, not a silent default.
 */
export function defaultDeviceObj(env: NodeJS.ProcessEnv = process.env): DeviceObj {
  const value = env[DEVICE_OBJ_ENV];
  if (value === undefined || value === '') return DEFAULT_DEVICE_OBJ;
  if ((DEVICE_OBJ_KINDS as readonly string[]).includes(value)) return value as DeviceObj;
  throw new CliError(`${DEVICE_OBJ_ENV}=${value}: expected ${DEVICE_OBJ_KINDS.join(' or ')}`);
}

export interface DeviceCodeOptions {
  /** Default `defaultDeviceObj()` (`SYCLKIT_DEVICE_OBJ`, else `DEFAULT_DEVICE_OBJ`). */
  readonly deviceObj?: DeviceObj;
  /** `-aot`: backend per target name or spelling (`*`: every AOT target); overrides `deviceObj`. */
  readonly aot?: ReadonlyMap<string, string>;
  /** The SPIR-V translation step's options (tools, translator options, validation, a native step). */
  readonly spirv?: SpirvTranslatorOptions;
}

/** Whether a target runs SPIR-V (its triple's architecture is spir/spirv). */
export function isSpirvTarget(target: ResolvedTarget, config: DeviceConfig): boolean {
  const triple = config.describe(target.name)?.triple ?? target.name;
  return (triple.split('-')[0] ?? '').startsWith('spir');
}

/** The backend name for a target: `-aot` first, then SPIR-V or IR by `deviceObj`. */
export function backendFor(target: ResolvedTarget, options: DeviceCodeOptions, config: DeviceConfig): string {
  const explicit = options.aot?.get(target.name) ?? options.aot?.get(target.spelling) ?? (target.aot ? options.aot?.get('*') : undefined);
  if (explicit !== undefined) return explicit;
  return (options.deviceObj ?? defaultDeviceObj()) === 'spirv' && isSpirvTarget(target, config) ? 'llvm-spirv' : 'ir';
}

/**
 * The AOT compiler of each target, made before any work so that a missing tool (llvm-spirv, llc)
 * is reported first, with the Debian package to install. One translator serves every SPIR-V target.
 */
export function deviceCodeCompilers(targets: readonly ResolvedTarget[], options: DeviceCodeOptions, config: DeviceConfig): Map<string, AotCompiler> {
  const compilers = new Map<string, AotCompiler>();
  let spirv: AotCompiler | undefined;
  for (const target of targets) {
    const backend = backendFor(target, options, config);
    if (backend === 'llvm-spirv' && isSpirvTarget(target, config)) {
      spirv ??= llvmSpirvCompiler(options.spirv);
      compilers.set(target.name, spirv);
    } else {
      compilers.set(target.name, aotCompilerFor(backend, target.name, { config }));
    }
  }
  return compilers;
}

/** Translations run at once: one per core, as llvm-foreach's `--jobs` would. */
export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}
