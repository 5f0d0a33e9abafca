import { QueryView } from '../../../shared/components/QueryView';
import { useConteo } from '../api/getConteo';
import type { Pregunta } from '../api/types';

/** After the lock: how many players chose each option, the right ones marked. */
export function AnswerCounts({ pregunta }: { pregunta: Pregunta }) {
  const conteo = useConteo(pregunta.id);
  return (
    <QueryView query={conteo} loadingText="Cargando las respuestas de todos…">
      {(data) => (
        <table className="bonus-counts">
          <caption>
            Respuestas de todos ({data.total === 1 ? '1 jugador' : `${data.total} jugadores`})
          </caption>
          <thead>
            <tr>
              <th scope="col">Opción</th>
              <th scope="col">Jugadores</th>
            </tr>
          </thead>
          <tbody>
            {data.opciones.map((o) => (
              <tr key={o.opcion} className={pregunta.correctas.includes(o.opcion) ? 'is-right' : undefined}>
                <td>
                  {o.texto}
                  {pregunta.correctas.includes(o.opcion) && <span className="badge">Correcta</span>}
                </td>
                <td>{o.cantidad}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </QueryView>
  );
}
