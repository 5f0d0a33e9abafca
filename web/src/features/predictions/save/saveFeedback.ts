import { useCallback, useState } from 'react';

/** What a match card says under its form after the player's last action on it. */
export type SaveFeedback =
  | { kind: 'saved' }
  /** The score typed before the session ended, put back in the inputs after signing in again. */
  | { kind: 'restored' }
  | { kind: 'error'; message: string; retry: boolean };

/**
 * Each match card's feedback, held by the page and not by the card: a refusal refreshes the list,
 * and a match whose kick-off moved lands under another day, where its card is a new one. Its
 * message must still be there.
 */
export function useFeedbackByMatch() {
  const [byMatch, setByMatch] = useState<ReadonlyMap<number, SaveFeedback>>(() => new Map());
  const set = useCallback((partido: number, feedback: SaveFeedback | undefined) => {
    setByMatch((previous) => {
      if (previous.get(partido) === feedback) return previous;
      const next = new Map(previous);
      if (feedback) next.set(partido, feedback);
      else next.delete(partido);
      return next;
    });
  }, []);
  return { of: (partido: number) => byMatch.get(partido), set };
}

export type FeedbackByMatch = ReturnType<typeof useFeedbackByMatch>;
