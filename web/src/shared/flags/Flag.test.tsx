import { render } from '@testing-library/react';
import { Flag } from './Flag';
import { flagUrls } from './flagUrls';

// Every team of the 2022 and 2026 World Cups, as the backend spells the codes.
const WORLD_CUP_CODES =
  'qa ec sn nl gb-eng ir us gb-wls ar sa mx pl fr au dk tn es cr de jp be ca ma hr br rs ch cm pt gh uy kr za cz ba ht gb-sct py tr cw ci se dz at jo cv no iq uz co cd nz eg pa'.split(' ');

describe('Flag', () => {
  it('has a flag for every World Cup team', () => {
    expect(WORLD_CUP_CODES.filter((code) => !flagUrls[code])).toEqual([]);
  });

  it('renders the flag image for a known code', () => {
    const { container } = render(<Flag code="gb-eng" />);
    expect(container.querySelector('img')).toHaveAttribute('src', flagUrls['gb-eng']);
  });

  it('renders a neutral placeholder for an empty or unknown code', () => {
    for (const code of ['', 'zz']) {
      const { container, unmount } = render(<Flag code={code} />);
      expect(container.querySelector('img')).toBeNull();
      expect(container.querySelector('.flag--placeholder')).not.toBeNull();
      unmount();
    }
  });
});
