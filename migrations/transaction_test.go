package migrations

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

// Recovery from a failed migration (Migrator.RecoverDirty) relies on each file running in one
// transaction: golang-migrate's pgx/v5 driver sends the file as one query with the simple
// protocol, and PostgreSQL runs such a query as one implicit transaction unless the file
// controls transactions itself (BEGIN, COMMIT...) or holds a statement that cannot run in a
// transaction block (CREATE INDEX CONCURRENTLY, VACUUM...). A migration that needs one of those
// does not belong in these folders.
func TestMigrationsRunInOneTransaction(t *testing.T) {
	n := 0
	err := fs.WalkDir(Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !strings.HasSuffix(path, ".sql") {
			return nil
		}
		b, err := fs.ReadFile(Files, path)
		if err != nil {
			return err
		}
		n++
		if problem := transactionProblem(string(b)); problem != "" {
			t.Errorf("%s cannot run in one transaction: %s", path, problem)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no migration files found")
	}
}

func TestTransactionProblem(t *testing.T) {
	fine := []string{
		"CREATE TABLE t (x int);",
		"CREATE TABLE t (x int)", // no final semicolon
		"DO $$ BEGIN IF true THEN NULL; END IF; END $$;",
		"-- BEGIN; COMMIT;\nCREATE TABLE t ();",
		"/* CONCURRENTLY /* nested */ COMMIT */ SELECT 'BEGIN; COMMIT', \"commit\";",
		"SELECT E'it\\'s; COMMIT';",
		"CREATE FUNCTION f() RETURNS int LANGUAGE sql\n BEGIN ATOMIC SELECT CASE WHEN true THEN 1 END; SELECT 2; END;\nCREATE TABLE t ();",
		"CREATE FUNCTION f() RETURNS text LANGUAGE sql AS $fn$ SELECT 'commit' $fn$;",
		"SELECT $1::int; CREATE TABLE begin_end (x int);",
	}
	for _, sql := range fine {
		if p := transactionProblem(sql); p != "" {
			t.Errorf("%q: unexpected problem %q", sql, p)
		}
	}
	bad := []string{
		"BEGIN; CREATE TABLE t (); COMMIT;",
		"begin transaction; CREATE TABLE t ();",
		"START TRANSACTION; CREATE TABLE t ();",
		"CREATE TABLE t (); COMMIT; CREATE TABLE u ();",
		"CREATE TABLE t ();\nend;",
		"CREATE TABLE t (); ROLLBACK;",
		"SAVEPOINT a;",
		"CREATE INDEX CONCURRENTLY i ON t (x);",
		"CREATE UNIQUE INDEX\nconcurrently i ON t (x);",
		"DROP INDEX CONCURRENTLY i;",
		"REINDEX INDEX CONCURRENTLY i;",
		"VACUUM t;",
		"CREATE DATABASE x;",
		"ALTER SYSTEM SET work_mem = '8MB';",
		"DO $$ BEGIN COMMIT; END $$;",
		"CREATE PROCEDURE p() LANGUAGE plpgsql AS $body$ BEGIN ROLLBACK; END $body$;",
	}
	for _, sql := range bad {
		if p := transactionProblem(sql); p == "" {
			t.Errorf("%q: problem not found", sql)
		}
	}
}

// transactionProblem says why sql would not run as one transaction, or "". It reads the SQL's
// words outside comments, string literals and quoted identifiers, statement by statement.
func transactionProblem(sql string) string {
	stmts, bodies := lexSQL(sql)
	for _, words := range stmts {
		if len(words) == 0 {
			continue
		}
		switch words[0] {
		case "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT", "SAVEPOINT", "RELEASE", "PREPARE":
			return fmt.Sprintf("transaction control (%s)", words[0])
		case "VACUUM":
			return "VACUUM cannot run in a transaction"
		}
		if len(words) > 1 {
			switch two := words[0] + " " + words[1]; two {
			case "CREATE DATABASE", "DROP DATABASE", "ALTER SYSTEM", "CREATE TABLESPACE", "DROP TABLESPACE",
				"CREATE SUBSCRIPTION", "DROP SUBSCRIPTION":
				return two + " cannot run in a transaction"
			}
		}
		for _, w := range words {
			if w == "CONCURRENTLY" {
				return "CONCURRENTLY cannot run in a transaction"
			}
		}
	}
	// Function and DO bodies: BEGIN and END are plpgsql blocks there, but COMMIT and ROLLBACK
	// would end the migration's transaction (in a DO block or a procedure it calls).
	for _, body := range bodies {
		inner, nested := lexSQL(body)
		bodies = append(bodies, nested...)
		for _, words := range inner {
			for _, w := range words {
				if w == "COMMIT" || w == "ROLLBACK" {
					return w + " in a function or DO body"
				}
			}
		}
	}
	return ""
}

// lexSQL returns the upper-cased words of each statement of sql, and the contents of its
// dollar-quoted strings. It skips comments (nested /* */ too), string literals (E'...' with
// backslash escapes) and quoted identifiers; a semicolon inside BEGIN ATOMIC ... END does not
// end the statement.
func lexSQL(sql string) (stmts [][]string, bodies []string) {
	var words []string
	atomic := 0 // depth of BEGIN ATOMIC ... END (CASE ... END nests inside)
	isWordStart := func(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	isWord := func(c byte) bool { return isWordStart(c) || c >= '0' && c <= '9' || c == '$' }
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '-' && strings.HasPrefix(sql[i:], "--"):
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '/' && strings.HasPrefix(sql[i:], "/*"):
			depth := 0
			for i < len(sql) {
				if strings.HasPrefix(sql[i:], "/*") {
					depth++
					i += 2
				} else if strings.HasPrefix(sql[i:], "*/") {
					depth--
					i += 2
					if depth == 0 {
						break
					}
				} else {
					i++
				}
			}
		case c == '\'' || c == '"':
			backslash := c == '\'' && len(words) > 0 && i > 0 && (sql[i-1] == 'E' || sql[i-1] == 'e') &&
				words[len(words)-1] == "E"
			if backslash {
				words = words[:len(words)-1] // the E prefix is not a word
			}
			for i++; i < len(sql); i++ {
				if backslash && sql[i] == '\\' {
					i++
				} else if sql[i] == c {
					if i+1 < len(sql) && sql[i+1] == c { // doubled quote
						i++
					} else {
						break
					}
				}
			}
			i++
		case c == '$' && (i == 0 || !isWord(sql[i-1])):
			j := i + 1
			for j < len(sql) && (isWordStart(sql[j]) || j > i+1 && isWord(sql[j]) && sql[j] != '$') {
				j++
			}
			if j >= len(sql) || sql[j] != '$' { // $1, a parameter
				i = j
				continue
			}
			tag := sql[i : j+1]
			end := strings.Index(sql[j+1:], tag)
			if end < 0 {
				bodies = append(bodies, sql[j+1:])
				i = len(sql)
				continue
			}
			bodies = append(bodies, sql[j+1:j+1+end])
			i = j + 1 + end + len(tag)
		case isWordStart(c):
			j := i
			for j < len(sql) && isWord(sql[j]) {
				j++
			}
			w := strings.ToUpper(sql[i:j])
			switch {
			case w == "ATOMIC" && len(words) > 0 && words[len(words)-1] == "BEGIN":
				atomic++
			case atomic > 0 && w == "CASE":
				atomic++
			case atomic > 0 && w == "END":
				atomic--
			}
			words = append(words, w)
			i = j
		case c == ';' && atomic == 0:
			stmts = append(stmts, words)
			words = nil
			i++
		default:
			i++
		}
	}
	return append(stmts, words), bodies
}
