// Properties checked:
// 1. readPropertySetRegistry(writePropertySetRegistry(r)) = r (sets, properties, order, values)
//    for generated registries (set names without newlines; property names without '=' or
//    newlines, not starting with '[').
// 2. The writer is a fixed point: write(read(write(r))) = write(r), and every line ends in '\n'.
// 3. Reading bytes (UTF-8) and reading the string give the same registry.
// 4. Corrupting one base64 character of a BYTE_ARRAY value with a character outside the alphabet
//    is a FormatError at that line and column, never a wrong value.
// 5. add() keeps the first value of a repeated property; the file reader keeps the last.
// 6. Name checks: for any string (printable ASCII, control characters, other Unicode, lone
//    surrogates), add() and addSet() accept a name exactly when it has no newline, NUL or
//    unpaired surrogate (and, for a property name, is not empty, has no '=' and does not start
//    with '['), and ensureSet() accepts a set name under the same rule.
// 7. clone() gives a registry that writes the same text, and changing either one (a property
//    added, replaced or removed, a set added) leaves the other as it was.
// 8. Clones share sets until one changes them: after any sequence of clones (of clones) and
//    changes (add, replace, remove, ensureSet, addSet) on any member of the family, every
//    registry holds what a deep-copying model holds.
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { buildRegistry, propertyName, propertyValue, registryShape, registryShapeOf, setName } from '../test/arbitraries.js';
import { FormatError } from './errors.js';
import { PropertySetRegistry, readPropertySetRegistry, writePropertySetRegistry } from './property-sets.js';
import { PropertyType, type PropertyValue } from './property-value.js';
import { fcOptions } from '@syclkit/testing';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

