import { cierreLocal } from './cierre';

describe('cierreLocal', () => {
  it('is one hour before the kick-off, in the same wall-clock terms', () => {
    expect(cierreLocal('2022-12-18', '12:00')).toEqual({ fecha: '2022-12-18', hora: '11:00' });
    expect(cierreLocal('2022-11-22', '07:05')).toEqual({ fecha: '2022-11-22', hora: '06:05' });
  });

  it('crosses midnight, month and year ends', () => {
    expect(cierreLocal('2022-11-22', '00:30')).toEqual({ fecha: '2022-11-21', hora: '23:30' });
    expect(cierreLocal('2024-03-01', '00:00')).toEqual({ fecha: '2024-02-29', hora: '23:00' });
    expect(cierreLocal('2023-01-01', '00:15')).toEqual({ fecha: '2022-12-31', hora: '23:15' });
  });

  it('leaves what it cannot read as it is', () => {
    expect(cierreLocal('mañana', 'tarde')).toEqual({ fecha: 'mañana', hora: 'tarde' });
  });
});
