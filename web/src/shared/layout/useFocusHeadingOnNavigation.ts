import { useEffect, useState, type RefObject } from 'react';
import { NavigationType, useLocation, useNavigationType } from 'react-router';

// A screen still loading (the organiser's, fetched on demand) gets this long to show its heading.
const WAIT_FOR_HEADING_MS = 10_000;

/** A page reached by a client-side navigation: its path and what had focus as it came. */
interface Arrival {
  pathname: string;
  /** Null on the app's first load, when nothing is moved. */
  focusedBefore: Element | null;
  /** Back or Forward, rather than a link. */
  back: boolean;
}

/**
 * After a client-side navigation to another page, moves focus to the new page's h1 in `main`: a
 * screen reader announces where the person landed, as on a full page load, and the next Tab starts
 * from there instead of from the link left behind.
 *
 * Only when the path changes. Not on the app's first load (the browser already starts at the top
 * of the page), and not when only the query string or the hash changes (paging the standings,
 * picking a tournament, the skip link): the person is still on the same page and its control keeps
 * focus. If the new page moves focus itself (to the player's own row, say), that wins.
 */
export function useFocusHeadingOnNavigation(mainRef: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const [arrival, setArrival] = useState<Arrival>({ pathname, focusedBefore: null, back: false });
  if (arrival.pathname !== pathname) {
    // Noted while rendering the new page, before its own effects may move focus: what has focus
    // now is the link that led here (or nothing, when it went away with the old page).
    const back = navigationType === NavigationType.Pop;
    setArrival({ pathname, focusedBefore: document.activeElement ?? document.body, back });
  }

  useEffect(() => {
    const main = mainRef.current;
    const { focusedBefore, back } = arrival;
    if (!main || !focusedBefore) return;
    const focusUntouched = () => {
      const now = document.activeElement;
      return !now || now === document.body || now === main || now === focusedBefore;
    };

    // A new page starts at its top, as a full load would; Back and Forward keep the browser's place.
    if (!back && window.scrollY > 0) window.scrollTo(0, 0);

    const focusHeading = (): boolean => {
      const heading = main.querySelector('h1');
      if (!heading) return false;
      if (focusUntouched()) {
        // Focusable from script only: a heading is no stop for the Tab key.
        if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
      return true;
    };
    if (focusHeading()) return;

    // The page is still loading: focus its heading as soon as it shows.
    const observer = new MutationObserver(() => {
      if (focusHeading()) stop();
    });
    const timer = window.setTimeout(stop, WAIT_FOR_HEADING_MS);
    function stop() {
      observer.disconnect();
      window.clearTimeout(timer);
    }
    observer.observe(main, { childList: true, subtree: true });
    return stop;
  }, [arrival, mainRef]);
}
