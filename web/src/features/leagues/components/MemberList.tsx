import { useId, useState } from 'react';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { QueryView } from '../../../shared/components/QueryView';
import { formatFecha } from '../../../shared/format';
import { deleteMiembro, useMiembros } from '../api/miembros';
import type { Grupo, Miembro } from '../api/types';
import { useLeagueMutation } from '../api/useLeagueMutation';
import { ConfirmStep } from '../../../shared/components/ConfirmStep';

/** The league's members and since when; its owner may remove anyone but themselves. */
export function MemberList({ grupo, jugadorId }: { grupo: Grupo; jugadorId: number }) {
  const id = useId();
  const miembros = useMiembros(grupo.id, grupo.miembros);
  const [asking, setAsking] = useState<Miembro | null>(null);
  const quitar = useLeagueMutation((m: Miembro) => deleteMiembro(grupo.id, m.id));
  return (
    <section className="card league-section" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Integrantes</h2>
      <QueryView query={miembros} loadingText="Cargando integrantes…">
        {(data) => (
          <>
            <ul className="member-list">
              {data.pages.flat().map((m) => (
                <li key={m.id} className="member-list__item">
                  <span className="member-list__name">
                    {m.nombre}
                    {m.id === grupo.dueno.id && <span className="badge">Creó el grupo</span>}
                    {m.id === jugadorId && <span className="badge">Vos</span>}
                  </span>
                  <span className="member-list__since">desde el {formatFecha(m.desde.slice(0, 10))}</span>
                  {grupo.es_dueno && m.id !== jugadorId && asking?.id !== m.id && (
                    <button type="button" className="link-button" aria-label={`Quitar a ${m.nombre}`} onClick={() => setAsking(m)}>
                      Quitar
                    </button>
                  )}
                  {asking?.id === m.id && (
                    <ConfirmStep
                      danger
                      question={`¿Quitar a ${m.nombre} del grupo?`}
                      confirmText="Sí, quitar"
                      onConfirm={() => {
                        setAsking(null);
                        quitar.mutate(m);
                      }}
                      onCancel={() => setAsking(null)}
                    />
                  )}
                </li>
              ))}
            </ul>
            {miembros.hasNextPage && (
              <button
                type="button"
                className="button button--secondary"
                disabled={miembros.isFetchingNextPage}
                onClick={() => void miembros.fetchNextPage()}
              >
                Ver más integrantes
              </button>
            )}
          </>
        )}
      </QueryView>
      {quitar.isSuccess && (
        <p className="league-feedback" role="status">
          {quitar.variables.nombre} ya no está en el grupo.
        </p>
      )}
      {quitar.isError && <ErrorMessage error={quitar.error} onRetry={() => quitar.mutate(quitar.variables)} compact />}
    </section>
  );
}
