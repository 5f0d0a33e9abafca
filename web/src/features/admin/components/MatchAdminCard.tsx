import { useState } from 'react';
import { Flag } from '../../../shared/flags/Flag';
import { formatScore, localDate, localTime } from '../../../shared/format';
import type { Partido } from '../api/getPartidos';
import { ResultForm } from './ResultForm';
import { ScheduleForm } from './ScheduleForm';
import { StatusForm } from './StatusForm';
import { TeamsForm } from './TeamsForm';

const ESTADOS: Record<Partido['estado'], string> = {
  programado: 'Programado',
  finalizado: 'Finalizado',
  suspendido: 'Suspendido',
};

/**
 * One match of the organiser's list. Closed it is one line; open, its forms. The forms mount only
 * when open: a tournament has over a hundred matches.
 */
export function MatchAdminCard({ partido }: { partido: Partido }) {
  const [open, setOpen] = useState(false);
  const r = partido.resultado;
  return (
    <li className="admin-match" data-partido={partido.id}>
      <details onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>
          <span className="admin-match__number">#{partido.numero}</span>
          <span className="admin-match__teams">
            <Flag code={partido.bandera_local} /> {partido.nombre_local}
            {r ? ` ${formatScore(r.goles_local, r.goles_visitante)} ` : ' vs '}
            {partido.nombre_visitante} <Flag code={partido.bandera_visitante} />
          </span>
          <span className="admin-match__meta">
            {partido.nombre_categoria} · {localDate(partido.inicio)} {localTime(partido.inicio)} ·{' '}
            {ESTADOS[partido.estado]}
          </span>
        </summary>
        {open && (
          <div className="admin-match__forms">
            <section aria-label="Resultado">
              <h3>Resultado</h3>
              <ResultForm partido={partido} />
            </section>
            {/* A finished match keeps its time, teams and state: only its result may change. */}
            {partido.estado !== 'finalizado' && (
              <>
                <section aria-label="Horario">
                  <h3>Horario</h3>
                  <ScheduleForm partido={partido} />
                </section>
                <section aria-label="Equipos">
                  <h3>Equipos</h3>
                  <TeamsForm partido={partido} />
                </section>
                <section aria-label="Estado">
                  <h3>Estado</h3>
                  <StatusForm partido={partido} />
                </section>
              </>
            )}
          </div>
        )}
      </details>
    </li>
  );
}
