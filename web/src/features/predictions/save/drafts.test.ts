import { draftOf, dropDraft, keepDraft } from './drafts';

afterEach(() => sessionStorage.clear());

describe('drafts', () => {
  it("keeps each player's score per match in this tab until dropped", () => {
    keepDraft('ana@prode.test', 8, { local: '2', visitante: '1' });
    keepDraft('ana@prode.test', 9, { local: '0', visitante: '0' });
    keepDraft('bruno@prode.test', 8, { local: '5', visitante: '5' });
    expect(draftOf('ana@prode.test', 8)).toEqual({ local: '2', visitante: '1' });
    expect(draftOf('bruno@prode.test', 8)).toEqual({ local: '5', visitante: '5' });
    expect(draftOf('carla@prode.test', 8)).toBeUndefined();

    dropDraft('ana@prode.test', 8);
    expect(draftOf('ana@prode.test', 8)).toBeUndefined();
    expect(draftOf('ana@prode.test', 9)).toEqual({ local: '0', visitante: '0' });
    dropDraft('ana@prode.test', 9);
    dropDraft('bruno@prode.test', 8);
    expect(sessionStorage.length).toBe(0);
  });

  it('ignores a damaged stored value', () => {
    sessionStorage.setItem('prode.jugadas-sin-guardar', '{not json');
    expect(draftOf('ana@prode.test', 8)).toBeUndefined();
    keepDraft('ana@prode.test', 8, { local: '1', visitante: '0' });
    expect(draftOf('ana@prode.test', 8)).toEqual({ local: '1', visitante: '0' });
  });
});
