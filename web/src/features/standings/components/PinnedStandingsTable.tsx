import type { ComponentProps } from 'react';
import { useFijar } from '../api/fijados';
import { StandingsTable } from './StandingsTable';

/** The standings table of a signed-in player: a pin button on every other row. */
export function PinnedStandingsTable(props: Omit<ComponentProps<typeof StandingsTable>, 'fijar'>) {
  return <StandingsTable {...props} fijar={useFijar()} />;
}
