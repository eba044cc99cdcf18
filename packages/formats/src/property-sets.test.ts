import { describe, expect, it } from 'vitest';
import { FormatError } from './errors.js';
import {
  formatPropertyValue,
  PropertySetRegistry,
  readPropertySetRegistry,
  writePropertySetRegistry,
} from './property-sets.js';
import {
  bitVectorValue,
  decodeUint32Array,
  propertyOrigin,
  PropertyType,
  stringValue,
  uint32ArrayValue,
  uint32Value,
} from './property-value.js';

const entries = (registry: PropertySetRegistry): [string, [string, unknown][]][] =>
  [...registry].map(([name, set]) => [name, [...set]]);

function readError(text: string | Uint8Array): FormatError {
  try {
    readPropertySetRegistry(text, { fileName: 'a.prop' });
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw error;
  }
  throw new Error('expected a FormatError');
}

describe('PropertySetRegistry model', () => {
  it('keeps sets and properties in insertion order', () => {
    const registry = new PropertySetRegistry();
    registry.add('B', 'z', uint32Value(1));
    registry.add('A', 'y', uint32Value(2));
    registry.add('B', 'a', uint32Value(3));
    expect(registry.setNames()).toEqual(['B', 'A']);
    expect([...registry.getSet('B')!.keys()]).toEqual(['z', 'a']);
  });

  it('keeps the first value when a property is added twice, as upstream add()', () => {
    const registry = new PropertySetRegistry();
    expect(registry.add('S', 'p', uint32Value(1))).toBe(true);
    expect(registry.add('S', 'p', uint32Value(2))).toBe(false);
    expect(registry.get('S', 'p')).toEqual(uint32Value(1));
  });

  it('replace() overwrites in place without moving the property', () => {
    const registry = new PropertySetRegistry();
    registry.add('S', 'a', uint32Value(1));
    registry.add('S', 'b', uint32Value(2));
    registry.replace('S', 'a', uint32Value(9));
    expect([...registry.getSet('S')!]).toEqual([
      ['a', uint32Value(9)],
      ['b', uint32Value(2)],
    ]);
  });

  it('addSet() refuses an existing set and keeps the order of the entries given', () => {
    const registry = new PropertySetRegistry();
    registry.addSet('S', [
      ['b', uint32Value(1)],
      ['a', uint32Value(2)],
    ]);
    expect([...registry.getSet('S')!.keys()]).toEqual(['b', 'a']);
    expect(() => registry.addSet('S', [])).toThrow('property set [S] already exists');
  });

  it('writes an empty set as its header alone (e.g. [SYCL/kernel param opt])', () => {
    const registry = new PropertySetRegistry();
    registry.ensureSet('SYCL/kernel param opt');
    expect(writePropertySetRegistry(registry)).toBe('[SYCL/kernel param opt]\n');
  });

  it('remove() deletes one property and leaves the set', () => {
    const registry = new PropertySetRegistry();
    registry.add('S', 'a', uint32Value(1));
    expect(registry.remove('S', 'a')).toBe(true);
    expect(registry.remove('S', 'a')).toBe(false);
    expect(registry.remove('T', 'a')).toBe(false);
    expect(registry.hasSet('S')).toBe(true);
    expect(registry.getSet('S')!.size).toBe(0);
  });

  it.each([
    ['', 'it is empty'],
    ['a=b', "it contains '='"],
    ['[x', "it starts with '['"],
    ['a\nb', 'it contains a newline'],
    ['a\0', 'it contains NUL'],
    ['\udc00', 'unpaired surrogate'],
  ])('rejects the property name %j (%s)', (name, problem) => {
    expect(() => new PropertySetRegistry().add('S', name, uint32Value(1))).toThrow(problem);
  });

  it('rejects set names with a newline and accepts ones with ] or [', () => {
    const registry = new PropertySetRegistry();
    expect(() => registry.ensureSet('a\nb')).toThrow('it contains a newline');
    registry.ensureSet('a]b[c');
    expect(readPropertySetRegistry(writePropertySetRegistry(registry)).setNames()).toEqual(['a]b[c']);
  });
});

