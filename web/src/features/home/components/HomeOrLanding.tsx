import { QueryView } from '../../../shared/components/QueryView';
import { useSesion } from '../../session/api/getSesion';
import { Landing } from '../../landing/components/Landing';
import { Home } from './Home';

/** `/` is the landing signed out and the home signed in (the specification's one route). */
export function HomeOrLanding() {
  const sesion = useSesion();
  return (
    <QueryView query={sesion}>
      {(jugador) => (jugador ? <Home jugador={jugador} /> : <Landing />)}
    </QueryView>
  );
}
