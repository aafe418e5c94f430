#!/usr/bin/env bash
# Runs hasp's benchmark comparison (hasp vs Redisson vs Lettuce on one redis-server, the server's
# EVALSHA ceiling, cross-process fleets, and the locks users pick instead: PostgreSQL advisory locks, a
# database row lock on PostgreSQL and MariaDB, ZooKeeper through Curator, on servers it starts itself)
# and writes lock-bench/results/<profile>/{results.md,throughput.svg,results.json}.
#
#   lock-bench/bench.sh                 quick profile (under 10 minutes on 2 cores)
#   lock-bench/bench.sh --full          careful profile (2 forks, longer iterations)
#   lock-bench/bench.sh --redis URI     use an existing server instead of starting a private one
#   lock-bench/bench.sh --out DIR       write the results elsewhere
#   lock-bench/bench.sh --only REGEX    only the rows whose key (Class.method@threads) matches; "fleet", "ceiling" select those parts
#   lock-bench/bench.sh --no-fleet      skip the cross-process fleets
#
# Builds lock-bench/target/benchmarks.jar first (set HASP_BENCH_NO_BUILD=1 to reuse the existing jar).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${HASP_BENCH_NO_BUILD:-0}" != "1" || ! -f lock-bench/target/benchmarks.jar ]]; then
  echo "building lock-bench/target/benchmarks.jar ..."
  ./mvnw -B -q -o package -pl lock-bench -am -DskipTests 2>/dev/null \
    || ./mvnw -B -q package -pl lock-bench -am -DskipTests
fi
exec java -cp lock-bench/target/benchmarks.jar io.hasp.bench.BenchRunner "$@"
