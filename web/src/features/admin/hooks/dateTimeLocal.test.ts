import { fromDateTimeLocal, toDateTimeLocal } from './dateTimeLocal';

describe('datetime-local conversion', () => {
  it('round-trips through the browser zone to RFC 3339 UTC', () => {
    const local = toDateTimeLocal('2022-11-20T16:00:00Z');
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(fromDateTimeLocal(local)).toBe('2022-11-20T16:00:00Z');
  });

  it('refuses an empty or invalid value', () => {
    expect(fromDateTimeLocal('')).toBeNull();
    expect(fromDateTimeLocal('mañana')).toBeNull();
  });
});
