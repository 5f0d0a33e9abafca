package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// staticCopy fetches url (with the cookie, unless "") and writes its body to dir/name, for the
// reference nginx to serve the very same bytes.
func staticCopy(url, cookie, dir, name string) (int, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, err
	}
	if res.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET %s: %d %s", url, res.StatusCode, body)
	}
	return len(body), os.WriteFile(filepath.Join(dir, name), body, 0o644)
}

// getBenchmark compares a GET through the service with nginx serving its body as a file. A
// route behind a session is asked with cookie (else ""), and nginx is sent the same cookie.
func (b *bench) getBenchmark(ctx context.Context, service, admin, serviceURL, cookie, file string) (comparison, error) {
	size, err := staticCopy(serviceURL, cookie, b.cfg.StaticDir, file)
	if err != nil {
		return comparison{}, err
	}
	subject := wrkRun{URL: serviceURL, Connections: b.cfg.Connections, Duration: b.cfg.RunTime, Cookie: cookie}
	reference := subject
	reference.URL = b.cfg.ReferenceURL + "/" + file
	c, err := compareHTTP(ctx, b.cfg.WorkDir, subject, reference, b.cfg.Repeats)
	c.BodyBytes = size
	if err != nil {
		return c, err
	}
	c.Profile, err = b.profile(ctx, service, admin, subject)
	return c, err
}

// profile takes the service's CPU profile during one more run of the subject's load.
func (b *bench) profile(ctx context.Context, service, admin string, load wrkRun) (serviceProfile, error) {
	if b.cfg.ProfileTime <= 0 {
		return serviceProfile{}, nil
	}
	load.Duration = b.cfg.ProfileTime + time.Second // the profile starts a little after wrk
	file := filepath.Join(b.cfg.WorkDir, service+"-cpu.pprof")
	return profileDuring(ctx, service, admin, file, b.cfg.ProfileTime, func(ctx context.Context) error {
		_, err := load.run(ctx, b.cfg.WorkDir)
		return err
	})
}

// predictionLua sends each request as a random player of the given ones (cookie and e-mail in
// the path agree), for a random open match, with a random score: the shape of the last hour
// before kick-off. Players are many, so the per-player write limit never triggers.
func predictionLua(players []player, partidos []int64) string {
	var sb strings.Builder
	sb.WriteString("local cookies = {\n")
	for _, p := range players {
		fmt.Fprintf(&sb, "%q,\n", p.Cookie)
	}
	sb.WriteString("}\nlocal emails = {\n")
	for _, p := range players {
		fmt.Fprintf(&sb, "%q,\n", p.Email)
	}
	sb.WriteString("}\nlocal partidos = {")
	for _, id := range partidos {
		fmt.Fprintf(&sb, "%d,", id)
	}
	sb.WriteString(`}
math.randomseed(os.time())
request = function()
  local i = math.random(#cookies)
  local body = string.format('{"partido":%d,"goles_local":%d,"goles_visitante":%d}',
    partidos[math.random(#partidos)], math.random(0, 5), math.random(0, 5))
  return wrk.format("POST", "/api/jugadores/" .. emails[i] .. "/apuestas",
    {["Cookie"] = cookies[i], ["Content-Type"] = "application/json"}, body)
end
`)
	return sb.String()
}

// upsertPgbench is predictions' guarded upsert (store.Save) as a pgbench script, over the
// same players and open matches.
const upsertPgbench = `\set i random(1, :players)
\set m random(1, :matches)
\set local random(0, 5)
\set visitante random(0, 5)
\set jugador :first_player + :i - 1
\set partido :first_match + :m - 1
INSERT INTO predictions.apuestas (jugador_id, jugador_email, partido_id, goles_local, goles_visitante)
SELECT :jugador, 'jugador' || lpad(:i::text, 6, '0') || '@bench.test', p.id, :local, :visitante
  FROM fixtures.partidos_publicados p
 WHERE p.id = :partido AND p.apostable
   AND EXISTS (SELECT 1 FROM players.sesiones_vigentes s WHERE s.id = md5(:jugador::text)::uuid)
ON CONFLICT (jugador_id, partido_id) DO UPDATE
   SET goles_local = EXCLUDED.goles_local, goles_visitante = EXCLUDED.goles_visitante,
       jugador_email = EXCLUDED.jugador_email, actualizada = now()
RETURNING id, partido_id, goles_local, goles_visitante, jugador_email, (xmax = 0) AS creada;
`

