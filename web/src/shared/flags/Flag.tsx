import { flagUrls } from './flagUrls';

/**
 * A team's flag from its flag code. Decorative: the team's name always stands next to it, so the
 * image has empty alt text. Unknown or empty codes (a knock-out team not decided yet) get a
 * neutral placeholder of the same size, so rows keep their alignment.
 */
export function Flag({ code }: { code: string }) {
  const url = flagUrls[code];
  if (!url) return <span className="flag flag--placeholder" aria-hidden="true" />;
  return <img className="flag" src={url} alt="" width={24} height={18} loading="lazy" />;
}
