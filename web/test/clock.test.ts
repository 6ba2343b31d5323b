import { describe, expect, it } from 'vitest';
import { timeLeft } from '../src/clock';
import { Words } from '../src/i18n';

const w = new Words();

describe('timeLeft', () => {
  it('shows minutes and seconds, then hours, then days', () => {
    expect(timeLeft(65, w)).toBe('1:05');
    expect(timeLeft(3 * 3600 + 62, w)).toBe('3:01:02');
    expect(timeLeft(2 * 86400 + 5 * 3600, w)).toBe('2 d 5 h');
  });
  it('is null when the time is up', () => {
    expect(timeLeft(0, w)).toBeNull();
    expect(timeLeft(-5, w)).toBeNull();
    expect(timeLeft(Number.NaN, w)).toBeNull();
  });
});
