import { pendingReturn, returnAfterSignIn, takePendingReturn } from './returnAfterSignIn';

afterEach(() => sessionStorage.clear());

describe('returnAfterSignIn', () => {
  it('is taken by one sign-in only', () => {
    returnAfterSignIn('/jugadas', 'Tu sesión se cerró.');
    expect(pendingReturn()).toEqual({ path: '/jugadas', aviso: 'Tu sesión se cerró.' });
    expect(takePendingReturn()).toEqual({ path: '/jugadas', aviso: 'Tu sesión se cerró.' });
    expect(takePendingReturn()).toBeNull();
  });

  it('is forgotten after half an hour', () => {
    returnAfterSignIn('/jugadas', 'Tu sesión se cerró.');
    expect(pendingReturn(Date.now() + 29 * 60_000)).not.toBeNull();
    expect(pendingReturn(Date.now() + 31 * 60_000)).toBeNull();
  });

  it.each(['//evil.example/jugadas', 'https://evil.example', 'jugadas', '/\\evil.example'])(
    'never leads out of the app: %s',
    (path) => {
      returnAfterSignIn(path, 'x');
      expect(pendingReturn()).toBeNull();
    },
  );
});
