import type { Fijar } from '../api/fijados';

/**
 * Pins or unpins a player: a real toggle button (aria-pressed) named for the player, so a screen
 * reader says "Fijar a Ana, botón de alternancia, no presionado".
 */
export function PinButton({
  jugador,
  nombre,
  fijar,
  pinned = fijar.fijados.has(jugador),
}: {
  jugador: number;
  nombre: string;
  fijar: Fijar;
  /** Whether the player is pinned, when the table knows better than `fijar` (its pins not read yet). */
  pinned?: boolean;
}) {
  return (
    <button
      type="button"
      className={`pin-button${pinned ? ' is-pinned' : ''}`}
      aria-pressed={pinned}
      aria-label={pinned ? `Quitar fijado a ${nombre}` : `Fijar a ${nombre}`}
      title={pinned ? 'Quitar fijado' : 'Fijar'}
      disabled={fijar.pending}
      onClick={() => fijar.toggle(jugador, !pinned)}
    >
      <span aria-hidden="true">{pinned ? '★' : '☆'}</span>
    </button>
  );
}
