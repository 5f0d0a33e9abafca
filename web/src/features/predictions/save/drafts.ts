// A score the player typed but could not save because the session had ended, kept in this tab
// (sessionStorage) until they sign in again and come back to /jugadas. Keyed by e-mail, so the
// next person to sign in on a shared computer never sees someone else's numbers.

const KEY = 'prode.jugadas-sin-guardar';

export interface Draft {
  local: string;
  visitante: string;
}

type Stored = Record<string, Record<string, Draft>>;

function read(): Stored {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Stored) : {};
  } catch {
    return {}; // storage disabled or a damaged value: no draft
  }
}

function write(stored: Stored) {
  try {
    if (Object.keys(stored).length === 0) sessionStorage.removeItem(KEY);
    else sessionStorage.setItem(KEY, JSON.stringify(stored));
  } catch {
    // Storage full or disabled: the draft is lost, as it would have been without this.
  }
}

export function keepDraft(email: string, partido: number, draft: Draft): void {
  const stored = read();
  stored[email] = { ...stored[email], [partido]: draft };
  write(stored);
}

export function draftOf(email: string, partido: number): Draft | undefined {
  const draft = read()[email]?.[partido];
  return draft && typeof draft.local === 'string' && typeof draft.visitante === 'string' ? draft : undefined;
}

export function dropDraft(email: string, partido: number): void {
  const stored = read();
  const mine = stored[email];
  if (!mine || !(partido in mine)) return;
  delete mine[partido];
  if (Object.keys(mine).length === 0) delete stored[email];
  write(stored);
}
