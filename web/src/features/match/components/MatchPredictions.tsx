import { QueryView } from '../../../shared/components/QueryView';
import type { Partido } from '../api/getPartido';
import { useResumenApuestas } from '../api/getResumenApuestas';
import { Distribution } from './Distribution';
import { MyPrediction } from './MyPrediction';
import { PointsList } from './PointsList';
import { PredictionsList } from './PredictionsList';

interface Props {
  partido: Partido;
  jugadorId: number;
}

/**
 * What the players predicted. Before the lock (the server's clock says), only one's own; after
 * it, how everyone predicted and everyone's predictions; once played, who scored what.
 */
export function MatchPredictions({ partido, jugadorId }: Props) {
  const resumen = useResumenApuestas(partido.id, jugadorId);
  return (
    <QueryView query={resumen} loadingText="Cargando las jugadas…">
      {(r) => (
        <>
          <MyPrediction mia={r.mia} apostable={partido.apostable && !r.cerrado} />
          {!r.distribucion ? (
            <p className="match-note">
              Las jugadas de todos se ven cuando cierran las apuestas, 1 hora antes del inicio.
            </p>
          ) : (
            <div className="match-columns">
              <Distribution
                distribucion={r.distribucion}
                local={partido.nombre_local}
                visitante={partido.nombre_visitante}
              />
              {r.distribucion.total > 0 &&
                (partido.estado === 'finalizado' ? (
                  <PointsList torneo={partido.torneo_id} partido={partido.id} jugadorId={jugadorId} />
                ) : (
                  <PredictionsList partido={partido.id} jugadorId={jugadorId} />
                ))}
            </div>
          )}
        </>
      )}
    </QueryView>
  );
}
