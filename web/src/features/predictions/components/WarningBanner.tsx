import './warningBanner.css';

/** The warning shown on the home and on /jugadas: the cut-off is the rule people miss. */
export function WarningBanner() {
  return (
    <div className="notice warning-banner" role="note">
      <strong>Atención:</strong> podés cargar y cambiar tus jugadas hasta 1 hora antes del comienzo
      de cada partido. Después de ese horario no se aceptan cambios.
    </div>
  );
}
