import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration, formatKilobytes, parseSize } from './units.js';

describe('parseSize', () => {
  it('reads binary units in any case, with or without a space', () => {
    expect(parseSize('10MB')).toBe(10 * 1024 * 1024);
    expect(parseSize('10 MiB')).toBe(10 * 1024 * 1024);
    expect(parseSize('512k')).toBe(512 * 1024);
    expect(parseSize('1.5G')).toBe(1.5 * 1024 ** 3);
    expect(parseSize('1234')).toBe(1234);
  });

  it('rejects text that is not a size', () => {
    expect(() => parseSize('ten megabytes')).toThrow(/not a size/);
    expect(() => parseSize('10XB')).toThrow(/not a size/);
  });
});

describe('formatting', () => {
  it('prints bytes with a binary unit', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(10 * 1024 * 1024 + 400 * 1024)).toBe('10.4 MiB');
  });

  it('prints durations in ms below a second and in s above', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(1234)).toBe('1.234 s');
    expect(formatDuration(null)).toBe('n/a');
  });

  it('prints an unavailable max RSS as n/a', () => {
    expect(formatKilobytes(null)).toBe('n/a');
    expect(formatKilobytes(2048)).toBe('2.0 MiB');
  });
});
