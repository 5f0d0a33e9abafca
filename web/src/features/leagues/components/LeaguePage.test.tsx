import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axeViolations } from '../../../test/axe';
import { fakeEventSources } from '../../../test/fakeEventSource';
import { fakeFetch, type Recorded } from '../../../test/fakeFetch';
import { renderRoutes } from '../../../test/render';
import type { EventSourceFactory } from '../../../shared/live/useLiveUpdates';
import type { PosicionGrupo } from '../api/types';
import { LeaguePage } from './LeaguePage';

const ana = { id: 3, nombre: 'Ana', email: 'ana@prode.test', admin: false };
const beto = { id: 4, nombre: 'Beto', email: 'beto@prode.test', admin: false };
const CODIGO = 'Qm9uaXRvQ29kaWdvMTIzNA';

const grupoDeAna = (over = {}) => ({
  id: 5,
  torneo: 1,
  nombre: 'La oficina',
  miembros: 2,
  dueno: { id: 3, nombre: 'Ana' },
  es_dueno: true,
  codigo: CODIGO,
  ...over,
});
const fila = (posicion: number, id: number, nombre: string, puntaje: number, bonus = 0): PosicionGrupo => ({
  posicion,
  id,
  nombre,
  puntaje,
  bonus,
  exactos: 0,
  aciertos: 0,
  posicion_anterior: null,
});
const tabla = (version: number, posiciones: PosicionGrupo[]) => ({
  grupo: 5,
  torneo: 1,
  version,
  pagina: 1,
  por_pagina: 100,
  total: posiciones.length,
  posiciones,
});
const miembros = [
  { id: 3, nombre: 'Ana', desde: '2026-05-01T12:00:00Z' },
  { id: 4, nombre: 'Beto', desde: '2026-05-02T12:00:00Z' },
];

type Answer = { status: number; body?: unknown } | undefined;

/** The league's server; `extra` answers the writes. */
function serve(grupo: object, extra: (r: Recorded) => Answer = () => undefined, puntos = { beto: 12 }) {
  return fakeFetch((r) => {
    if (r.method === 'GET' && r.path === '/api/grupos/5') return { status: 200, body: grupo };
    if (r.method === 'GET' && r.path === '/api/grupos/5/miembros?pagina=1') return { status: 200, body: miembros };
    if (r.method === 'GET' && r.path === '/api/grupos/5/posiciones?pagina=1&por_pagina=100') {
      return { status: 200, body: tabla(puntos.beto, [fila(1, 4, 'Beto', puntos.beto, 2), fila(2, 3, 'Ana', 7)]) };
    }
    return extra(r);
  });
}

/** What the app passes: here a plain list, so the test reads the rows the page gave it. */
const renderTable = (posiciones: PosicionGrupo[]) => (
  <ol aria-label="Filas">
    {posiciones.map((p) => (
      <li key={p.id}>{`${p.posicion} ${p.nombre} ${p.bonus} ${p.puntaje}`}</li>
    ))}
  </ol>
);

function page(jugador = ana, live?: EventSourceFactory) {
  return renderRoutes(
    { '/grupos/:id': <LeaguePage jugador={jugador} renderTable={renderTable} />, '/grupos': <h1>Mis grupos</h1> },
    { route: '/grupos/5', live },
  );
}

const rows = async () => within(await screen.findByRole('list', { name: 'Filas' })).getAllByRole('listitem').map((li) => li.textContent);