describe('writePropertySetRegistry', () => {
  it('writes the §2.2 real example byte-exactly, every line ending in \\n', () => {
    const registry = new PropertySetRegistry();
    registry.add('SYCL/devicelib req mask', 'DeviceLibReqMask', uint32Value(0));
    registry.add('SYCL/device requirements', 'aspects', uint32ArrayValue([]));
    registry.add('SYCL/misc properties', 'sycl-grf-size', uint32Value(128));
    expect(writePropertySetRegistry(registry)).toBe(
      '[SYCL/devicelib req mask]\nDeviceLibReqMask=1|0\n' +
        '[SYCL/device requirements]\naspects=2|AAAAAAAAAAA\n' +
        '[SYCL/misc properties]\nsycl-grf-size=1|128\n',
    );
  });

  it('writes an empty registry as the empty string', () => {
    expect(writePropertySetRegistry(new PropertySetRegistry())).toBe('');
  });

  it('formats values as <type>|<value>', () => {
    expect(formatPropertyValue(uint32Value(16))).toBe('1|16');
    expect(formatPropertyValue(uint32ArrayValue([1]))).toBe('2|gAAAAAAAAAQAAAAA');
    expect(formatPropertyValue(bitVectorValue([true, false]))).toBe('2|CAAAAAAAAAQA');
    expect(formatPropertyValue(stringValue('msan'))).toBe('2|gAAAAAAAAAQbzFmb');
  });
});

