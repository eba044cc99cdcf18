import { describe, expect, it } from 'vitest';
import { Base64DecodeError, FormatError } from './errors.js';

describe('FormatError', () => {
  it('puts the location in front of the message and renders file:line:col: error: reason', () => {
    const error = new FormatError('bad property type 7', { file: 'x.prop', line: 3, column: 5 });
    expect(error.message).toBe('x.prop:3:5: bad property type 7');
    expect(error.render()).toBe('x.prop:3:5: error: bad property type 7');
    expect(error.reason).toBe('bad property type 7');
  });

  it('renders without a location as error: reason', () => {
    expect(new FormatError('empty table').render()).toBe('error: empty table');
  });

  it('makes base64 errors FormatErrors that carry the character index', () => {
    const error = new Base64DecodeError('invalid character', 4);
    expect(error).toBeInstanceOf(FormatError);
    expect(error.index).toBe(4);
    expect(error.name).toBe('Base64DecodeError');
  });
});