describe('.prop properties', () => {
  test.prop([registryShape], fcOptions())('read(write(r)) = r', (shape) => {
    const text = writePropertySetRegistry(buildRegistry(shape));
    expect(registryShapeOf(readPropertySetRegistry(text))).toEqual(shape);
  });

  test.prop([registryShape], fcOptions())('write(read(write(r))) = write(r), each line ending in \\n', (shape) => {
    const text = writePropertySetRegistry(buildRegistry(shape));
    expect(writePropertySetRegistry(readPropertySetRegistry(text))).toBe(text);
    if (text !== '') expect(text.endsWith('\n')).toBe(true);
  });

  test.prop([registryShape], fcOptions())('reading UTF-8 bytes equals reading the string', (shape) => {
    const text = writePropertySetRegistry(buildRegistry(shape));
    expect(registryShapeOf(readPropertySetRegistry(Buffer.from(text, 'utf8')))).toEqual(
      registryShapeOf(readPropertySetRegistry(text)),
    );
  });

  test.prop(
    [
      setName,
      propertyName,
      fc.uint8Array({ maxLength: 24 }),
      fc.nat(),
      fc.constantFrom('=', '|', '-', '_', ' ', '.', '*', 'é', '😀', '\0'),
    ],
    fcOptions(),
  )('a corrupted base64 character is an error at its line and column', (set, name, payload, position, bad) => {
    const registry = new PropertySetRegistry();
    registry.add(set, name, { type: PropertyType.BYTE_ARRAY, bitCount: payload.length * 8, payload });
    const text = writePropertySetRegistry(registry);
    const lineStart = text.indexOf('\n') + 1;
    const valueStart = lineStart + name.length + '=2|'.length;
    const valueLength = text.length - 1 - valueStart;
    const index = valueStart + (position % valueLength);
    const corrupted = text.slice(0, index) + bad + text.slice(index + 1);
    expect(ALPHABET.includes(text[index]!)).toBe(true);
    let error: unknown;
    try {
      readPropertySetRegistry(corrupted, { fileName: 'c.prop' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FormatError);
    expect((error as FormatError).location).toEqual({ file: 'c.prop', line: 2, column: index - lineStart + 1 });
  });

  const anyName = fc.oneof(
    fc.string({ unit: fc.constantFrom(...'ab=[ ~\n\0\t\u007f\u00e9\u4e2d\ud800\udc00'.split('')), maxLength: 6 }),
    fc.string({ unit: 'grapheme', maxLength: 4 }),
    fc.string({ unit: 'binary', maxLength: 4 }),
    fc.string({ maxLength: 8 }),
  );
  const textOk = (text: string): boolean => !text.includes('\n') && !text.includes('\0') && !/\p{Cs}/u.test(text);
  test.prop([anyName, anyName], fcOptions())('accept exactly the names without a newline, NUL or unpaired surrogate', (set, property) => {
    const setOk = textOk(set);
    const propertyOk = textOk(property) && property !== '' && !property.includes('=') && !property.startsWith('[');
    const value = { type: PropertyType.UINT32, value: 1 } as const;
    const attempt = (f: () => void): boolean => {
      try {
        f();
        return true;
      } catch (error) {
        expect(error).toBeInstanceOf(FormatError);
        return false;
      }
    };
    expect(attempt(() => new PropertySetRegistry().ensureSet(set))).toBe(setOk);
    expect(attempt(() => new PropertySetRegistry().addSet(set, [[property, value]]))).toBe(setOk && propertyOk);
    expect(attempt(() => new PropertySetRegistry().add('ok', property, value))).toBe(propertyOk);
  });

  test.prop([registryShape, setName, propertyName, propertyValue], fcOptions())('clone() copies, and the copies are independent', (shape, set, property, value) => {
    const original = buildRegistry(shape);
    const text = writePropertySetRegistry(original);
    const copy = original.clone();
    expect(writePropertySetRegistry(copy)).toBe(text);
    copy.replace(set, property, value);
    for (const [name, entries] of copy) if (entries.size > 0) copy.remove(name, [...entries.keys()][0]!);
    expect(writePropertySetRegistry(original)).toBe(text);
    const again = original.clone();
    original.replace(set, property, value);
    expect(writePropertySetRegistry(again)).toBe(text);
  });

  const step = fc.oneof(
    fc.record({ op: fc.constant('clone' as const), of: fc.nat() }),
    fc.record({ op: fc.constantFrom('add' as const, 'replace' as const), of: fc.nat(), set: fc.constantFrom('A', 'B', 'C'), name: fc.constantFrom('x', 'y', 'z'), value: propertyValue }),
    fc.record({ op: fc.constant('remove' as const), of: fc.nat(), set: fc.constantFrom('A', 'B', 'C'), name: fc.constantFrom('x', 'y', 'z') }),
    fc.record({ op: fc.constantFrom('ensureSet' as const, 'addSet' as const), of: fc.nat(), set: fc.constantFrom('A', 'B', 'C', 'D') }),
  );
  test.prop([registryShape, fc.array(step, { maxLength: 30 })], fcOptions())('clones share sets only until one of them changes', (shape, steps) => {
    type Model = Map<string, Map<string, PropertyValue>>;
    const modelOf = (s: typeof shape): Model => new Map(s.map(([name, props]) => [name, new Map(props)]));
    const copyOf = (m: Model): Model => new Map([...m].map(([name, props]) => [name, new Map(props)]));
    const family: { registry: PropertySetRegistry; model: Model }[] = [{ registry: buildRegistry(shape), model: modelOf(shape) }];
    for (const s of steps) {
      const member = family[s.of % family.length]!;
      const { registry, model } = member;
      if (s.op === 'clone') family.push({ registry: registry.clone(), model: copyOf(model) });
      else if (s.op === 'add') {
        const props = model.get(s.set) ?? new Map();
        model.set(s.set, props);
        const inserted = !props.has(s.name);
        if (inserted) props.set(s.name, s.value);
        expect(registry.add(s.set, s.name, s.value)).toBe(inserted);
      } else if (s.op === 'replace') {
        model.set(s.set, (model.get(s.set) ?? new Map()).set(s.name, s.value));
        registry.replace(s.set, s.name, s.value);
      } else if (s.op === 'remove') {
        expect(registry.remove(s.set, s.name)).toBe(model.get(s.set)?.delete(s.name) ?? false);
      } else if (s.op === 'ensureSet') {
        if (!model.has(s.set)) model.set(s.set, new Map());
        registry.ensureSet(s.set);
      } else if (!model.has(s.set)) {
        model.set(s.set, new Map([['p', { type: PropertyType.UINT32, value: 1 }]]));
        registry.addSet(s.set, [['p', { type: PropertyType.UINT32, value: 1 }]]);
      }
      for (const m of family) expect(registryShapeOf(m.registry)).toEqual([...m.model].map(([name, props]) => [name, [...props]]));
    }
  });

  test.prop([setName, propertyName, propertyValue, propertyValue], fcOptions())(
    'add() keeps the first value; the reader keeps the last',
    (set, name, first, second) => {
      const registry = new PropertySetRegistry();
      registry.add(set, name, first);
      registry.add(set, name, second);
      expect(registry.get(set, name)).toEqual(first);

      const once = (value: typeof first): string => {
        const single = new PropertySetRegistry();
        single.add(set, name, value);
        return writePropertySetRegistry(single);
      };
      const header = `[${set}]\n`;
      const text = once(first) + once(second).slice(header.length);
      expect(readPropertySetRegistry(text).get(set, name)).toEqual(second);
    },
  );
});
