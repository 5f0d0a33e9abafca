package store

// The fingerprint's arithmetic, for the external tests to compare the SQL with the Go.
const SumOfHuellas = sumOfHuellas

var AddHuella = addHuella
