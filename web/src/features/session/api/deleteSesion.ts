import { api } from '../../../shared/api/client';
import { unwrap } from '../../../shared/api/unwrap';

/** DELETE /api/sesion: 'Salir' ends the session on the server, not only in this tab. */
export async function deleteSesion(): Promise<void> {
  await unwrap(api.DELETE('/api/sesion'));
}
