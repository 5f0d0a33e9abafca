import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { BrowserRouter } from 'react-router';
import { LiveUpdatesProvider } from '../shared/live/LiveUpdatesProvider';
import { AppRoutes } from './AppRoutes';
import { createQueryClient } from './queryClient';

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {/* One stream of live updates for the whole tab, whatever the screen. */}
      <LiveUpdatesProvider>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </LiveUpdatesProvider>
    </QueryClientProvider>
  );
}
