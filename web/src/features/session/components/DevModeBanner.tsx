import { useProveedor } from '../api/getProveedor';

/** Announced on every page: in dev mode anyone can sign in as anyone through test accounts. */
export function DevModeBanner() {
  const proveedor = useProveedor();
  if (proveedor.data?.modo !== 'dev') return null;
  return (
    <p className="dev-banner">Modo de desarrollo: el ingreso usa cuentas de prueba, no Google.</p>
  );
}
