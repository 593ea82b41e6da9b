# shellcheck shell=bash
# Variables set here are read by the scripts that source this file:
# shellcheck disable=SC2034
# Shared helpers for the load tests in bench/ (bench/run, bench/login-storm,
# bench/board).
# Source it near the top of a script, after `set -euo pipefail`:
#
#   BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
#   source "$BENCH_DIR/lib.sh"
#
# It only defines variables and functions; nothing runs until the script calls
# them. The usual order is: validate knobs (bench_check_duration,
# bench_check_positive_ints, bench_check_tools), bench_build, bench_init_temp,
# bench_start_server, for signed-in pages bench_login, then wrk runs (wrk_start
# / wrk_finish / wrk_result), stop_server and a summary ending with
# bench_machine_line.
# See bench/README.md.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(dirname "$BENCH_DIR")
OUT_DIR="$BENCH_DIR/out"
REPORT_LUA="$BENCH_DIR/report.lua"
# Prefix of error messages, e.g. "bench/run".
BENCH_NAME="bench/$(basename "$0")"

# Binary under test; override only for testing the scripts themselves.
BIN=${TAGARELA_BIN:-$REPO_ROOT/.build/release/tagarela}
HOST=127.0.0.1
STARTUP_TIMEOUT=30   # seconds to wait for /healthz to answer "ok"
STOP_TIMEOUT=10      # seconds to wait after SIGTERM before SIGKILL

# Set by the functions below and read by the scripts.
duration_s=          # DURATION in seconds (bench_check_duration)
DATA_DIR=            # throw-away data directory (bench_init_temp)
SERVER_LOG=          # server stdout + stderr (bench_init_temp)
PORT=                # (bench_start_server)
BASE=                # http://HOST:PORT (bench_start_server)
SERVER_ENV=()        # extra NAME=VALUE environment for the server (set by the script)
SERVER_PID=
WRK_PID=             # the last wrk run started (wrk_start)
WRK_PIDS=()          # wrk runs still going, stopped on exit
TEMP_PATHS=()        # removed on exit
TEMP_PATH=           # the last one made (bench_mktemp)
RESULT=              # the last RESULT line read by wrk_result
CSRF_TOKEN=          # the last anonymous CSRF token (bench_csrf_token)
SESSION_TOKEN=       # the tagarela_session cookie value (bench_login)

die() { echo "$BENCH_NAME: $*" >&2; exit 1; }

