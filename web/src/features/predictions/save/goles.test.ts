import { parseGoles } from './goles';

describe('parseGoles', () => {
  it.each([
    ['0', 0],
    ['7', 7],
    [' 12 ', 12],
    ['99', 99],
  ])('takes %j as %d', (text, goles) => {
    expect(parseGoles(text)).toBe(goles);
  });

  it.each(['1.5', '-1', '100', '1e1', 'dos', ''])('refuses %j', (text) => {
    expect(parseGoles(text)).toBeNull();
  });
});
