import { useState } from 'react';
import { QueryView } from '../../../shared/components/QueryView';
import { useApuestasDePartido } from '../api/getApuestasDePartido';
import { Pagination, totalPaginas } from '../../../shared/components/Pagination';
import { PlayersTable } from './PlayersTable';

interface Props {
  partido: number;
  jugadorId: number;
}

/** A locked match not played yet: everyone's predictions, by name, a page at a time. */
export function PredictionsList({ partido, jugadorId }: Props) {
  const [pagina, setPagina] = useState(1);
  const apuestas = useApuestasDePartido(partido, pagina, jugadorId);
  return (
    <section className="match-block" aria-labelledby="jugadas-titulo">
      <h2 id="jugadas-titulo">Las jugadas de todos</h2>
      <QueryView query={apuestas} loadingText="Cargando las jugadas…">
        {(page) => {
          if (page.total === 0) return <p className="empty">Nadie hizo jugadas para este partido.</p>;
          const paginas = totalPaginas(page);
          return (
            <>
              <PlayersTable
                caption={`Jugadas de todos, por nombre (página ${page.pagina} de ${paginas})`}
                filas={page.apuestas}
                conPuntos={false}
              />
              <Pagination label="Páginas de la lista de jugadas" pagina={page.pagina} totalPaginas={paginas} onChange={setPagina} />
            </>
          );
        }}
      </QueryView>
    </section>
  );
}
