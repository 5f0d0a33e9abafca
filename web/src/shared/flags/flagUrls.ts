// Only the flags of the 2022 and 2026 World Cup teams, one file each: the whole flag-icons CSS
// would emit ~270 SVGs. A code that is not here gets the neutral placeholder (Flag.tsx).
// Files are 4:3, the backend's codes are ISO 3166-1 alpha-2 lower case plus gb-eng, gb-wls, gb-sct.
import qa from 'flag-icons/flags/4x3/qa.svg';
import ec from 'flag-icons/flags/4x3/ec.svg';
import sn from 'flag-icons/flags/4x3/sn.svg';
import nl from 'flag-icons/flags/4x3/nl.svg';
import gbEng from 'flag-icons/flags/4x3/gb-eng.svg';
import ir from 'flag-icons/flags/4x3/ir.svg';
import us from 'flag-icons/flags/4x3/us.svg';
import gbWls from 'flag-icons/flags/4x3/gb-wls.svg';
import ar from 'flag-icons/flags/4x3/ar.svg';
import sa from 'flag-icons/flags/4x3/sa.svg';
import mx from 'flag-icons/flags/4x3/mx.svg';
import pl from 'flag-icons/flags/4x3/pl.svg';
import fr from 'flag-icons/flags/4x3/fr.svg';
import au from 'flag-icons/flags/4x3/au.svg';
import dk from 'flag-icons/flags/4x3/dk.svg';
import tn from 'flag-icons/flags/4x3/tn.svg';
import es from 'flag-icons/flags/4x3/es.svg';
import cr from 'flag-icons/flags/4x3/cr.svg';
import de from 'flag-icons/flags/4x3/de.svg';
import jp from 'flag-icons/flags/4x3/jp.svg';
import be from 'flag-icons/flags/4x3/be.svg';
import ca from 'flag-icons/flags/4x3/ca.svg';
import ma from 'flag-icons/flags/4x3/ma.svg';
import hr from 'flag-icons/flags/4x3/hr.svg';
import br from 'flag-icons/flags/4x3/br.svg';
import rs from 'flag-icons/flags/4x3/rs.svg';
import ch from 'flag-icons/flags/4x3/ch.svg';
import cm from 'flag-icons/flags/4x3/cm.svg';
import pt from 'flag-icons/flags/4x3/pt.svg';
import gh from 'flag-icons/flags/4x3/gh.svg';
import uy from 'flag-icons/flags/4x3/uy.svg';
import kr from 'flag-icons/flags/4x3/kr.svg';
import za from 'flag-icons/flags/4x3/za.svg';
import cz from 'flag-icons/flags/4x3/cz.svg';
import ba from 'flag-icons/flags/4x3/ba.svg';
import ht from 'flag-icons/flags/4x3/ht.svg';
import gbSct from 'flag-icons/flags/4x3/gb-sct.svg';
import py from 'flag-icons/flags/4x3/py.svg';
import tr from 'flag-icons/flags/4x3/tr.svg';
import cw from 'flag-icons/flags/4x3/cw.svg';
import ci from 'flag-icons/flags/4x3/ci.svg';
import se from 'flag-icons/flags/4x3/se.svg';
import dz from 'flag-icons/flags/4x3/dz.svg';
import at from 'flag-icons/flags/4x3/at.svg';
import jo from 'flag-icons/flags/4x3/jo.svg';
import cv from 'flag-icons/flags/4x3/cv.svg';
import no from 'flag-icons/flags/4x3/no.svg';
import iq from 'flag-icons/flags/4x3/iq.svg';
import uz from 'flag-icons/flags/4x3/uz.svg';
import co from 'flag-icons/flags/4x3/co.svg';
import cd from 'flag-icons/flags/4x3/cd.svg';
import nz from 'flag-icons/flags/4x3/nz.svg';
import eg from 'flag-icons/flags/4x3/eg.svg';
import pa from 'flag-icons/flags/4x3/pa.svg';

export const flagUrls: Readonly<Record<string, string>> = {
  qa,
  ec,
  sn,
  nl,
  'gb-eng': gbEng,
  ir,
  us,
  'gb-wls': gbWls,
  ar,
  sa,
  mx,
  pl,
  fr,
  au,
  dk,
  tn,
  es,
  cr,
  de,
  jp,
  be,
  ca,
  ma,
  hr,
  br,
  rs,
  ch,
  cm,
  pt,
  gh,
  uy,
  kr,
  za,
  cz,
  ba,
  ht,
  'gb-sct': gbSct,
  py,
  tr,
  cw,
  ci,
  se,
  dz,
  at,
  jo,
  cv,
  no,
  iq,
  uz,
  co,
  cd,
  nz,
  eg,
  pa,
};
