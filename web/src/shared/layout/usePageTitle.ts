import { useEffect } from 'react';

/** Names the tab after the screen, so each screen is told apart (and announced) on its own. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Prode de Identidad 2022`;
  }, [title]);
}
