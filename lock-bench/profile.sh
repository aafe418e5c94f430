#!/usr/bin/env bash
# Profiles the JMH benchmarks matching REGEX with async-profiler and says where the time goes:
# a flame graph and collapsed stacks per benchmark under lock-bench/target/profiles, and each
# thread group's share of the samples (event loop, JMH worker, JIT, timer).
#
#   lock-bench/profile.sh REGEX [cpu|wall|alloc|lock] [more JMH options]
#   lock-bench/profile.sh 'PipelinedLockBenchmark.hasp'
#   lock-bench/profile.sh 'EvalShaBenchmark.*Sync' cpu -t 8
#
# async-profiler comes from Maven Central (tools.profiler:async-profiler, Linux x64); it needs
# perf events or falls back to itimer sampling on its own. The benchmarks start their own
# redis-server as bench.sh does (set HASP_BENCH_NO_BUILD=1 to reuse the existing jar).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 1 ]]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
regex=$1
event=${2:-cpu}
shift $(( $# >= 2 ? 2 : 1 ))
case "$event" in
  cpu|wall|alloc|lock) ;;
  *) echo "event: $event (expected: cpu, wall, alloc or lock)" >&2; exit 2 ;;
esac

version=4.1
tools=lock-bench/target/async-profiler
lib=$tools/linux-x64/libasyncProfiler.so
if [[ ! -f $lib ]]; then
  echo "fetching async-profiler $version ..."
  mkdir -p "$tools"
  ./mvnw -B -q dependency:copy -Dartifact="tools.profiler:async-profiler:$version:jar:linux-x64" \
    -DoutputDirectory="$tools"
  (cd "$tools" && jar xf "async-profiler-$version-linux-x64.jar" linux-x64/libasyncProfiler.so)
fi
if [[ "${HASP_BENCH_NO_BUILD:-0}" != "1" || ! -f lock-bench/target/benchmarks.jar ]]; then
  echo "building lock-bench/target/benchmarks.jar ..."
  ./mvnw -B -q -o package -pl lock-bench -am -DskipTests 2>/dev/null \
    || ./mvnw -B -q package -pl lock-bench -am -DskipTests
fi

out=lock-bench/target/profiles
rm -rf "$out"
mkdir -p "$out"
# One fork, 3 x 2 s warm-up, 5 x 2 s measured, unless the given JMH options say otherwise.
options=()
for pair in "-f 1" "-wi 3" "-w 2s" "-i 5" "-r 2s"; do
  flag=${pair%% *}
  given=0
  for arg in "$@"; do [[ $arg == "$flag" ]] && given=1; done
  (( given )) || options+=($pair)
done
java -jar lock-bench/target/benchmarks.jar "$regex" "${options[@]}" "$@" \
  -prof "async:libPath=$PWD/$lib;event=$event;threads=true;output=flamegraph,collapsed;dir=$PWD/$out"

echo
echo "where the $event samples go, by thread group (flame graphs and collapsed stacks in $out):"
find "$out" -name '*.csv' -o -name 'collapsed-*' | sort | while read -r stacks; do
  echo "  ${stacks#"$out"/}"
  # Each line is "thread;frame;...;frame count"; group threads by name without their numbers.
  awk '{
         n = $NF; total += n
         thread = $0; sub(/;.*/, "", thread); sub(/ tid=.*/, "", thread)
         gsub(/[\[\]]/, "", thread); sub(/([-_#][0-9]+)+$/, "", thread)
         by[thread] += n
       }
       END { for (t in by) printf "    %5.1f%%  %s\n", 100 * by[t] / total, t }' "$stacks" | sort -rn | head -12
done