describe('readPropertySetRegistry', () => {
  it('reads and rewrites upstream PropertySetIOTest contents byte-exactly', () => {
    const ints = '[Staff/Ages]\nperson1=1|20\nperson2=1|25\n[Staff/Experience]\nperson1=1|1\nperson2=1|2\nperson3=1|12\n';
    const bytes = '[Opt/Param]\nkernel1=2|IAAAAAAAAAQA\nkernel2=2|oAAAAAAAAAw///3/wB\n';
    expect(writePropertySetRegistry(readPropertySetRegistry(ints))).toBe(ints);
    expect(writePropertySetRegistry(readPropertySetRegistry(bytes))).toBe(bytes);
  });

  it('decodes the split=auto aspects of device-requirements/aspects.ll', () => {
    const registry = readPropertySetRegistry('[SYCL/device requirements]\naspects=2|gCAAAAAAAAAAAAAABAAAAYAAAAQCAAAAMAAAAA\n');
    expect(decodeUint32Array(registry.get('SYCL/device requirements', 'aspects')!)).toEqual([0, 1, 6, 9, 12]);
  });

  it('reads bytes as UTF-8 and accepts a final line without \\n', () => {
    const registry = readPropertySetRegistry(Buffer.from('[S]\nµ=1|3'));
    expect(registry.get('S', 'µ')).toEqual(uint32Value(3));
  });

  it('reads an empty input as an empty registry', () => {
    expect(readPropertySetRegistry('').size).toBe(0);
    expect(readPropertySetRegistry(new Uint8Array(0)).size).toBe(0);
  });

  it('skips blank lines and treats \\r\\n as a line ending, as line_iterator does', () => {
    const registry = readPropertySetRegistry('\n[S]\r\n\r\na=1|1\r\n\nb=1|2');
    expect(entries(registry)).toEqual([
      [
        'S',
        [
          ['a', uint32Value(1)],
          ['b', uint32Value(2)],
        ],
      ],
    ]);
  });

  it('takes the set name up to the last ] and ignores what follows it', () => {
    expect(readPropertySetRegistry('[a]b] trailing\n').setNames()).toEqual(['a]b']);
  });

  it('reopens a set named again later, appending to it in its first position', () => {
    const registry = readPropertySetRegistry('[A]\nx=1|1\n[B]\ny=1|2\n[A]\nz=1|3\n');
    expect(entries(registry)).toEqual([
      [
        'A',
        [
          ['x', uint32Value(1)],
          ['z', uint32Value(3)],
        ],
      ],
      ['B', [['y', uint32Value(2)]]],
    ]);
  });

  it('keeps the later value of a repeated property at the earlier position, as upstream read()', () => {
    const registry = readPropertySetRegistry('[S]\na=1|1\nb=1|2\na=1|3\n');
    expect([...registry.getSet('S')!]).toEqual([
      ['a', uint32Value(3)],
      ['b', uint32Value(2)],
    ]);
  });

  it('splits at the first = before looking for |, so a name may contain | but not =', () => {
    const registry = readPropertySetRegistry('[S]\nk|x=1|7\n');
    expect(registry.get('S', 'k|x')).toEqual({ type: PropertyType.UINT32, value: 7 });
    expect(writePropertySetRegistry(registry)).toBe('[S]\nk|x=1|7\n');
  });

  it('accepts leading zeros in numbers, as StringRef::getAsInteger does', () => {
    const registry = readPropertySetRegistry('[S]\na=01|007\n');
    expect(registry.get('S', 'a')).toEqual(uint32Value(7));
  });

  it('records where each value came from', () => {
    const registry = readPropertySetRegistry('[S]\n\na=1|1\n', { fileName: 'x.prop' });
    expect(propertyOrigin(registry.get('S', 'a')!)).toEqual({
      location: { file: 'x.prop', line: 3, column: 1 },
      setName: 'S',
      propertyName: 'a',
    });
  });

  describe('errors name the file and line:column', () => {
    it.each([
      ['[S\n', 'a.prop:1:3: invalid line: [S: set header has no \']\''],
      ['a=1|1\n', 'a.prop:1:1: property category missing'],
      ['\n\n', 'a.prop:1:1: invalid property set registry: no set header'],
      ['[S]\nnoequals\n', 'a.prop:2:9: invalid property line: noequals: expected <name>=<type>|<value>'],
      ['[S]\n=1|1\n', 'a.prop:2:1: invalid property line: =1|1: expected <name>=<type>|<value>'],
      ['[S]\na=\n', 'a.prop:2:3: invalid property line: a=: expected <name>=<type>|<value>'],
      ['[S]\na=1\n', 'a.prop:2:4: invalid property value: 1: expected <type>|<value>'],
      ['[S]\na=|1\n', 'a.prop:2:3: invalid property value: |1: expected <type>|<value>'],
      ['[S]\na=1|\n', 'a.prop:2:5: invalid property value: 1|: expected <type>|<value>'],
      ['[S]\na=x|1\n', 'a.prop:2:3: invalid property type: x'],
      ['[S]\na=-1|1\n', 'a.prop:2:3: invalid property type: -1'],
      ['[S]\na=3|1\n', 'a.prop:2:3: bad property type 3'],
      ['[S]\na=0|1\n', 'a.prop:2:3: unsupported property type: 0 (NONE)'],
      ['[S]\na=1|x\n', 'a.prop:2:5: invalid property value: x'],
      ['[S]\na=1| 1\n', 'a.prop:2:5: invalid property value:  1'],
      ['[S]\na=1|-1\n', 'a.prop:2:5: invalid property value: -1'],
      ['[S]\na=1|4294967296\n', 'a.prop:2:5: invalid property value: 4294967296 does not fit in UINT32'],
      ['[S]\na=2|AAAA*AAAAAA\n', "a.prop:2:9: invalid property value: invalid character '*' (0x2a) in base64 value"],
      ['[S]\na=2|AAAAAAAAAAAAA\n', 'a.prop:2:17: invalid property value: invalid encoded sequence length 13: a trailing group of one character'],
      ['[S]\na=2|AAAA\n', 'a.prop:2:5: invalid property value: byte array of 3 bytes is shorter than its 8-byte size prefix'],
      ['[S]\na=2|gAAAAAAAAAQA\n', 'a.prop:2:5: invalid property value: size prefix says 32 bits but 1 payload bytes follow'],
      ['[S]\na\0=1|1\n', 'a.prop:2:2: unexpected NUL character'],
      ['[S]\n\ud800=1|1\n', 'a.prop:2:1: unpaired UTF-16 surrogate'],
    ])('%j', (text, message) => {
      expect(readError(text).message).toBe(message);
    });

    it('locates invalid UTF-8 in byte input', () => {
      const bytes = Uint8Array.from([...Buffer.from('[S]\nab'), 0xc3, 0x28, ...Buffer.from('=1|1\n')]);
      expect(readError(bytes).message).toBe('a.prop:2:3: invalid UTF-8 sequence');
    });

    it('renders as file:line:col: error: reason for the CLI', () => {
      expect(readError('[S]\na=3|1\n').render()).toBe('a.prop:2:3: error: bad property type 3');
    });

    it('counts skipped blank lines in line numbers', () => {
      expect(readError('[S]\n\n\r\nbad\n').location).toEqual({ file: 'a.prop', line: 4, column: 4 });
    });
  });
});
