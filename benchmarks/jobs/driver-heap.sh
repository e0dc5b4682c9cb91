#!/usr/bin/env bash
# The jobs' driver heap against the grid (benchmarks/jobs/driver-heap.md has the last figures).
#   benchmarks/jobs/driver-heap.sh [OUTDIR]        (LOCAL_ONLY=1: step 2 only)
# 1. heat 512x512 and 8192x8192 (20 steps, 2x2 ranks) on a standalone cluster started here (Master on
#    127.0.0.1, two Workers on 127.0.0.2 and 127.0.0.3, executors in their own JVMs), --out on the local
#    file system: the driver JVM's peak heap from each run's summary.json.
# 2. bin/layout-submit heat --grid 8192x8192 --steps 20 on local[4] (default driver heap), and a check of
#    the field's first 16 rows and last rows against SequentialHeat on a 48-row strip of the same width
#    (after 20 steps the bottom boundary of the strip cannot reach rows < 28).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$root/bin/lib/env.sh"
out="${1:-$root/target/driver-heap}"
rm -rf "$out"
mkdir -p "$out"
cp_="$(layout_submit_classpath)"
flags="$(layout_java_flags)"
if [ "${LOCAL_ONLY:-0}" != 1 ]; then
  home="$out/spark-home"
  mkdir -p "$home/jars" "$home/conf"
  export SPARK_HOME="$home" SPARK_SCALA_VERSION=2.13
  pids=()
  cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
  # the daemons log at INFO here: their start is detected from their log lines
  printf '%s\n' 'rootLogger.level = info' 'rootLogger.appenderRef.stdout.ref = console' 'appender.console.type = Console' \
    'appender.console.name = console' 'appender.console.layout.type = PatternLayout' 'appender.console.layout.pattern = %d %p %c{1}: %m%n' \
    > "$home/conf/log4j2.properties"
  logconf="-Dlog4j2.configurationFile=file://$home/conf/log4j2.properties"
  trap cleanup EXIT
  port=$((20000 + RANDOM % 20000))
  SPARK_LOCAL_IP=127.0.0.1 java -Xmx512m $logconf $flags -cp "$cp_" org.apache.spark.deploy.master.Master --host 127.0.0.1 --port $port \
    --webui-port 0 > "$out/master.log" 2>&1 &
  pids+=($!)
  until grep -q "I have been elected leader" "$out/master.log"; do sleep 1; done
  for w in 2 3; do
    SPARK_LOCAL_IP=127.0.0.$w java -Xmx512m $logconf $flags -cp "$cp_" org.apache.spark.deploy.worker.Worker --host 127.0.0.$w --cores 2 \
      --memory 3g --webui-port 0 --work-dir "$out/work-$w" spark://127.0.0.1:$port > "$out/worker-$w.log" 2>&1 &
    pids+=($!)
  done
  for w in 2 3; do until grep -q "Successfully registered" "$out/worker-$w.log"; do sleep 1; done; done
  unset SPARK_HOME
  for g in 512x512 8192x8192; do
    LAYOUT_PROGRESS=off "$root/bin/layout-submit" heat --master spark://127.0.0.1:$port --executor-cores 2 --executor-memory 2g \
      --total-executor-cores 4 --conf spark.executor.extraClassPath="$cp_" --conf "spark.executor.extraJavaOptions=$flags" \
      --grid $g --stencil 9 --steps 20 --procs 2x2 --out "$out/cluster-$g" > "$out/cluster-$g.log" 2>&1
    echo "cluster $g: $(grep -o '"driver_heap_peak_bytes": [0-9]*' "$out/cluster-$g/summary.json"), $(grep -o '"wall_ms": [0-9.]*' "$out/cluster-$g/summary.json")"
  done
  cleanup
fi
# the command as a user types it (on local[4]: the 9-point stencil and a 2x2 process grid by default)
LAYOUT_PROGRESS=off "$root/bin/layout-submit" heat --master 'local[4]' --grid 8192x8192 --steps 20 \
  --out "$out/local-8192" > "$out/local-8192.log" 2>&1
echo "local[4] 8192x8192: $(grep -o '"driver_heap_peak_bytes": [0-9]*' "$out/local-8192/summary.json"), $(grep -o '"wall_ms": [0-9.]*' "$out/local-8192/summary.json"), $(grep -o '"field_write": "[^"]*"' "$out/local-8192/summary.json")"
cat > "$out/Check.java" <<JAVA
import java.nio.*; import java.nio.channels.FileChannel; import java.nio.file.*;
public class Check {
  public static void main(String[] a) throws Exception {
    int cols = 8192, rows = 8192;
    double[] strip = dev.layout.jobs.heat.SequentialHeat.run(new int[] {48, cols}, 9, false, null, 20);
    try (FileChannel f = FileChannel.open(Path.of(a[0]))) {
      ByteBuffer top = ByteBuffer.allocate(16 * cols * 8).order(ByteOrder.LITTLE_ENDIAN);
      f.read(top, 0);
      top.flip();
      for (int k = 0; k < 16 * cols; k++) if (top.getDouble() != strip[k]) throw new AssertionError("row " + k / cols + " col " + k % cols);
      ByteBuffer end = ByteBuffer.allocate(4 * cols * 8).order(ByteOrder.LITTLE_ENDIAN);
      f.read(end, (long) (rows - 4) * cols * 8);
      end.flip();
      for (int k = 0; k < 4 * cols; k++) if (end.getDouble() != 0.0) throw new AssertionError("last rows not 0 at " + k);
      System.out.println("window check: rows 0-15 equal SequentialHeat bit for bit, rows 8188-8191 are 0; file " + f.size() + " bytes");
    }
  }
}
JAVA
java -cp "$root/jobs/target/classes" "$out/Check.java" "$out/local-8192/field.f64"
