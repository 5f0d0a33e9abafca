import './standings.css';
/** How equal scores are ordered (DESIGN.md section 6), shown wherever the table is. */
export function TieBreakRule() {
  return (
    <p className="tie-break">
      Con igual puntaje, se ordena primero por cantidad de resultados exactos y después por
      cantidad de aciertos (ganador, perdedor o empate). Quienes tienen el mismo puntaje comparten
      la posición.
    </p>
  );
}