# --- knobs ---------------------------------------------------------------------
# DURATION as wrk understands it: N, Ns, Nm or Nh. Converted to seconds so the
# whole wrk run can be bounded with timeout(1) as well.
duration_seconds() {
    local d=$1
    if [[ $d =~ ^([0-9]+)([smh]?)$ ]]; then
        local n=${BASH_REMATCH[1]} unit=${BASH_REMATCH[2]}
        case "$unit" in
            h) echo $((10#$n * 3600)) ;;
            m) echo $((10#$n * 60)) ;;
            *) echo $((10#$n)) ;;
        esac
    else
        return 1
    fi
}

# bench_check_duration: validates $DURATION and sets duration_s.
bench_check_duration() {
    duration_s=$(duration_seconds "$DURATION") || die "DURATION must look like 10, 10s, 2m or 1h (got '$DURATION')"
    (( duration_s > 0 )) || die "DURATION must be positive"
}

# bench_check_positive_ints NAME...: each named variable must be an integer > 0.
bench_check_positive_ints() {
    local knob value
    for knob in "$@"; do
        value=${!knob}
        if ! [[ $value =~ ^[0-9]+$ ]] || (( 10#$value == 0 )); then
            die "$knob must be a positive integer (got '$value')"
        fi
    done
}

# bench_check_tools FILE...: wrk, curl and python3 are installed and each FILE
# (wrk scripts) exists.
bench_check_tools() {
    local tool file
    for tool in wrk curl python3; do
        command -v "$tool" >/dev/null 2>&1 || die "$tool not found (Debian: apt-get install $tool)"
    done
    for file in "$@"; do
        [[ -f $file ]] || die "missing $file"
    done
}

# --- build ---------------------------------------------------------------------
# bench_build FORCE: builds the release binary when FORCE is 1 or it is missing
# (never when TAGARELA_BIN is set).
bench_build() {
    local force=$1
    if [[ -z ${TAGARELA_BIN:-} ]] && { (( force )) || [[ ! -x $BIN ]]; }; then
        echo "==> building release binary (swift build -c release --product tagarela)"
        (cd "$REPO_ROOT" && swift build -c release --product tagarela)
    fi
    [[ -x $BIN ]] || die "server binary not found or not executable: $BIN"
}

# --- temporary state and cleanup -------------------------------------------------
stop_server() {
    [[ -n $SERVER_PID ]] || return 0
    if kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        local waited=0
        while kill -0 "$SERVER_PID" 2>/dev/null && (( waited < STOP_TIMEOUT * 10 )); do
            sleep 0.1
            waited=$((waited + 1))
        done
        if kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "$BENCH_NAME: server did not stop after SIGTERM; sending SIGKILL" >&2
            kill -KILL "$SERVER_PID" 2>/dev/null || true
        fi
    fi
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
}

bench_cleanup() {
    local rc=$? pid
    trap - EXIT INT TERM
    for pid in "${WRK_PIDS[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    WRK_PIDS=()
    stop_server
    if (( ${#TEMP_PATHS[@]} )); then
        rm -rf -- "${TEMP_PATHS[@]}"
    fi
    exit "$rc"
}

# bench_mktemp [-d] NAME: creates $TMPDIR/tagarela-bench-NAME.XXXXXX (a
# directory with -d), removed on exit, and sets TEMP_PATH to it.
bench_mktemp() {
    local dir=()
    if [[ $1 == -d ]]; then dir=(-d); shift; fi
    TEMP_PATH=$(mktemp "${dir[@]}" "${TMPDIR:-/tmp}/tagarela-bench-$1.XXXXXX") || die "mktemp failed"
    TEMP_PATHS+=("$TEMP_PATH")
}

# bench_init_temp: installs the cleanup traps (stop wrk and the server, remove
# temporary files, on any exit) and creates DATA_DIR and SERVER_LOG.
bench_init_temp() {
    trap bench_cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    bench_mktemp -d data
    DATA_DIR=$TEMP_PATH
    bench_mktemp log
    SERVER_LOG=$TEMP_PATH
}

show_server_log() {
    if [[ -s $SERVER_LOG ]]; then
        echo "--- last lines of server output ---" >&2
        tail -n 30 "$SERVER_LOG" >&2
        echo "-----------------------------------" >&2
    fi
}

# --- server --------------------------------------------------------------------
# bench_start_server: starts `$BIN serve` from the repository root on a free
# port of 127.0.0.1 with DATA_DIR and the extra environment in SERVER_ENV, and
# waits until /healthz answers "ok". Sets PORT, BASE and SERVER_PID.
bench_start_server() {
    PORT=$(python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1]); s.close()")
    BASE="http://$HOST:$PORT"

    echo "==> starting ${SERVER_ENV[*]:+${SERVER_ENV[*]} }$BIN serve --port $PORT --data $DATA_DIR"
    cd "$REPO_ROOT" || die "cannot cd to $REPO_ROOT"
    env "${SERVER_ENV[@]}" "$BIN" serve --port "$PORT" --data "$DATA_DIR" >"$SERVER_LOG" 2>&1 &
    SERVER_PID=$!

    local deadline=$((SECONDS + STARTUP_TIMEOUT)) answer
    while :; do
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            show_server_log
            die "server exited before answering /healthz"
        fi
        if answer=$(curl -fsS --max-time 2 "$BASE/healthz" 2>/dev/null) && [[ $answer == ok ]]; then
            break
        fi
        if (( SECONDS >= deadline )); then
            show_server_log
            die "server did not answer 'ok' on $BASE/healthz within ${STARTUP_TIMEOUT}s"
        fi
        sleep 0.2
    done
    echo "==> server ready on $BASE"
}

# --- signing in (curl) -------------------------------------------------------
# set_cookie_value HEADERS NAME: the value of the first "Set-Cookie: NAME=..." in
# a file of response headers (curl -D), or nothing.
set_cookie_value() {
    tr -d '\r' <"$1" | sed -n "s/^[Ss]et-[Cc]ookie: $2=\([^;]*\).*/\1/p" | head -n1
}

# csrf_field PAGE: the value of the first hidden _csrf field of an HTML page.
csrf_field() {
    sed -n 's/.*name="_csrf" value="\([^"]*\)".*/\1/p' "$1" | head -n1
}

# bench_csrf_token DIR: GET /login, check that the tagarela_csrf cookie and the
# form's hidden _csrf field agree, and set CSRF_TOKEN to it. Headers and page go
# to DIR.
bench_csrf_token() {
    local headers="$1/login-headers.txt" page="$1/login.html" cookie field
    curl -sS --max-time 5 -D "$headers" -o "$page" "$BASE/login" || die "GET /login failed"
    cookie=$(set_cookie_value "$headers" tagarela_csrf)
    field=$(csrf_field "$page")
    [[ -n $cookie ]] || die "GET /login set no tagarela_csrf cookie"
    [[ $cookie == "$field" ]] || die "GET /login: tagarela_csrf cookie and _csrf field differ"
    [[ $cookie =~ ^[A-Za-z0-9_-]+$ ]] || die "unexpected CSRF token '$cookie'"
    CSRF_TOKEN=$cookie
}

# bench_login DIR USER PASSWORD: signs USER in with a fresh anonymous token
# (bench_csrf_token); POST /login must answer 303 with a tagarela_session
# cookie, whose value goes to SESSION_TOKEN. Headers and pages go to DIR.
bench_login() {
    local http_dir=$1 user=$2 password=$3 headers="$1/post-login-headers.txt" status session
    bench_csrf_token "$http_dir"
    status=$(curl -sS --max-time 10 -o /dev/null -D "$headers" -w '%{http_code}' \
        -H "Cookie: tagarela_csrf=$CSRF_TOKEN" \
        --data-urlencode "_csrf=$CSRF_TOKEN" --data-urlencode "username=$user" \
        --data-urlencode "password=$password" \
        "$BASE/login") || die "POST /login failed"
    [[ $status == 303 ]] || { show_server_log; die "POST /login as $user answered $status, expected 303"; }
    session=$(set_cookie_value "$headers" tagarela_session)
    [[ -n $session ]] || die "POST /login as $user set no tagarela_session cookie"
    SESSION_TOKEN=$session
}

# --- wrk -----------------------------------------------------------------------
# wrk_start OUTFILE WRK_ARG...: runs wrk in the background, output (stdout and
# stderr) to OUTFILE, and sets WRK_PID to its pid for wrk_finish. wrk stops by
# itself after its -d; timeout(1) (DURATION + 30 s) is only a safety net. Being
# in the background and `wait`ed for lets INT/TERM reach the traps at once.
wrk_start() {
    local out=$1
    shift
    timeout --signal=INT --kill-after=10 "$((duration_s + 30))" wrk "$@" >"$out" 2>&1 &
    WRK_PID=$!
    WRK_PIDS+=("$WRK_PID")
}

# wrk_finish PID OUTFILE LABEL: waits for a wrk_start run; if it failed, shows
# its output and dies.
wrk_finish() {
    local pid=$1 out=$2 label=$3 rc=0 p rest=()
    wait "$pid" || rc=$?
    for p in "${WRK_PIDS[@]}"; do
        [[ $p == "$pid" ]] || rest+=("$p")
    done
    WRK_PIDS=("${rest[@]}")
    if (( rc != 0 )); then
        cat "$out" >&2
        die "wrk failed for $label (exit $rc)"
    fi
}

# wrk_result OUTFILE LABEL: sets RESULT to the RESULT line a report script
# (report.lua, login-storm.lua) printed.
wrk_result() {
    RESULT=$(grep -m1 '^RESULT ' "$1") || die "no RESULT line in wrk output for $2"
}

field() { # field NAME "RESULT a=1 b=2" -> value of NAME
    local name=$1 line=$2 tok
    for tok in $line; do
        if [[ $tok == "$name="* ]]; then
            echo "${tok#*=}"
            return 0
        fi
    done
    return 1
}

# --- summary -------------------------------------------------------------------
# bench_machine_line: "machine: N cores, ARCH, CPU MODEL".
bench_machine_line() {
    local cpu_model
    cpu_model=$(grep -m1 -E '^(model name|Hardware|Processor|cpu model)[[:space:]]*:' /proc/cpuinfo 2>/dev/null \
        | sed 's/^[^:]*:[[:space:]]*//' || true)
    if [[ -z $cpu_model ]] && command -v lscpu >/dev/null 2>&1; then
        cpu_model=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n1 || true)
    fi
    cpu_model=${cpu_model:-unknown}
    echo "machine: $(nproc) cores, $(uname -m), $cpu_model"
}