describe('LeaguePage', () => {
  it("shows the league's table, its members and, for its owner, the invite link", async () => {
    serve(grupoDeAna());
    const { container } = page();
    expect(await screen.findByRole('heading', { level: 1, name: 'La oficina' })).toBeInTheDocument();
    expect(await rows()).toEqual(['1 Beto 2 12', '2 Ana 0 7']);
    const integrantes = await screen.findByRole('region', { name: 'Integrantes' });
    expect(within(integrantes).getAllByRole('listitem').map((li) => li.firstChild?.textContent)).toEqual([
      'AnaCreó el grupoVos',
      'Beto',
    ]);
    expect(screen.getByLabelText('Enlace de invitación')).toHaveValue(`${window.location.origin}/unirse/${CODIGO}`);
    expect(screen.queryByRole('button', { name: 'Salir del grupo' })).not.toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);
  });

  it('copies the invite link', async () => {
    serve(grupoDeAna());
    page();
    // userEvent.setup() gives the page a clipboard of its own, to read back.
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Copiar enlace' }));
    expect(await navigator.clipboard.readText()).toBe(`${window.location.origin}/unirse/${CODIGO}`);
    expect(await screen.findByText('Enlace copiado.')).toBeInTheDocument();
  });

  it('a new link replaces the old one; a revoked link is gone until a new one', async () => {
    let grupo = grupoDeAna();
    const { requests } = fakeFetch((r) => {
      if (r.method === 'GET' && r.path === '/api/grupos/5') return { status: 200, body: grupo };
      if (r.path === '/api/grupos/5/miembros?pagina=1') return { status: 200, body: miembros };
      if (r.path.startsWith('/api/grupos/5/posiciones')) return { status: 200, body: tabla(1, []) };
      if (r.method === 'POST' && r.path === '/api/grupos/5/codigo') {
        grupo = grupoDeAna({ codigo: 'NuevoCodigoNuevoCodigo' });
        return { status: 200, body: { codigo: 'NuevoCodigoNuevoCodigo' } };
      }
      if (r.method === 'DELETE' && r.path === '/api/grupos/5/codigo') {
        grupo = grupoDeAna({ codigo: null });
        return { status: 204 };
      }
      return undefined;
    });
    page();
    await userEvent.click(await screen.findByRole('button', { name: 'Generar nuevo enlace' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Enlace de invitación')).toHaveValue(`${window.location.origin}/unirse/NuevoCodigoNuevoCodigo`),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Revocar enlace' }));
    expect(await screen.findByText('El enlace está revocado: nadie puede unirse hasta que generes uno nuevo.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Enlace de invitación')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copiar enlace' })).not.toBeInTheDocument();
    expect(requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/grupos/5/codigo',
      'DELETE /api/grupos/5/codigo',
    ]);
  });

  it('the owner removes a member after confirming, renames the league and deletes it', async () => {
    const { requests } = serve(grupoDeAna(), (r) => {
      if (r.method === 'DELETE' && r.path === '/api/grupos/5/miembros/4') return { status: 204 };
      if (r.method === 'PATCH' && r.path === '/api/grupos/5') return { status: 200, body: grupoDeAna({ nombre: 'Oficina 2026' }) };
      if (r.method === 'DELETE' && r.path === '/api/grupos/5') return { status: 204 };
      return undefined;
    });
    page();
    // Not herself: she can only delete the league.
    expect(await screen.findByRole('button', { name: 'Quitar a Beto' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Quitar a Ana' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Quitar a Beto' }));
    expect(screen.getByRole('group', { name: '¿Quitar a Beto del grupo?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancelar' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Sí, quitar' }));
    expect(await screen.findByText('Beto ya no está en el grupo.')).toBeInTheDocument();

    const nombre = screen.getByLabelText('Nombre del grupo');
    await userEvent.clear(nombre);
    await userEvent.type(nombre, 'Oficina 2026');
    await userEvent.click(screen.getByRole('button', { name: 'Cambiar nombre' }));
    expect(await screen.findByText('Nombre cambiado.')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Borrar grupo' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sí, borrar el grupo' }));
    expect(await screen.findByRole('heading', { name: 'Mis grupos' })).toBeInTheDocument();
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([
      { method: 'DELETE', path: '/api/grupos/5/miembros/4', body: undefined },
      { method: 'PATCH', path: '/api/grupos/5', body: { nombre: 'Oficina 2026' } },
      { method: 'DELETE', path: '/api/grupos/5', body: undefined },
    ]);
  });

  it("a member sees no invite link nor owner's tools, and leaves with their own id", async () => {
    const { requests } = serve(grupoDeAna({ es_dueno: false, codigo: null }), (r) =>
      r.method === 'DELETE' && r.path === '/api/grupos/5/miembros/4' ? { status: 204 } : undefined,
    );
    page(beto);
    await userEvent.click(await screen.findByRole('button', { name: 'Salir del grupo' }));
    expect(screen.queryByLabelText('Enlace de invitación')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Quitar/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Borrar grupo' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Sí, salir' }));
    expect(await screen.findByRole('heading', { name: 'Mis grupos' })).toBeInTheDocument();
    expect(requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /api/grupos/5/miembros/4']);
  });

  it("someone else's league: the server's refusal, without 'Reintentar'", async () => {
    const mensaje = 'Solo quienes integran el grupo pueden ver su tabla.';
    fakeFetch(() => ({ status: 403, body: { error: 'no_es_miembro', mensaje, request_id: 'x' } }));
    const { container } = page(beto);
    expect(await screen.findByRole('alert')).toHaveTextContent(mensaje);
    expect(screen.queryByRole('button', { name: 'Reintentar' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ver mis grupos' })).toHaveAttribute('href', '/grupos');
    expect(await axeViolations(container)).toEqual([]);
  });

  it("a `posiciones` event of the league's tournament refetches its table", async () => {
    const puntos = { beto: 12 };
    serve(grupoDeAna(), () => undefined, puntos);
    const sources = fakeEventSources();
    page(ana, sources.factory);
    act(() => sources.latest.open());
    expect(await rows()).toEqual(['1 Beto 2 12', '2 Ana 0 7']);
    puntos.beto = 22;
    act(() => sources.latest.emit('posiciones', { torneo: 1, version: 22 }));
    await waitFor(async () => expect(await rows()).toEqual(['1 Beto 2 22', '2 Ana 0 7']));
  });
});
