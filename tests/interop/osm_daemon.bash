# osm_daemon.bash - run the real ibsim and a long-running OpenSM, then query
# the simulated fabric with infiniband-diags (sourced by interop tests).
#
#   osm_daemon_start NETFILE DIR [opensm args...]
#       start ibsim on NETFILE with its own socket name, then OpenSM (without
#       -o, with -d2 so that its log is flushed line by line) with its log
#       and dumps in DIR; wait until the log says "SUBNET UP" (or fail after
#       OSM_WAIT seconds, default 120).
#   osm_query CMD [args...]
#       run an infiniband-diags command (ibroute, dump_lfts, saquery, ...)
#       against the running simulation, under timeout.
#   osm_daemon_stop
#       stop OpenSM and ibsim by their PIDs.
#
#   OSM_CONSOLE=1 osm_daemon_start ...
#       the same, with ibsim reading its console from DIR/ibsim.in (a FIFO
#       this shell keeps open) instead of running without one (-n);
#   osm_console CMD
#       then sends it a console command (Unlink "S-..."[3], ReLink ...).
#
# Every process started here is stopped by its PID; callers should
# `trap osm_daemon_stop EXIT`. Needs ibsim-utils, opensm, infiniband-diags.

OSM_D_SOCK=""
OSM_D_IBSIM=""
OSM_D_OSM=""
OSM_D_DIR=""

OSM_D_CONSOLE=""

osm_console() {
  [ -n "$OSM_D_CONSOLE" ] && echo "$*" >&9
}

osm_daemon_stop() {
  if [ -n "$OSM_D_CONSOLE" ]; then
    exec 9>&-
    OSM_D_CONSOLE=""
  fi
  if [ -n "$OSM_D_OSM" ]; then
    kill "$OSM_D_OSM" 2>/dev/null
    wait "$OSM_D_OSM" 2>/dev/null
  fi
  if [ -n "$OSM_D_IBSIM" ]; then
    kill "$OSM_D_IBSIM" 2>/dev/null
    wait "$OSM_D_IBSIM" 2>/dev/null
  fi
  OSM_D_OSM=""
  OSM_D_IBSIM=""
}

# osm_d_wait_for FILE PATTERN PID SECONDS: 0 once FILE matches, 1 otherwise.
osm_d_wait_for() {
  local file=$1 pattern=$2 pid=$3 secs=$4 tries=0
  until grep -q "$pattern" "$file" 2>/dev/null; do
    tries=$((tries + 1))
    if [ $tries -gt $((secs * 10)) ] || ! kill -0 "$pid" 2>/dev/null; then
      return 1
    fi
    sleep 0.1
  done
  return 0
}

osm_daemon_start() {
  local net=$1 dir=$2; shift 2
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd)
  OSM_D_DIR=$dir
  OSM_D_SOCK="lanes_d$$_${RANDOM}"
  if [ "${OSM_CONSOLE:-0}" = 1 ]; then
    rm -f "$dir/ibsim.in" && mkfifo "$dir/ibsim.in"
    IBSIM_SOCKNAME=$OSM_D_SOCK timeout 900 ibsim -s -N 4096 -S 4096 -P 65536 "$net" \
      <"$dir/ibsim.in" >"$dir/ibsim.log" 2>&1 &
    OSM_D_IBSIM=$!
    exec 9>"$dir/ibsim.in"
    OSM_D_CONSOLE=$dir/ibsim.in
  else
    IBSIM_SOCKNAME=$OSM_D_SOCK timeout 900 ibsim -s -n -N 4096 -S 4096 -P 65536 "$net" \
      >"$dir/ibsim.log" 2>&1 &
    OSM_D_IBSIM=$!
  fi
  if ! osm_d_wait_for "$dir/ibsim.log" MaxMcastCap "$OSM_D_IBSIM" 10; then
    echo "ibsim did not start on $net:"; cat "$dir/ibsim.log"
    osm_daemon_stop; return 1
  fi
  sleep 0.2
  # from DIR: ibsim-run's umad2sim makes its sys-PID folder in the current one
  (cd "$dir" && IBSIM_SOCKNAME=$OSM_D_SOCK OSM_TMP_DIR=$dir OSM_CACHE_DIR=$dir \
    exec timeout 900 ibsim-run opensm -e -d2 -f "$dir/osm.log" --dump_files_dir "$dir" "$@" \
    >"$dir/opensm.out" 2>&1) &
  OSM_D_OSM=$!
  if ! osm_d_wait_for "$dir/osm.log" "SUBNET UP" "$OSM_D_OSM" "${OSM_WAIT:-120}"; then
    echo "OpenSM did not bring the subnet up:"; tail -20 "$dir/osm.log"
    osm_daemon_stop; return 1
  fi
  # OpenSM logs SUBNET UP after the LFTs are set; its dumps follow at once
  sleep 0.5
  return 0
}

osm_query() {
  (cd "$OSM_D_DIR" && IBSIM_SOCKNAME=$OSM_D_SOCK timeout 300 ibsim-run "$@" 2>/dev/null)
}
