/** The rules text with the points table (specification section 9) and the 1-hour cut-off. */
export function Rules() {
  return (
    <section className="card rules" aria-labelledby="reglamento">
      <h2 id="reglamento">Reglamento</h2>
      <p>
        Pronosticá el resultado de cada partido del Mundial. Podés cargar tu jugada y cambiarla todas
        las veces que quieras hasta 1 hora antes del comienzo del partido. Cuando el partido termina,
        sumás puntos según lo que acertaste:
      </p>
      <table className="points-table">
        <caption className="visually-hidden">Puntos por partido</caption>
        <thead>
          <tr>
            <th scope="col">Si acertás…</th>
            <th scope="col">Puntos</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>El resultado exacto</td>
            <td>10</td>
          </tr>
          <tr>
            <td>El ganador, el perdedor o el empate</td>
            <td>5</td>
          </tr>
          <tr>
            <td>Además, los goles de al menos uno de los equipos</td>
            <td>+2</td>
          </tr>
          <tr>
            <td>Sin acertar el resultado general, los goles de uno de los equipos (consuelo)</td>
            <td>2</td>
          </tr>
        </tbody>
      </table>
      <p className="rules__note">
        En los partidos de eliminación directa cuenta el resultado al final de los 90 minutos y el
        tiempo adicionado: el alargue y los penales se muestran pero no suman.
      </p>
    </section>
  );
}
