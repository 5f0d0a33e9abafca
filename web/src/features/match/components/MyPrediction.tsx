import { Link } from 'react-router';
import { formatScore } from '../../../shared/format';
import type { ResumenApuestas } from '../api/getResumenApuestas';

interface Props {
  mia: ResumenApuestas['mia'];
  /** The match still takes predictions: offer the way to make or change one. */
  apostable: boolean;
}

/** The player's own prediction for the match, and the way to /jugadas while it can change. */
export function MyPrediction({ mia, apostable }: Props) {
  return (
    <p className="match-mine">
      {mia ? (
        <>
          Tu jugada: <strong>{formatScore(mia.goles_local, mia.goles_visitante)}</strong>
        </>
      ) : (
        'No hiciste jugada para este partido.'
      )}
      {apostable && (
        <>
          {' '}
          <Link to="/jugadas">{mia ? 'Cambiá tu jugada' : 'Hacé tu jugada'}</Link>
        </>
      )}
    </p>
  );
}
