import { Link, useNavigate, useParams } from 'react-router';
import { isFinalRefusal } from '../../../shared/api/ApiError';
import { ErrorMessage } from '../../../shared/components/ErrorMessage';
import { usePageTitle } from '../../../shared/layout/usePageTitle';
import { SignInButton, useSesion } from '../../session';
import { useInvitacion } from '../api/getInvitacion';
import { postUnirse } from '../api/postUnirse';
import { useLeagueMutation } from '../api/useLeagueMutation';
import { integrantes } from './plural';
import './leagues.css';

/**
 * /unirse/:codigo, the invite link: which league it is; signed out, 'Ingresar con Google' (the
 * popup signs in and this page stays, link and all); signed in, one click joins and opens the
 * league. A revoked or unknown code says so.
 */
export function JoinPage() {
  usePageTitle('Invitación a un grupo');
  const codigo = useParams().codigo ?? '';
  const navigate = useNavigate();
  const invitacion = useInvitacion(codigo);
  const sesion = useSesion();
  const unirse = useLeagueMutation(
    () => postUnirse(codigo),
    (grupo) => void navigate(`/grupos/${grupo.id}`),
  );
  const jugador = sesion.data ?? null;

  let body;
  if (invitacion.isPending || sesion.isPending) {
    body = (
      <p className="loading" role="status">
        Cargando la invitación…
      </p>
    );
  } else if (invitacion.isError) {
    body = isFinalRefusal(invitacion.error) ? (
      <>
        <p className="error-message" role="alert">
          {invitacion.error.message}
        </p>
        <p>Pedile un enlace nuevo a quien creó el grupo.</p>
      </>
    ) : (
      <ErrorMessage error={invitacion.error} onRetry={() => void invitacion.refetch()} />
    );
  } else {
    const inv = invitacion.data;
    body = (
      <div className="card join">
        <p className="join__league">{inv.nombre}</p>
        <p>
          Te invitaron al grupo de {inv.dueno.nombre}, con {integrantes(inv.miembros)}. Tiene su propia tabla de
          posiciones con los puntos del prode.
        </p>
        {jugador ? (
          <>
            <button type="button" className="button button--big" disabled={unirse.isPending} onClick={() => unirse.mutate(undefined)}>
              Unirme a {inv.nombre}
            </button>
            {unirse.isError &&
              (isFinalRefusal(unirse.error) ? (
                <p className="error-message" role="alert">
                  {unirse.error.message}
                </p>
              ) : (
                <ErrorMessage error={unirse.error} onRetry={() => unirse.mutate(undefined)} compact />
              ))}
          </>
        ) : (
          <>
            <p>Ingresá para unirte: después de ingresar seguís en esta página.</p>
            <SignInButton />
          </>
        )}
      </div>
    );
  }
  return (
    <section className="page" aria-labelledby="unirse-titulo">
      <h1 id="unirse-titulo">Invitación a un grupo</h1>
      {body}
      <p>
        <Link to="/">Volver al inicio</Link>
      </p>
    </section>
  );
}
