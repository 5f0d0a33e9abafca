import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { axeViolations } from '../../../test/axe';
import { fakeFetch } from '../../../test/fakeFetch';
import { renderWithProviders } from '../../../test/render';
import type { Importacion } from '../api/postImportar';
import { ImportForm } from './ImportForm';

const archivo = { name: 'World Cup 2026', matches: [{ num: 1, team1: 'Mexico', team2: 'South Africa' }] };
const file = () => new File([JSON.stringify(archivo)], 'worldcup.json', { type: 'application/json' });

const respuesta = (simulado: boolean): Importacion => ({
  torneo: 'World Cup 2026',
  torneo_id: 2,
  creados: 0,
  actualizados: 2,
  sin_cambios: 101,
  simulado,
  conservados: 1,
  resultados_en_archivo: 1,
  resultados_a_cargar: 1,
  cambios: [
    { numero: 1, partido: 'México - Sudáfrica', cambio: 'horario', detalle: 'De 11/06 16:00 a 10/06 18:00' },
    { numero: 2, partido: 'Corea del Sur - Chequia', cambio: 'resultado', detalle: 'Se carga 2 - 1' },
    { numero: 3, partido: 'Canadá - Bosnia', cambio: 'conservado', detalle: 'El horario lo cambió el organizador' },
  ],
});

describe('ImportForm', () => {
  it('previews the import with its options, lists the changes, then imports the same for real', async () => {
    const { requests } = fakeFetch((r) => {
      const simular = (r.body as { simular?: boolean }).simular === true;
      return { status: 200, body: respuesta(simular) };
    });
    const { container } = renderWithProviders(<ImportForm />);
    const resultados = screen.getByRole('checkbox', { name: 'Cargar también los resultados del archivo' });
    // As the import always did: the file's results are entered unless the organiser says no.
    expect(resultados).toBeChecked();
    expect(resultados).toHaveAccessibleDescription(/como hasta ahora/);

    await userEvent.upload(screen.getByLabelText('Archivo del torneo (JSON de openfootball)'), file());
    const correr = screen.getByRole('group', { name: 'Correr todos los horarios (opcional)' });
    await userEvent.type(within(correr).getByLabelText('Días'), '-1');
    await userEvent.type(within(correr).getByLabelText('Horas'), '2');
    await userEvent.click(screen.getByRole('button', { name: 'Vista previa' }));

    const vista = await screen.findByRole('region', { name: 'Vista previa' });
    expect(within(vista).getByRole('status')).toHaveTextContent(
      'Vista previa de World Cup 2026, todavía no se guardó nada: se crearían 0 partidos, se actualizarían 2, ' +
        '101 quedarían sin cambios y se conservaría 1 cambio hecho a mano. Se cargaría 1 resultado del archivo. ' +
        'Si está bien, tocá Importar.',
    );
    const cambios = within(vista).getAllByRole('listitem');
    expect(cambios.map((li) => li.textContent)).toEqual([
      'Horario Partido 1: México - Sudáfrica — De 11/06 16:00 a 10/06 18:00',
      'Resultado Partido 2: Corea del Sur - Chequia — Se carga 2 - 1',
      'Se conserva lo editado a mano Partido 3: Canadá - Bosnia — El horario lo cambió el organizador',
    ]);
    expect(cambios[2]).toHaveClass('is-kept');
    expect(requests[0]).toEqual({
      method: 'POST',
      path: '/api/partidos/importar',
      body: { ...archivo, resultados: true, desplazamiento_minutos: -22 * 60, simular: true },
    });
    expect(await axeViolations(container)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Importar' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Importado. World Cup 2026: 0 creados, 2 actualizados, 101 sin cambios. Se cargó 1 resultado. ' +
        'Se conservó 1 cambio hecho a mano.',
    );
    expect(screen.queryByRole('region', { name: 'Vista previa' })).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Qué cambió' })).toBeInTheDocument();
    expect(requests[1]?.body).toEqual({ ...archivo, resultados: true, desplazamiento_minutos: -1320, simular: false });
  }, 20_000);

  it('imports fixtures only when the results box is unchecked, and a changed option drops the preview', async () => {
    const { requests } = fakeFetch(() => ({
      status: 200,
      body: { ...respuesta(true), resultados_a_cargar: 0, cambios: [] },
    }));
    renderWithProviders(<ImportForm />);
    await userEvent.upload(screen.getByLabelText('Archivo del torneo (JSON de openfootball)'), file());
    await userEvent.click(screen.getByRole('checkbox', { name: 'Cargar también los resultados del archivo' }));
    await userEvent.click(screen.getByRole('button', { name: 'Vista previa' }));
    const vista = await screen.findByRole('region', { name: 'Vista previa' });
    expect(vista).toHaveTextContent('El archivo trae 1 resultado, pero no se carga ninguno: solo el fixture.');
    expect(vista).toHaveTextContent('El archivo no cambia ningún partido.');
    expect(requests[0]?.body).toMatchObject({ resultados: false, desplazamiento_minutos: 0, simular: true });

    await userEvent.type(screen.getByLabelText('Horas'), '3');
    expect(screen.queryByRole('region', { name: 'Vista previa' })).not.toBeInTheDocument();
  });

  it('says in Spanish when no file was chosen or it is not a tournament, without calling the server', async () => {
    const { requests } = fakeFetch(() => undefined);
    renderWithProviders(<ImportForm />);
    await userEvent.click(screen.getByRole('button', { name: 'Importar' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Elegí el archivo del torneo.');
    await userEvent.upload(
      screen.getByLabelText('Archivo del torneo (JSON de openfootball)'),
      new File(['no es json'], 'torneo.json', { type: 'application/json' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Vista previa' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('El archivo no es un torneo en formato openfootball');
    expect(requests).toHaveLength(0);
  });
});
