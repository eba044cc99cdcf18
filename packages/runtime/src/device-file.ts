/**
 * Device description files (YAML, or JSON, which is YAML): hardware the built-in table does not
 * know, or a built-in target with different limits.
 *
 *     name: my-gpu
 *     target: intel_gpu_pvc          # optional: start from this target's device
 *     architecture: intel_gpu_pvc    # optional: architecture enumerator (name or alias)
 *     ip-version: 12.60.7            # optional: Intel GPU IP version (or a GMDID integer)
 *     device-type: gpu               # gpu | cpu | accelerator
 *     backend: ext_oneapi_level_zero # ext_oneapi_level_zero | opencl | ext_oneapi_cuda | ext_oneapi_hip
 *     aspects: [fp16, fp64]          # aspect names (or enum values)
 *     sub-group-sizes: [16, 32]
 *     max-work-group-size: 1024
 *     max-work-item-sizes: [1024, 1024, 1024]
 */
import { readFileSync } from 'node:fs';
import {
  DeviceConfig,
  UnknownTargetError,
  architectureByName,
  encodeIntelGpuIpVersion,
  loadYaml,
  type ArchitectureInfo,
  type Backend,
} from '@syclkit/device-config';
import type { Node } from 'yaml';
import { Device, DeviceError, architectureForIpVersion, defaultBackend, deviceFromTarget, type DeviceType } from './device.js';

const KEYS = ['name', 'target', 'architecture', 'ip-version', 'device-type', 'backend', 'aspects', 'sub-group-sizes', 'max-work-group-size', 'max-work-item-sizes'] as const;
type Key = (typeof KEYS)[number];
const BACKENDS: readonly Backend[] = ['ext_oneapi_level_zero', 'opencl', 'ext_oneapi_cuda', 'ext_oneapi_hip'];
const DEVICE_TYPES: readonly DeviceType[] = ['gpu', 'cpu', 'accelerator'];

export interface DeviceFileOptions {
  /** File name for messages (default `<device>`). */
  readonly file?: string;
  /** Targets and aspect names (default: the built-in configuration). */
  readonly config?: DeviceConfig;
}

