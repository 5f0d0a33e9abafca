import type { Cambio, TipoCambio } from '../api/postImportar';

const ETIQUETAS: Record<TipoCambio, string> = {
  nuevo: 'Nuevo',
  horario: 'Horario',
  equipos: 'Equipos',
  resultado: 'Resultado',
  resultado_borrado: 'Resultado borrado',
  categoria_sede: 'Categoría o sede',
  conservado: 'Se conserva lo editado a mano',
};

/** What an import changes (or, previewed, would change), match by match; kept organiser edits stand out. */
export function ImportChanges({ cambios }: { cambios: Cambio[] }) {
  if (cambios.length === 0) return <p className="empty">El archivo no cambia ningún partido.</p>;
  return (
    <ul className="import-changes" aria-label="Cambios">
      {cambios.map((c, i) => (
        <li key={`${c.numero}-${c.cambio}-${i}`} className={c.cambio === 'conservado' ? 'is-kept' : undefined}>
          <span className={`import-changes__tag import-changes__tag--${c.cambio}`}>
            {ETIQUETAS[c.cambio] ?? c.cambio}
          </span>{' '}
          <strong>
            Partido {c.numero}
            {c.partido ? `: ${c.partido}` : ''}
          </strong>
          {c.detalle && <span className="import-changes__detail"> — {c.detalle}</span>}
        </li>
      ))}
    </ul>
  );
}
