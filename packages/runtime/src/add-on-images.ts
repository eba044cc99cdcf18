/**
 * Add-on images of DeviceIf.md ("Changes to the DPC++ runtime"): a main image lists pairs of
 * add-on images in `SYCL/add on images` (property name = pair id, value = the Condition
 * Expression as int32s); each add-on image says in `SYCL/add on image` whether it holds the real
 * definitions (1) or stubs (0). The runtime evaluates each condition for the device, takes the
 * real image when it holds and the stub image otherwise, and follows the chosen image's own
 * `SYCL/add on images` in turn.
 */
import { decodeCondition, evaluateCondition, type Condition, type DeviceFacts } from '@syclkit/device-if';
import { PropertyType, decodeInt32Array, type PropertySetRegistry } from '@syclkit/formats';
import { ADD_ON_IMAGES_SET, ADD_ON_IMAGE_SET } from '@syclkit/offload-wrapper';
import { SyclError, errc } from './errors.js';

export { ADD_ON_IMAGES_SET, ADD_ON_IMAGE_SET };

interface ImageLike {
  readonly name: string;
  readonly properties: PropertySetRegistry;
}

/** The two images of one add-on pair. */
export interface AddOnPair<T extends ImageLike> {
  primary?: T;
  stub?: T;
}

/** Add-on images of a bundle by pair id (images without `SYCL/add on image` are left out). */
export function indexAddOnImages<T extends ImageLike>(images: readonly T[]): Map<string, AddOnPair<T>> {
  const index = new Map<string, AddOnPair<T>>();
  for (const image of images) {
    const set = image.properties.getSet(ADD_ON_IMAGE_SET);
    if (set === undefined) continue;
    for (const [id, value] of set) {
      if (value.type !== PropertyType.UINT32 || (value.value !== 0 && value.value !== 1)) {
        throw new SyclError(errc.runtime, `device image '${image.name}': property '${id}' of [${ADD_ON_IMAGE_SET}] must be UINT32 1 (definitions) or 0 (stubs)`);
      }
      const pair = index.get(id) ?? {};
      const slot = value.value === 1 ? 'primary' : 'stub';
      if (pair[slot] !== undefined) {
        throw new SyclError(errc.runtime, `add-on image '${id}' has two ${slot === 'primary' ? 'definition' : 'stub'} images: '${pair[slot]!.name}' and '${image.name}'`);
      }
      pair[slot] = image;
      index.set(id, pair);
    }
  }
  return index;
}

/** One add-on image chosen for a device. */
export interface AddOnChoice<T extends ImageLike> {
  /** The pair id (e.g. `1`). */
  readonly id: string;
  readonly condition: Condition;
  /** Whether the condition holds for the device (then `image` has the definitions, else stubs). */
  readonly holds: boolean;
  readonly image: T;
  /** The image whose `SYCL/add on images` named this pair. */
  readonly requestedBy: T;
}

/**
 * The add-on images to link with `main` on a device, breadth first from `main`; each pair id is
 * taken once. Throws errc.runtime when a condition does not decode or a pair lacks the image the
 * condition asks for.
 */
export function resolveAddOnImages<T extends ImageLike>(
  main: T,
  index: Pick<ReadonlyMap<string, AddOnPair<T> | undefined>, 'get'>,
  device: DeviceFacts,
  bundle: string,
): AddOnChoice<T>[] {
  const chosen: AddOnChoice<T>[] = [];
  const seen = new Set<string>();
  const queue: T[] = [main];
  while (queue.length > 0) {
    const image = queue.shift()!;
    const set = image.properties.getSet(ADD_ON_IMAGES_SET);
    if (set === undefined) continue;
    for (const [id, value] of set) {
      if (seen.has(id)) continue;
      seen.add(id);
      let condition: Condition;
      try {
        condition = decodeCondition(decodeInt32Array(value));
      } catch (error) {
        throw new SyclError(errc.runtime, `device image '${image.name}': the condition of add-on image '${id}' is malformed: ${(error as Error).message}`);
      }
      const holds = evaluateCondition(condition, device);
      const pair = index.get(id);
      const picked = holds ? pair?.primary : pair?.stub;
      if (picked === undefined) {
        throw new SyclError(
          errc.runtime,
          `device image '${image.name}' needs add-on image '${id}' (${holds ? 'definitions' : 'stubs'}), but bundle '${bundle}' has none`,
        );
      }
      chosen.push({ id, condition, holds, image: picked, requestedBy: image });
      queue.push(picked);
    }
  }
  return chosen;
}
