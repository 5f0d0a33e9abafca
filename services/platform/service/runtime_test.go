package service

import "testing"

func TestMemoryLimitIsAShareOfTheContainers(t *testing.T) {
	for in, want := range map[string]int64{
		"134217728\n": 114085068, // 128 MiB × 0.85
		"268435456":   228170137,
		"max\n":       0,
		"":            0,
		"-1":          0,
	} {
		got, ok := memoryLimit(in)
		if got != want || ok != (want > 0) {
			t.Errorf("memoryLimit(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
}
