#!/usr/bin/env bash
# The emulated object-store link: nginx serving a directory over HTTP the way S3 behaves for a
# scan (range GETs, keep-alive, max_ranges 1), with a time to first byte per request (Lua
# ngx.sleep in the access phase) and a rate cap per connection (limit_rate; sendfile_max_chunk
# 256k so ranges of a few MB are paced too). With --link (root), nginx runs in a network
# namespace whose loopback caps the aggregate server-to-client rate (tc htb + u32 on the
# server's port, 8 MB bfifo); clients then run inside it: `ip netns exec sluice-rig CMD`.
#
#   bench/rig/rig.sh start [--profile s3|far|lan] [--dir DIR | --upstream URL] [--port N] [--link]
#   bench/rig/rig.sh stop
#
# --upstream puts the same shaping in front of another server (an S3-compatible store, say) as
# a reverse proxy that keeps the client's Host header, so SigV4 signatures still validate.
#
# Profiles (first byte, per connection, link): s3 30 ms, 30 MB/s, 100 MB/s; far 80 ms,
# 10 MB/s, 100 MB/s; lan 1 ms, 200 MB/s, 1 GB/s. `start` prints the base URL.
set -euo pipefail
RIG_DIR=${RIG_DIR:-/tmp/sluice-rig}
NETNS=sluice-rig
command=${1:-}
shift || true
profile=s3 dir=$PWD port=0 link=false upstream=
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) profile=$2; shift 2 ;;
    --dir) dir=$(cd "$2" && pwd); shift 2 ;;
    --port) port=$2; shift 2 ;;
    --upstream) upstream=$2; shift 2 ;;
    --link) link=true; shift ;;
    *) echo "rig: unknown option $1" >&2; exit 2 ;;
  esac
done

stop() {
  if [ -f "$RIG_DIR/nginx.pid" ]; then
    kill "$(cat "$RIG_DIR/nginx.pid")" 2>/dev/null || true
    for _ in $(seq 50); do [ -f "$RIG_DIR/nginx.pid" ] || break; sleep 0.1; done
    rm -f "$RIG_DIR/nginx.pid"
  fi
  if ip netns list 2>/dev/null | grep -qw "$NETNS"; then
    ip netns delete "$NETNS"
  fi
}

case "$command" in
  stop) stop; exit 0 ;;
  start) ;;
  *) echo "usage: rig.sh start [--profile s3|far|lan] [--dir DIR | --upstream URL] [--port N] [--link] | stop" >&2; exit 2 ;;
esac

case "$profile" in
  s3) ttfb=0.030 rate=30m link_rate=800mbit ;;   # 100 MB/s
  far) ttfb=0.080 rate=10m link_rate=800mbit ;;
  lan) ttfb=0.001 rate=200m link_rate=8gbit ;;   # 1 GB/s
  *) echo "rig: unknown profile $profile (s3, far, lan)" >&2; exit 2 ;;
esac
stop
mkdir -p "$RIG_DIR"
if [ "$port" = 0 ]; then
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
fi
cat > "$RIG_DIR/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ndk_http_module.so;
load_module /usr/lib/nginx/modules/ngx_http_lua_module.so;
pid $RIG_DIR/nginx.pid;
$( [ "$(id -u)" -eq 0 ] && echo "user root;" )
error_log $RIG_DIR/error.log warn;
worker_processes 1;
events { worker_connections 1024; }
http {
  access_log $RIG_DIR/access.log;
  client_body_temp_path $RIG_DIR/client_body;
  proxy_temp_path $RIG_DIR/proxy;
  fastcgi_temp_path $RIG_DIR/fastcgi;
  uwsgi_temp_path $RIG_DIR/uwsgi;
  scgi_temp_path $RIG_DIR/scgi;
  default_type application/octet-stream;
  sendfile on;
  sendfile_max_chunk 256k;
  keepalive_requests 1000000;
  keepalive_timeout 75s;
  server {
    listen 127.0.0.1:$port;
    root $dir;
    max_ranges 1;
    limit_rate $rate;
    location / {
      access_by_lua_block { ngx.sleep($ttfb) }
$( [ -n "$upstream" ] && cat <<PROXY
      proxy_pass $upstream;
      proxy_set_header Host \$http_host;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_request_buffering off;
PROXY
)
    }
  }
}
CONF
run=()
if $link; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "rig: --link needs root (a network namespace and tc)" >&2
    exit 1
  fi
  ip netns add "$NETNS"
  ip -n "$NETNS" link set lo up
  tc -n "$NETNS" qdisc add dev lo root handle 1: htb default 20 r2q 100000
  tc -n "$NETNS" class add dev lo parent 1: classid 1:10 htb rate "$link_rate" burst 256k
  tc -n "$NETNS" class add dev lo parent 1: classid 1:20 htb rate 100gbit
  tc -n "$NETNS" qdisc add dev lo parent 1:10 handle 10: bfifo limit 8mb
  tc -n "$NETNS" filter add dev lo parent 1: protocol ip u32 match ip sport "$port" 0xffff flowid 1:10
  run=(ip netns exec "$NETNS")
fi
"${run[@]}" nginx -p "$RIG_DIR" -c "$RIG_DIR/nginx.conf"
for _ in $(seq 100); do
  if "${run[@]}" bash -c "exec 3<>/dev/tcp/127.0.0.1/$port" 2>/dev/null; then
    echo "http://127.0.0.1:$port"
    exit 0
  fi
  sleep 0.05
done
echo "rig: nginx did not start: $(cat "$RIG_DIR/error.log")" >&2
exit 1
