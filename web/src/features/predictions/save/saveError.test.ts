import { ApiError } from '../../../shared/api/ApiError';
import { describeSaveError, SESION_CERRADA, SIN_CONEXION, SIN_SERVIDOR } from './saveError';

const refusal = (status: number, code: string, mensaje = 'Mensaje del servidor.') => new ApiError(status, code, mensaje);

describe('describeSaveError', () => {
  it('tells offline from an unreachable server, both worth retrying', () => {
    const network = new ApiError(0, 'sin_conexion', 'No pudimos conectar con el servidor.');
    expect(describeSaveError(network, false)).toEqual({ message: SIN_CONEXION, retry: true });
    expect(describeSaveError(network, true)).toEqual({ message: SIN_SERVIDOR, retry: true });
  });

  it('asks to sign in again when the session ended', () => {
    expect(describeSaveError(refusal(401, 'no_autenticado'), true)).toEqual({ message: SESION_CERRADA, retry: false });
  });

  it.each([
    [429, 'demasiadas_solicitudes'],
    [500, 'error_interno'],
    [503, 'servicio_no_disponible'],
  ])('offers a retry for %d %s', (status, code) => {
    expect(describeSaveError(refusal(status, code), true)).toEqual({ message: 'Mensaje del servidor.', retry: true });
  });

  it.each([
    [409, 'apuesta_cerrada'],
    [409, 'partido_finalizado'],
    [409, 'partido_no_apostable'],
    [409, 'partido_sin_equipos'],
    [400, 'datos_invalidos'],
    [403, 'prohibido'],
    [404, 'no_encontrado'],
  ])('offers no retry for %d %s, which would be refused again', (status, code) => {
    expect(describeSaveError(refusal(status, code), true)).toEqual({ message: 'Mensaje del servidor.', retry: false });
  });
});