var pgbenchTPS = regexp.MustCompile(`(?m)^tps = ([0-9.]+) \(without initial connection time\)`)
var pgbenchLatency = regexp.MustCompile(`(?m)^latency average = ([0-9.]+) ms`)

// pgbenchRun runs the upsert at the given concurrency for d and returns its throughput and
// mean latency in ms, and the CPU seconds pgbench itself used. The players are the loaded ones in e-mail order (ids first..).
func (b *bench) pgbenchRun(ctx context.Context, d time.Duration, firstPlayer int64, players int, firstMatch int64, matches int) (tps, latency, cpu float64, err error) {
	script := filepath.Join(b.cfg.WorkDir, "upsert.pgbench")
	if err := os.WriteFile(script, []byte(upsertPgbench), 0o600); err != nil {
		return 0, 0, 0, err
	}
	cmd := exec.CommandContext(ctx, b.cfg.Pgbench, "-n", "-M", "prepared",
		"-c", strconv.Itoa(b.cfg.Connections), "-j", "1", "-T", strconv.Itoa(int(d.Seconds())),
		"-D", fmt.Sprintf("players=%d", players), "-D", fmt.Sprintf("matches=%d", matches),
		"-D", fmt.Sprintf("first_player=%d", firstPlayer), "-D", fmt.Sprintf("first_match=%d", firstMatch),
		"-f", script, b.cfg.PredictionsURL)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, 0, 0, fmt.Errorf("pgbench: %w\n%s", err, out)
	}
	cpu = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	t, l := pgbenchTPS.FindSubmatch(out), pgbenchLatency.FindSubmatch(out)
	if bytes.Contains(out, []byte("number of transactions actually processed: 0\n")) {
		// A run too short for a loaded machine to even open its connections (the smoke run):
		// a throughput of 0, which the report shows, not a failure of the bench.
		return 0, 0, cpu, nil
	}
	if t == nil || l == nil {
		return 0, 0, cpu, fmt.Errorf("pgbench printed no tps/latency:\n%s", out)
	}
	tps, _ = strconv.ParseFloat(string(t[1]), 64)
	latency, _ = strconv.ParseFloat(string(l[1]), 64)
	return tps, latency, cpu, nil
}

// postBenchmark compares saving predictions through the service (session check, validation,
// guarded upsert, JSON answer) with pgbench running the bare upsert, alternating runs.
func (b *bench) postBenchmark(ctx context.Context, players []player, firstPlayer int64, nPlayers int, firstMatch int64, matches []int64) (comparison, error) {
	subject := wrkRun{
		URL:         b.cfg.PredictionsBase,
		Connections: b.cfg.Connections,
		Duration:    b.cfg.RunTime,
		RequestLua:  predictionLua(players, matches),
	}
	var c comparison
	var reports []wrkReport
	var tps, lat []float64
	for i := -1; i < b.cfg.Repeats; i++ {
		run, d := subject, b.cfg.RunTime
		if i < 0 { // warm-up, not counted
			run.Duration, d = min(d, 2*time.Second), min(d, 2*time.Second)
		}
		err := c.SubjectCPU.measure(func(charge func(string, float64)) error {
			r, err := run.run(ctx, b.cfg.WorkDir)
			charge("wrk", r.CPUSeconds)
			reports = append(reports, r)
			return err
		})
		if err != nil {
			return c, err
		}
		err = c.ReferenceCPU.measure(func(charge func(string, float64)) error {
			t, l, cpu, err := b.pgbenchRun(ctx, d, firstPlayer, nPlayers, firstMatch, len(matches))
			charge("pgbench", cpu)
			tps, lat = append(tps, t), append(lat, l)
			return err
		})
		if err != nil {
			return c, err
		}
		if i < 0 {
			reports, tps, lat = nil, nil, nil
			c.SubjectCPU, c.ReferenceCPU = cpuProfile{}, cpuProfile{}
		}
	}
	c.Subject = summarise(reports)
	c.Reference = httpFigures{RPS: median(tps), MeanMS: median(lat), Runs: len(tps)}
	var err error
	c.Profile, err = b.profile(ctx, "predictions", b.cfg.PredictionsAdmin, subject)
	return c, err
}
