/** "1 integrante", "5 integrantes". */
export const integrantes = (n: number) => (n === 1 ? '1 integrante' : `${n} integrantes`);
