package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// reindexFigures is the predictions' match index rebuilt after a size's load.
type reindexFigures struct {
	Took          time.Duration
	Before, After int64 // the index's bytes
}

// rebuildPredictionsIndex runs the stack's `migrate reindex force`, what the chart's CronJob
// runs once a match's betting has closed: the players load (and, in production, save) in random
// order, which scatters a match's entries over the index, and its result comes after the
// cut-off, once the index is rebuilt (docs/operations.md). force: the bench's matches stay open,
// so no cut-off makes it due. Its JSON log line gives the figures.
func (s *scaleRunner) rebuildPredictionsIndex(ctx context.Context) (reindexFigures, error) {
	var f reindexFigures
	cmd := exec.CommandContext(ctx, filepath.Join(s.cfg.StateDir, "bin", "migrate"), "reindex", "force")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+s.cfg.DatabaseURL)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return f, fmt.Errorf("migrate reindex force: %w\n%s", err, stderr.String())
	}
	lines := bufio.NewScanner(&stderr)
	for lines.Scan() {
		var line struct {
			Msg         string  `json:"msg"`
			Seconds     float64 `json:"seconds"`
			BytesBefore int64   `json:"bytes_before"`
			BytesAfter  int64   `json:"bytes_after"`
		}
		if json.Unmarshal(lines.Bytes(), &line) == nil && line.Msg == "the predictions' index rebuilt" {
			return reindexFigures{Took: time.Duration(line.Seconds * float64(time.Second)), Before: line.BytesBefore, After: line.BytesAfter}, nil
		}
	}
	return f, fmt.Errorf("migrate reindex force did not log a rebuild:\n%s", stderr.String())
}
