# Shared by bin/layout and bin/layout-submit: build on first use, the runtime classpath, JVM flags.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
state="$root/target/layout-cli"
cp_file="$state/classpath.txt"

layout_needs_build() {
  [ -f "$cp_file" ] || return 0
  [ -n "$(find "$root" \( -path "$root/target" -o -path '*/target' -o -path "$root/.git" \) -prune -o \
      \( -name '*.java' -o -name 'pom.xml' -o -path '*/src/main/resources/*' \) -newer "$cp_file" -print 2>/dev/null | head -n 1)" ]
}

# Builds every module (tests skipped) and records jobs' classpath, Spark included, plus every
# module's classes so that each module's subcommands and jobs are found.
layout_build() {
  echo "layout: building the project (first use or sources changed; takes a minute)..." >&2
  mkdir -p "$state"
  local log="$state/build.log"
  if ! (cd "$root" && ./mvnw -B -q -DskipTests package dependency:build-classpath \
        -Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=compile -pl jobs,benchmarks -am) >"$log" 2>&1; then
    echo "layout: build failed; see $log" >&2
    tail -n 30 "$log" >&2
    exit 3
  fi
  local extra=""
  for m in layout-core arrow-io topology spark-connector jobs benchmarks; do
    extra="$extra:$root/$m/target/classes"
  done
  # each module wrote its own dependency list; jobs' has Spark, benchmarks' has JMH, Kryo 5 (relocated) and Fory
  local deps
  deps="$(cat "$root/jobs/target/classpath.txt"):$(cat "$root/benchmarks/target/classpath.txt")"
  # jobs alone for spark-submit: the benchmarks' own dependencies stay off the cluster's class path
  printf '%s:%s' "${extra#:}" "$(cat "$root/jobs/target/classpath.txt")" > "$state/submit-classpath.txt"
  printf '%s:%s' "${extra#:}" "$deps" > "$cp_file"
}

layout_submit_classpath() {
  if [ -n "${LAYOUT_CLASSPATH:-}" ]; then
    printf '%s' "$LAYOUT_CLASSPATH"
    return
  fi
  if layout_needs_build || [ ! -f "$state/submit-classpath.txt" ]; then
    layout_build
  fi
  cat "$state/submit-classpath.txt"
}

layout_classpath() {
  # Tests (and users with their own build) may hand in the classpath and skip the build check.
  if [ -n "${LAYOUT_CLASSPATH:-}" ]; then
    printf '%s' "$LAYOUT_CLASSPATH"
    return
  fi
  if layout_needs_build; then
    layout_build
  fi
  cat "$cp_file"
}

layout_java_flags() {
  local f="-XX:+IgnoreUnrecognizedVMOptions"
  local p
  for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util java.util.concurrent \
           java.util.concurrent.atomic jdk.internal.ref sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
    f="$f --add-opens=java.base/$p=ALL-UNNAMED"
  done
  printf '%s' "$f -Djdk.reflect.useDirectMethodHandle=false -Dio.netty.tryReflectionSetAccessible=true"
}

# Transparent huge pages where the kernel offers them (mode always or madvise; the JVM madvises its
# heap): a layout whose blocks lie a page or more apart otherwise misses the TLB on every block.
layout_huge_pages_flag() {
  if grep -qE '\[(always|madvise)\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
    printf '%s' "-XX:+UseTransparentHugePages"
  fi
}

# The same pages for what the JVM mallocs (direct buffers, off-heap memory): glibc's malloc (2.35 and
# later; older ones ignore the tunable) madvises its chunks onto transparent huge pages. Exported, so
# child JVMs and native programs a command starts inherit it.
layout_huge_pages_env() {
  if [ -n "$(layout_huge_pages_flag)" ]; then
    case ":${GLIBC_TUNABLES:-}:" in
      *:glibc.malloc.hugetlb=*) ;;
      *) export GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.hugetlb=1" ;;
    esac
  fi
}
