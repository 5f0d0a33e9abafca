package ratelimit_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"prode/platform/cache"
	"prode/platform/testenv"
)

// BenchmarkSharedBucketMemory is what one shared bucket costs Redis's memory (used_memory per
// key, on a redis-server of its own), beside the bare reference: a plain SET with an expiry of
// a key as long and a value as long (the GCRA key holds one float). docs/benchmarks.md quotes
// it; rerun it with
//
//	eval "$(dev/test-env.sh)"; cd services/platform && go test -run '^$' -bench SharedBucketMemory -benchtime 20000x ./ratelimit
func BenchmarkSharedBucketMemory(b *testing.B) {
	ctx := context.Background()
	server := testenv.NewRedisServer(b)
	rdb, err := cache.Connect(server.URL(), "")
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = rdb.Close() }()
	r := newReplicaOn(b, rdb, "prode:", 10.0/60, 10) // SIGNIN_RATE 10/min, SIGNIN_BURST 10

	address := func(i int) string { return fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255) }
	before := usedMemory(b, rdb)
	b.ResetTimer()
	for i := range b.N {
		if ok, _ := r.limit.Allow(ctx, address(i)); !ok {
			b.Fatalf("a first sign-in from %s refused", address(i))
		}
	}
	b.StopTimer()
	if n := rdb.DBSize(ctx).Val(); n != int64(b.N) {
		b.Fatalf("%d keys in Redis, want %d: a bucket a key", n, b.N)
	}
	bucket := float64(usedMemory(b, rdb)-before) / float64(b.N)

	rdb.FlushAll(ctx)
	before = usedMemory(b, rdb)
	value := strconv.FormatFloat(float64(time.Now().Unix()-1483228800)+0.123456, 'f', -1, 64)
	for i := range b.N {
		rdb.Set(ctx, "rate:prode:limit:players:signins:"+address(i), value, time.Minute)
	}
	plain := float64(usedMemory(b, rdb)-before) / float64(b.N)
	b.ReportMetric(bucket, "bytes/bucket")
	b.ReportMetric(plain, "bytes/plain-key")
	b.ReportMetric(bucket/plain, "ratio")
}

// usedMemory is Redis's used_memory, in bytes.
func usedMemory(b *testing.B, rdb *redis.Client) int64 {
	b.Helper()
	for line := range strings.SplitSeq(rdb.Info(context.Background(), "memory").Val(), "\r\n") {
		if v, ok := strings.CutPrefix(line, "used_memory:"); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return n
		}
	}
	b.Fatal("no used_memory in INFO memory")
	return 0
}
