import { formatInstante, localDate, localTime } from './format';

describe('instants on screen', () => {
  it('writes the date and time as dd/mm/yyyy and HH:MM in the device zone', () => {
    expect(localDate(new Date(2026, 10, 1, 23, 59).toISOString())).toBe('01/11/2026');
    expect(localTime(new Date(2026, 10, 21, 7, 5).toISOString())).toBe('07:05');
    expect(formatInstante(new Date(2022, 11, 18, 12, 0).toISOString())).toBe('18/12/2022 a las 12:00');
  });

  it('is the device zone, not the server’s: the tests run in UTC, a kick-off at 12:00 in Argentina reads 15:00', () => {
    expect(localTime('2022-12-18T12:00:00-03:00')).toBe('15:00');
    expect(localDate('2022-11-21T23:30:00-03:00')).toBe('22/11/2022');
  });

  it('leaves what it cannot read as it is', () => {
    expect(localDate('mañana')).toBe('mañana');
    expect(localTime('tarde')).toBe('tarde');
    expect(formatInstante('pronto')).toBe('pronto');
  });
});