/** Parses a device description (see the module comment); throws a DeviceError at the offending place. */
export function parseDeviceDescription(text: string, options: DeviceFileOptions = {}): Device {
  const file = options.file ?? '<device>';
  const config = options.config ?? DeviceConfig.builtin();
  const { LineCounter, isMap, isScalar, isSeq, parseDocument } = loadYaml();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number | undefined) => {
    const { line, col } = lines.linePos(offset ?? 0);
    return { file, line, column: col };
  };
  const fail = (message: string, node?: Node | null): never => {
    throw new DeviceError(message, at(node?.range?.[0]));
  };
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    throw new DeviceError(`invalid YAML: ${error.message.split('\n')[0]}`, at(error.pos[0]));
  }
  const root = doc.contents;
  if (!isMap(root)) return fail('a device description is a mapping of keys (name, aspects, sub-group-sizes, ...)', root);

  const nodes = new Map<Key, Node>();
  for (const pair of root.items) {
    const keyNode = pair.key as Node | null;
    const key = isScalar(keyNode) ? String(keyNode.value) : undefined;
    if (key === undefined || !(KEYS as readonly string[]).includes(key)) {
      fail(`unknown key ${JSON.stringify(key ?? '?')}; the keys are ${KEYS.join(', ')}`, keyNode);
    }
    nodes.set(key as Key, pair.value as Node);
  }

  const scalar = (key: Key): { value: unknown; node: Node } | undefined => {
    const node = nodes.get(key);
    if (node === undefined) return undefined;
    if (!isScalar(node)) fail(`'${key}' must be a single value`, node);
    return { value: (node as { value: unknown }).value, node };
  };
  const string = (key: Key): { value: string; node: Node } | undefined => {
    const got = scalar(key);
    if (got === undefined) return undefined;
    if (typeof got.value !== 'string' || got.value === '') fail(`'${key}' must be a non-empty string`, got.node);
    return got as { value: string; node: Node };
  };
  const positive = (value: unknown, node: Node, what: string): number => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) fail(`${what} must be a positive integer, got ${JSON.stringify(value)}`, node);
    return value as number;
  };
  const list = (key: Key): { items: Node[]; node: Node } | undefined => {
    const node = nodes.get(key);
    if (node === undefined) return undefined;
    if (!isSeq(node)) fail(`'${key}' must be a list`, node);
    return { items: (node as { items: Node[] }).items, node };
  };

  // Base device: a target, when one is named.
  let base: Device | undefined;
  const target = string('target');
  if (target !== undefined) {
    try {
      base = deviceFromTarget(target.value, config);
    } catch (error) {
      if (error instanceof UnknownTargetError || error instanceof DeviceError) fail(error.message, target.node);
      throw error;
    }
  }

  // Architecture and IP version.
  let architecture: ArchitectureInfo | undefined = base?.architecture;
  let ipVersion: number | undefined = base?.ipVersion;
  const arch = string('architecture');
  if (arch !== undefined) {
    architecture = architectureByName(arch.value);
    if (architecture === undefined || architecture.family === 'unknown') fail(`unknown architecture '${arch.value}'`, arch.node);
    ipVersion = architecture!.gmdid;
  }
  const ip = scalar('ip-version');
  if (ip !== undefined) {
    const parsed = parseIpVersion(ip.value);
    if (parsed === undefined) fail(`'ip-version' must be major.minor.revision (e.g. 12.60.7) or a GMDID integer, got ${JSON.stringify(ip.value)}`, ip.node);
    if (arch !== undefined && architecture!.gmdid !== undefined && architecture!.gmdid !== parsed) {
      fail(`'ip-version' does not match architecture '${architecture!.name}'`, ip.node);
    }
    ipVersion = parsed;
    if (arch === undefined) architecture = architectureForIpVersion(parsed!) ?? (base?.ipVersion === parsed ? base?.architecture : undefined);
  }

  const typeNode = string('device-type');
  if (typeNode !== undefined && !(DEVICE_TYPES as readonly string[]).includes(typeNode.value)) fail(`'device-type' must be one of ${DEVICE_TYPES.join(', ')}`, typeNode.node);
  const deviceType: DeviceType = (typeNode?.value as DeviceType | undefined) ?? base?.deviceType ?? (architecture?.family === 'intel_cpu' ? 'cpu' : 'gpu');
  const backendNode = string('backend');
  if (backendNode !== undefined && !(BACKENDS as readonly string[]).includes(backendNode.value)) fail(`'backend' must be one of ${BACKENDS.join(', ')}`, backendNode.node);
  const backend: Backend = (backendNode?.value as Backend | undefined) ?? base?.backend ?? defaultBackend(deviceType, architecture);

  let aspects: number[] | undefined = base === undefined ? undefined : [...base.aspects];
  const aspectList = list('aspects');
  if (aspectList !== undefined) {
    aspects = aspectList.items.map((item) => {
      const value = isScalar(item) ? item.value : undefined;
      if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
      if (typeof value === 'string') {
        const known = config.aspectTable.valueOf(value);
        if (known === undefined) fail(`unknown aspect '${value}'`, item);
        return known!;
      }
      return fail(`an aspect is a name (e.g. fp64) or an enum value, got ${JSON.stringify(value)}`, item);
    });
  }
  const subGroups = list('sub-group-sizes');
  const subGroupSizes = subGroups === undefined ? [...(base?.subGroupSizes ?? [])] : subGroups.items.map((item) => positive(isScalar(item) ? item.value : undefined, item, 'a sub-group size'));
  const maxNode = scalar('max-work-group-size');
  const maxWorkGroupSize = maxNode === undefined ? base?.maxWorkGroupSize : positive(maxNode.value, maxNode.node, "'max-work-group-size'");
  if (maxWorkGroupSize === undefined) fail(`'max-work-group-size' is required when no 'target' is given`, root);
  const itemsNode = list('max-work-item-sizes');
  let maxWorkItemSizes: [number, number, number] | undefined;
  if (itemsNode !== undefined) {
    if (itemsNode.items.length !== 3) fail(`'max-work-item-sizes' lists 3 sizes`, itemsNode.node);
    const sizes = itemsNode.items.map((item) => positive(isScalar(item) ? item.value : undefined, item, 'a work-item size'));
    maxWorkItemSizes = [sizes[0]!, sizes[1]!, sizes[2]!];
  } else if (base !== undefined && maxNode === undefined) {
    maxWorkItemSizes = [...base.maxWorkItemSizes];
  }

  const nameNode = string('name');
  const name = nameNode?.value ?? base?.name ?? architecture?.name;
  if (name === undefined) fail(`'name' is required when no 'target' or 'architecture' is given`, root);
  const targetName = base?.target ?? (architecture?.syclTarget !== undefined && config.resolve(architecture.syclTarget) !== undefined ? architecture.syclTarget : undefined);
  const known = targetName === undefined ? undefined : config.describe(targetName);
  return new Device({
    name: name!,
    ...(targetName === undefined ? {} : { target: targetName, targetAliases: known?.aliases ?? [] }),
    ...(architecture === undefined ? {} : { architecture }),
    ...(ipVersion === undefined ? {} : { ipVersion }),
    aspects: aspects ?? [],
    subGroupSizes,
    maxWorkGroupSize: maxWorkGroupSize!,
    ...(maxWorkItemSizes === undefined ? {} : { maxWorkItemSizes }),
    backend,
    deviceType,
  });
}

/** `12.60.7`, a GMDID integer, or `0x030f0007`; undefined when the value is none of these. */
export function parseIpVersion(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 && value <= 0xffff_ffff ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const dotted = /^(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted !== null) {
    try {
      return encodeIntelGpuIpVersion({ major: Number(dotted[1]), minor: Number(dotted[2]), revision: Number(dotted[3]) });
    } catch {
      return undefined;
    }
  }
  if (/^0x[0-9a-f]+$/i.test(text) || /^\d+$/.test(text)) return parseIpVersion(Number(text));
  return undefined;
}

/** Reads a device description file (see parseDeviceDescription). */
export function loadDeviceDescriptionFile(path: string, options: Omit<DeviceFileOptions, 'file'> = {}): Device {
  return parseDeviceDescription(readFileSync(path, 'utf8'), { ...options, file: path });
}
