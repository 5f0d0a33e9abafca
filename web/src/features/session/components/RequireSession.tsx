import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { QueryView } from '../../../shared/components/QueryView';
import { useSesion, type Jugador } from '../api/getSesion';

interface Props {
  /** Organisers only (the session's `admin`). */
  admin?: boolean;
  children: (jugador: Jugador) => ReactNode;
}

/** Screens for signed-in players: signed out, they go to the landing at /. */
export function RequireSession({ admin = false, children }: Props) {
  const sesion = useSesion();
  return (
    <QueryView query={sesion}>
      {(jugador) => {
        if (!jugador) return <Navigate to="/" replace />;
        if (admin && !jugador.admin) {
          return (
            <section className="page">
              <h1>Solo para organizadores</h1>
              <p>Esta sección es solo para quienes organizan el prode.</p>
            </section>
          );
        }
        return children(jugador);
      }}
    </QueryView>
  );
}
