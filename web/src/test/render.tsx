import type { ReactElement, ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { LiveUpdatesProvider } from '../shared/live/LiveUpdatesProvider';
import type { EventSourceFactory } from '../shared/live/useLiveUpdates';

interface Options {
  route?: string;
  /** Wrap in the live-updates provider with this EventSource factory (null: none, so polling). */
  live?: EventSourceFactory | null;
}

/** Renders with a fresh query cache (no retries: a failure shows at once) and a router. */
export function renderWithProviders(ui: ReactElement, { route = '/', live }: Options = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const withLive = (children: ReactNode) =>
    live === undefined ? children : <LiveUpdatesProvider createEventSource={live}>{children}</LiveUpdatesProvider>;
  return {
    queryClient,
    ...render(
      <QueryClientProvider client={queryClient}>
        {withLive(<MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>)}
      </QueryClientProvider>,
    ),
  };
}

/**
 * renderWithProviders with routes, by path: the page under test at its own, and stand-ins (a
 * heading) where it may send the player, so that a test sees where it went.
 */
export function renderRoutes(routes: Record<string, ReactElement>, options?: Options) {
  return renderWithProviders(
    <Routes>
      {Object.entries(routes).map(([path, element]) => (
        <Route key={path} path={path} element={element} />
      ))}
    </Routes>,
    options,
  );
}
