import { QueryView } from '../../shared/components/QueryView';
import { Landing } from '../../features/landing';
import { useSesion } from '../../features/session';
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
