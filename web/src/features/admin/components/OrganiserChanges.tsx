import { useId, useState } from 'react';
import { QueryView } from '../../../shared/components/QueryView';
import { formatFecha } from '../../../shared/format';
import { useAuditoria, type CambioOrganizador } from '../api/getAuditoria';

const POR_PAGINA = 10;

/** What each action is, said as the organiser did it. */
const ACCIONES: Record<CambioOrganizador['accion'], string> = {
  partido_creado: 'Creó el partido',
  resultado_cargado: 'Cargó el resultado',
  resultado_corregido: 'Corrigió el resultado',
  resultado_borrado: 'Borró el resultado',
  horario: 'Cambió el horario',
  equipos: 'Cambió los equipos',
  estado: 'Cambió el estado',
  importacion: 'Importó el torneo',
  torneo_actual: 'Cambió el torneo actual',
  pregunta_creada: 'Creó la pregunta',
  pregunta_editada: 'Editó la pregunta',
  respuesta_correcta_cargada: 'Cargó la respuesta correcta',
  respuesta_correcta_corregida: 'Corrigió la respuesta correcta',
  respuesta_correcta_borrada: 'Borró la respuesta correcta',
};

/** "2 - 1 → sin resultado", "programado → suspendido"; an import or a new match has only after. */
function valores(c: CambioOrganizador): string {
  if (c.antes && c.despues) return `${c.antes} → ${c.despues}`;
  return c.antes || c.despues;
}

/** "Cambios del organizador": who changed what and when, newest first, a page at a time. */
export function OrganiserChanges() {
  const id = useId();
  const [pagina, setPagina] = useState(1);
  const auditoria = useAuditoria(pagina, POR_PAGINA);
  return (
    <section className="card admin-section" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Cambios del organizador</h2>
      <QueryView query={auditoria} loadingText="Cargando los cambios…">
        {(a) => {
          if (a.total === 0) return <p className="empty">Todavía no hubo cambios.</p>;
          const paginas = Math.max(1, Math.ceil(a.total / a.por_pagina));
          return (
            <>
              <ol className="audit-list">
                {a.cambios.map((c) => (
                  <li key={c.id} className="audit-entry">
                    <p className="audit-entry__what">
                      <strong>{ACCIONES[c.accion]}</strong>
                      {c.partido ? ` de ${c.partido}` : c.torneo ? ` · ${c.torneo}` : ''}
                    </p>
                    {valores(c) && <p className="audit-entry__values">{valores(c)}</p>}
                    {c.forzado && (
                      <p className="audit-entry__forced">Reabrió las apuestas después de que se mostraron las jugadas.</p>
                    )}
                    <p className="audit-entry__meta">
                      <span className="visually-hidden">Quién: </span>
                      {c.nombre} ({c.email}) · <span className="visually-hidden">Cuándo: </span>
                      {/* The tournament's time zone, like the values above it ("29/12/2026 10:00 →
                          02/12/2026 08:07"), which the server wrote as text (shared/format.ts). */}
                      <time dateTime={c.cuando}>
                        {formatFecha(c.fecha)} {c.hora}
                      </time>
                    </p>
                  </li>
                ))}
              </ol>
              {paginas > 1 && (
                <nav className="audit-pages" aria-label="Páginas de cambios">
                  <button
                    type="button"
                    className="button button--secondary"
                    disabled={pagina <= 1}
                    onClick={() => setPagina((p) => p - 1)}
                  >
                    Más recientes
                  </button>
                  <span aria-live="polite">
                    Página {a.pagina} de {paginas}
                  </span>
                  <button
                    type="button"
                    className="button button--secondary"
                    disabled={pagina >= paginas}
                    onClick={() => setPagina((p) => p + 1)}
                  >
                    Anteriores
                  </button>
                </nav>
              )}
            </>
          );
        }}
      </QueryView>
    </section>
  );
}
