// The contract's schema Goles: a whole number from 0 to 99.
export const GOLES_INVALIDOS = 'Los goles tienen que ser un número entero de 0 a 99.';

/**
 * The goals typed in an input, or null when they are not a whole number from 0 to 99 (1.5, -1,
 * 100). Checked before sending, so the player reads why at once, even offline. Empty inputs are
 * the specification's two alerts, asked before this.
 */
export function parseGoles(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,2}$/.test(trimmed)) return null;
  return Number(trimmed);
}
