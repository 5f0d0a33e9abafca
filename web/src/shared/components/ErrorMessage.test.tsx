import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useQuery } from '@tanstack/react-query';
import { fakeFetch } from '../../test/fakeFetch';
import { renderWithProviders } from '../../test/render';
import { api } from '../api/client';
import { ApiError } from '../api/ApiError';
import { unwrap } from '../api/unwrap';
import { ErrorMessage } from './ErrorMessage';
import { QueryView } from './QueryView';

function Partidos() {
  const query = useQuery({ queryKey: ['p'], queryFn: () => unwrap(api.GET('/api/partidos-sin-jugar')) });
  return <QueryView query={query}>{(partidos) => <p>{partidos.length} partidos</p>}</QueryView>;
}

describe('ErrorMessage', () => {
  it('shows the message and calls back on Reintentar', async () => {
    const onRetry = vi.fn();
    render(<ErrorMessage error={new ApiError(503, 'servicio_no_disponible', 'Volvé a intentar.')} onRetry={onRetry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Volvé a intentar.');
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it("shows the server's `mensaje` for a failed call, and Reintentar loads again", async () => {
    let calls = 0;
    fakeFetch(() => {
      calls += 1;
      return calls === 1
        ? {
            status: 503,
            body: { error: 'servicio_no_disponible', mensaje: 'El servicio de partidos no está disponible.', request_id: 'x' },
          }
        : { status: 200, body: [] };
    });
    renderWithProviders(<Partidos />);
    expect(await screen.findByRole('alert')).toHaveTextContent('El servicio de partidos no está disponible.');
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('0 partidos')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says in Spanish that the server could not be reached', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    renderWithProviders(<Partidos />);
    expect(await screen.findByRole('alert')).toHaveTextContent('No pudimos conectar con el servidor.');
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeInTheDocument();
  });

  it('has a Spanish fallback when the error body has no mensaje', async () => {
    fakeFetch(() => ({ status: 502, body: 'Bad Gateway' }));
    renderWithProviders(<Partidos />);
    expect(await screen.findByRole('alert')).toHaveTextContent('El servidor tuvo un problema.');
  });
});
