import { fakePartidoSinJugar as partido } from '../../../test/fixtures';
import { cierreText, dayTitle, groupMatchday } from './matchday';

// Dates in the local zone of whoever runs the tests: the headings are the browser's days.
const NOW = new Date(2026, 10, 20, 10, 30); // Friday 20 November 2026, 10:30

describe('dayTitle', () => {
  it.each([
    [new Date(2026, 10, 20, 23, 59), 'Hoy'],
    [new Date(2026, 10, 21, 0, 0), 'Mañana'],
    [new Date(2026, 10, 19, 22, 0), 'Ayer'],
    [new Date(2026, 10, 22, 13, 0), 'domingo 22 de noviembre'],
    [new Date(2026, 11, 2, 16, 0), 'miércoles 2 de diciembre'],
    [new Date(2027, 0, 9, 16, 0), 'sábado 9 de enero de 2027'],
  ])('%s reads "%s"', (day, title) => {
    expect(dayTitle(day, NOW)).toBe(title);
  });
});

describe('cierreText', () => {
  it('says when predictions close, or closed', () => {
    const open = partido(1, new Date(2026, 10, 20, 16, 0), 'Grupo A');
    expect(cierreText(open, NOW)).toBe('cierra 15:00');
    const closed = partido(2, new Date(2026, 10, 20, 11, 0), 'Grupo A');
    expect(cierreText(closed, NOW)).toBe('cerró 10:00');
  });

  it('says so when the cut-off falls on the evening before a kick-off after midnight', () => {
    const late = partido(3, new Date(2026, 10, 22, 0, 30), 'Grupo B');
    expect(cierreText(late, NOW)).toBe('cierra 23:30 del día anterior');
  });
});

describe('groupMatchday', () => {
  it('groups by local day, then by stage, keeping the order by kick-off', () => {
    const lista = [
      partido(1, new Date(2026, 10, 20, 13, 0), 'Grupo A'),
      partido(2, new Date(2026, 10, 20, 16, 0), 'Grupo B'),
      partido(3, new Date(2026, 10, 20, 19, 0), 'Grupo A'),
      partido(4, new Date(2026, 10, 21, 10, 0), 'Grupo B'),
      partido(5, new Date(2026, 10, 24, 10, 0), 'Octavos de final'),
    ];
    const days = groupMatchday(lista, NOW);
    expect(days.map((d) => d.titulo)).toEqual(['Hoy', 'Mañana', 'martes 24 de noviembre']);
    expect(days[0]?.etapas.map((e) => [e.categoria, e.partidos.map((p) => p.id)])).toEqual([
      ['Grupo A', [1, 3]],
      ['Grupo B', [2]],
    ]);
    expect(days[1]?.etapas.map((e) => e.categoria)).toEqual(['Grupo B']);
    expect(days[2]?.etapas[0]?.partidos.map((p) => p.id)).toEqual([5]);
  });

  it('has no group for an empty list', () => {
    expect(groupMatchday([], NOW)).toEqual([]);
  });
});
