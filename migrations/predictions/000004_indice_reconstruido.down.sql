DROP TABLE predictions.indice_reconstruido;
