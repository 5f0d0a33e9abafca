// Where to go after the next sign-in in this tab. A screen whose session ended under the player
// (a save answered 401) leaves its path here; the landing shows the notice, and the sign-in goes
// back to the path instead of the home. Stale after half an hour: a person who comes back
// later starts from the home, as usual.

const KEY = 'prode.volver-tras-ingresar';
const VALID_FOR_MS = 30 * 60_000;

export interface PendingReturn {
  /** An in-app path, e.g. "/jugadas". */
  path: string;
  /** What the landing tells the player, in Spanish. */
  aviso: string;
}

interface Stored extends PendingReturn {
  at: number;
}

/** Only a path of this app: never another site ("//evil.example"). */
const isAppPath = (path: unknown): path is string =>
  typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');

export function returnAfterSignIn(path: string, aviso: string): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ path, aviso, at: Date.now() } satisfies Stored));
  } catch {
    // Storage disabled: the sign-in lands on the home, as before.
  }
}

export function pendingReturn(now = Date.now()): PendingReturn | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<Stored> | null;
    if (!stored || !isAppPath(stored.path) || typeof stored.aviso !== 'string') return null;
    if (typeof stored.at !== 'number' || now - stored.at > VALID_FOR_MS) return null;
    return { path: stored.path, aviso: stored.aviso };
  } catch {
    return null;
  }
}

/** The pending return, forgotten as it is taken: it applies to one sign-in only. */
export function takePendingReturn(): PendingReturn | null {
  const pending = pendingReturn();
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored, then.
  }
  return pending;
}
