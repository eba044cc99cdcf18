import { aspectCondition, deviceFacts, encodeCondition, notCondition } from '@syclkit/device-if';
import { PropertySetRegistry, uint32Value, uint32ArrayValue } from '@syclkit/formats';
import { describe, expect, it } from 'vitest';
import { int32ArrayValue } from '../test/program-model.js';
import { ADD_ON_IMAGES_SET, ADD_ON_IMAGE_SET, SyclError, errc, indexAddOnImages, resolveAddOnImages } from './index.js';

interface Img {
  readonly name: string;
  readonly properties: PropertySetRegistry;
}

function image(name: string, addOn?: [string, 0 | 1], uses: [string, number[]][] = []): Img {
  const properties = new PropertySetRegistry();
  if (addOn !== undefined) properties.add(ADD_ON_IMAGE_SET, addOn[0], uint32Value(addOn[1]));
  for (const [id, condition] of uses) properties.add(ADD_ON_IMAGES_SET, id, int32ArrayValue(condition));
  return { name, properties };
}

const FP16 = encodeCondition(aspectCondition(5));
const NOT_FP16 = encodeCondition(notCondition(aspectCondition(5)));
const FP64 = encodeCondition(aspectCondition(6));

describe('add-on image resolution', () => {
  const main = image('main', undefined, [
    ['1', FP16],
    ['2', NOT_FP16],
  ]);
  const bundle = [
    main,
    image('one-def', ['1', 1], [['3', FP64]]),
    image('one-stub', ['1', 0]),
    image('two-def', ['2', 1]),
    image('two-stub', ['2', 0]),
    image('three-def', ['3', 1]),
    image('three-stub', ['3', 0]),
  ];
  const index = indexAddOnImages(bundle);

  it('takes the definitions where the condition holds and the stubs elsewhere', () => {
    const chosen = resolveAddOnImages(main, index, deviceFacts([]), 'spir64');
    expect(chosen.map((c) => [c.id, c.holds, c.image.name])).toEqual([
      ['1', false, 'one-stub'],
      ['2', true, 'two-def'],
    ]);
  });

  it("follows the chosen image's own add-on images, breadth first", () => {
    const chosen = resolveAddOnImages(main, index, deviceFacts([5, 6]), 'spir64');
    expect(chosen.map((c) => [c.id, c.image.name, c.requestedBy.name])).toEqual([
      ['1', 'one-def', 'main'],
      ['2', 'two-stub', 'main'],
      ['3', 'three-def', 'one-def'],
    ]);
  });

  it('reports a pair that lacks the image the condition asks for', () => {
    const partial = indexAddOnImages([main, image('one-def', ['1', 1]), image('two-def', ['2', 1]), image('two-stub', ['2', 0])]);
    expect(() => resolveAddOnImages(main, partial, deviceFacts([]), 'spir64')).toThrow(
      new SyclError(errc.runtime, "device image 'main' needs add-on image '1' (stubs), but bundle 'spir64' has none"),
    );
  });

  it('reports two images claiming the same half of a pair, and non-boolean markers', () => {
    expect(() => indexAddOnImages([image('a', ['1', 1]), image('b', ['1', 1])])).toThrow(/add-on image '1' has two definition images: 'a' and 'b'/);
    const odd = new PropertySetRegistry();
    odd.add(ADD_ON_IMAGE_SET, '1', uint32Value(7));
    expect(() => indexAddOnImages([{ name: 'odd', properties: odd }])).toThrow(/must be UINT32 1 \(definitions\) or 0 \(stubs\)/);
  });

  it('reports a condition that does not decode', () => {
    const bad = new PropertySetRegistry();
    bad.add(ADD_ON_IMAGES_SET, '1', uint32ArrayValue([(-4 >>> 0), (-1 >>> 0), 5]));
    expect(() => resolveAddOnImages({ name: 'bad', properties: bad }, index, deviceFacts([]), 'spir64')).toThrow(/device image 'bad': the condition of add-on image '1' is malformed/);
  });
});
