// Starts nginx (Debian's nginx-extras, with the Lua module) on 127.0.0.1 and a free port,
// serving a directory with range requests, HEAD and ETags like an object store (max_ranges 1),
// plus locations that misbehave deterministically for fault-injection tests. Config, logs and
// temporary files live in a fresh directory; stop() ends nginx (also on process exit).
//
// Fault locations (each serves the same directory under its prefix): a request fails only the
// first time it is seen (counted per URI, method and Range header), so retries recover.
//   /noranges/    ignores Range (200 with the whole object)
//   /flaky503/    503 once per request
//   /retryafter/  503 with Retry-After: 1 once per request
//   /always503/   503 always
//   /truncate/    the body cut in half and the connection closed, once per request
//   /stall/       no answer for 3 s once per request
//   /nohead/      HEAD refused with 405
//   /etagflip/    a different ETag from the second request on
//   /latency/     every GET waits 200 ms (5 s under /latency/long/) before its answer; GETs
//                 in progress are counted, and their peak, and GETs the client abandoned:
//                 GET /counters answers "active peak aborted", DELETE /counters resets them
//   /storm/       a fault storm: each request draws its fate at random with the shares set by
//                 POST /storm/config?p503=0.3&reset=0.05&truncate=0.02 (all 0 by default):
//                 p503 (503 SlowDown, one in ten with Retry-After: 1, which costs a client a
//                 second each), p500, reset (the
//                 connection closed before any answer), cut (closed a quarter into the body),
//                 truncate (closed half way), stall (no answer for `stall_s` seconds),
//                 and on top a latency tail (exponential, mean `latency_ms`) before every
//                 answer. GET /storm/counters answers JSON: faults injected by kind
//                 ("fault:p503") and by request ("faulted:URI RANGE"), and the times each
//                 request was served whole ("served:URI RANGE": a 200 or 206 with no fault);
//                 DELETE /storm/counters resets them.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const once = (body) => `access_by_lua_block {
        local key = ngx.var.request_method .. ngx.var.uri .. (ngx.var.http_range or "")
        local seen = ngx.shared.faults:incr(key, 1, 0)
        if seen == 1 then ${body} end
      }`;

// TLS (optional): `tls: { cert, key }` serves every location over HTTPS too, on its own port;
// `servers: [{ name, cert, key, proxyTo }]` adds HTTPS servers on ports of their own, serving
// the data folder (a certificate to be refused) or passing every request on to `proxyTo` (an
// HTTPS front for the S3 server). tls.log records each HTTPS request as
// "<connection> <request on it> <session reused: r or .> <server port> <path>".
export async function startNginx(dataDir, { tls, servers = [] } = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-nginx-'));
  const port = await freePort();
  const tlsPort = tls ? await freePort() : null;
  const serverPorts = {};
  for (const server of servers) serverPorts[server.name] = await freePort();
  const certificate = ({ cert, key }) => `ssl_certificate ${cert};
    ssl_certificate_key ${key};
    ssl_session_cache shared:tls:4m;`;
  const extraServers = servers.map((server) => `
  server {
    listen 127.0.0.1:${serverPorts[server.name]} ssl;
    ${certificate(server)}
    access_log ${work}/tls.log tls;
    ${server.proxyTo ? `location / {
      proxy_pass ${server.proxyTo};
      proxy_set_header Host $http_host;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_request_buffering off;
      proxy_buffering off;
      client_max_body_size 0;
    }` : `root ${dataDir};`}
  }`).join('');
  const modules = '/usr/lib/nginx/modules';
  const location = (prefix, body) => `
    location ${prefix} {
      alias ${dataDir}/;
      ${body}
    }`;
  const config = `
load_module ${modules}/ndk_http_module.so;
load_module ${modules}/ngx_http_lua_module.so;
daemon off;
master_process off;
worker_processes 1;
pid ${work}/nginx.pid;
error_log ${work}/error.log warn;
worker_rlimit_nofile 8192;
events { worker_connections 4096; }
http {
  access_log ${work}/access.log;
  client_body_temp_path ${work}/client_body;
  proxy_temp_path ${work}/proxy;
  fastcgi_temp_path ${work}/fastcgi;
  uwsgi_temp_path ${work}/uwsgi;
  scgi_temp_path ${work}/scgi;
  lua_shared_dict faults 4m;
  lua_shared_dict storm 16m;
  default_type application/octet-stream;
  keepalive_requests 100000;
  log_format tls '$connection $connection_requests $ssl_session_reused $server_port $uri';
  ${extraServers}
  server {
    listen 127.0.0.1:${port};
    ${tls ? `listen 127.0.0.1:${tlsPort} ssl;
    ${certificate(tls)}
    access_log ${work}/access.log;
    access_log ${work}/tls.log tls if=$https;` : ''}
    root ${dataDir};
    max_ranges 1;
    ${location('/noranges/', 'max_ranges 0;')}
    ${location('/flaky503/', once('return ngx.exit(503)'))}
    ${location('/retryafter/', once('ngx.header["Retry-After"] = "1" return ngx.exit(503)'))}
    ${location('/always503/', 'return 503;')}
    ${location('/truncate/', `sendfile off;
      keepalive_timeout 0;
      ${once('ngx.ctx.cut = true')}
      body_filter_by_lua_block {
        if ngx.ctx.cut then
          if ngx.ctx.done then ngx.arg[1] = "" return end
          local chunk = ngx.arg[1]
          ngx.arg[1] = string.sub(chunk, 1, math.floor(#chunk / 2))
          ngx.arg[2] = true
          ngx.ctx.done = true
        end
      }`)}
    ${location('/stall/', once('ngx.sleep(3)'))}
    ${location('/slow/', `access_by_lua_block {
        if ngx.var.request_method == "GET" then ngx.sleep(1) end
      }`)}
    ${location('/nohead/', `access_by_lua_block {
        if ngx.var.request_method == "HEAD" then return ngx.exit(405) end
      }`)}
    ${location('/latency/', `lua_check_client_abort on;
      access_by_lua_block {
        if ngx.var.request_method ~= "GET" then return end
        local counters = ngx.shared.faults
        local active = counters:incr("active", 1, 0)
        if active > (counters:get("peak") or 0) then counters:set("peak", active) end
        ngx.ctx.counted = true
        ngx.on_abort(function()
          counters:incr("aborted", 1, 0)
          counters:incr("active", -1, 0)
          ngx.ctx.counted = false
          ngx.exit(499)
        end)
        ngx.sleep(string.find(ngx.var.uri, "^/latency/long/") and 5 or 0.2)
      }
      log_by_lua_block {
        if ngx.ctx.counted then ngx.shared.faults:incr("active", -1, 0) end
      }`)}
    location = /storm/config {
      content_by_lua_block {
        local storm = ngx.shared.storm
        for name, value in pairs(ngx.req.get_uri_args()) do storm:set("cfg:" .. name, tonumber(value)) end
        ngx.say("ok")
      }
    }
    location = /storm/counters {
      content_by_lua_block {
        local storm = ngx.shared.storm
        local out = {}
        for _, key in ipairs(storm:get_keys(0)) do
          if ngx.var.request_method == "DELETE" then
            if string.sub(key, 1, 4) ~= "cfg:" then storm:delete(key) end
          elseif string.sub(key, 1, 4) ~= "cfg:" then
            out[#out + 1] = string.format("%q: %d", key, storm:get(key))
          end
        end
        ngx.say("{" .. table.concat(out, ", ") .. "}")
      }
    }
    ${location('/storm/', `sendfile off;
      access_by_lua_block {
        local storm = ngx.shared.storm
        local function share(name) return storm:get("cfg:" .. name) or 0 end
        local function count(name) storm:incr(name, 1, 0) end
        local mean = share("latency_ms")
        if mean > 0 then ngx.sleep(-mean / 1000 * math.log(1 - math.random())) end
        local draw = math.random()
        for _, fault in ipairs({"p503", "p500", "reset", "cut", "truncate", "stall"}) do
          draw = draw - share(fault)
          if draw < 0 then
            ngx.ctx.fault = fault
            count("fault:" .. fault)
            count("faulted:" .. ngx.var.uri .. " " .. (ngx.var.http_range or ""))
            if fault == "p503" then
              if math.random() < 0.1 then ngx.header["Retry-After"] = "1" end
              ngx.status = 503
              ngx.header["Content-Type"] = "application/xml"
              ngx.say("<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>")
              return ngx.exit(503)
            elseif fault == "p500" then
              return ngx.exit(500)
            elseif fault == "reset" then
              return ngx.exit(444)
            elseif fault == "stall" then
              ngx.sleep(share("stall_s"))
              ngx.ctx.fault = nil -- then answered normally
            end
            return
          end
        end
      }
      body_filter_by_lua_block {
        -- cut and truncate: the connection dies a quarter or half way into the body, whose
        -- length the Range header gives (the range filter runs after this one).
        local fault = ngx.ctx.fault
        if fault ~= "cut" and fault ~= "truncate" then return end
        if ngx.ctx.left == nil then
          local first, last = string.match(ngx.var.http_range or "", "bytes=(%d*)-(%d*)")
          local length = tonumber(ngx.header["Content-Length"]) or 0
          if first and first ~= "" and last ~= "" then length = tonumber(last) - tonumber(first) + 1
          elseif first == "" and last ~= "" then length = tonumber(last) end
          ngx.ctx.left = math.floor(length * (fault == "cut" and 0.25 or 0.5))
        end
        if ngx.ctx.left <= 0 then return ngx.ERROR end
        local chunk = ngx.arg[1]
        if #chunk > ngx.ctx.left then ngx.arg[1] = string.sub(chunk, 1, ngx.ctx.left) end
        ngx.ctx.left = ngx.ctx.left - #ngx.arg[1]
        if ngx.ctx.left <= 0 then ngx.arg[2] = false end
      }
      log_by_lua_block {
        local status = ngx.status
        if ngx.ctx.fault == nil and ngx.var.request_method == "GET" and (status == 200 or status == 206) then
          ngx.shared.storm:incr("served:" .. ngx.var.uri .. " " .. (ngx.var.http_range or ""), 1, 0)
        end
      }
      keepalive_timeout 60s;`)}
    location = /counters {
      content_by_lua_block {
        local counters = ngx.shared.faults
        if ngx.var.request_method == "DELETE" then
          counters:set("active", 0) counters:set("peak", 0) counters:set("aborted", 0)
        end
        ngx.say((counters:get("active") or 0) .. " " .. (counters:get("peak") or 0) .. " " ..
                (counters:get("aborted") or 0))
      }
    }
    ${location('/etagflip/', `header_filter_by_lua_block {
        local seen = ngx.shared.faults:incr("etagflip", 1, 0)
        if seen > 1 then ngx.header["ETag"] = '"changed-' .. seen .. '"' end
      }`)}
  }
}
`;
  fs.writeFileSync(path.join(work, 'nginx.conf'), config);
  execFileSync('nginx', ['-t', '-q', '-p', work, '-c', path.join(work, 'nginx.conf')],
    { stdio: ['ignore', 'ignore', 'pipe'] });
  const child = spawn('nginx', ['-p', work, '-c', path.join(work, 'nginx.conf')],
    { stdio: ['ignore', 'ignore', 'inherit'] });
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.on('exit', stop);
  for (let i = 0; i < 100; i++) { // wait until it accepts connections
    const up = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => { socket.end(); resolve(true); });
      socket.on('error', () => resolve(false));
    });
    if (up) {
      const urls = {};
      for (const [name, p] of Object.entries(serverPorts)) urls[name] = `https://127.0.0.1:${p}`;
      return {
        port, url: `http://127.0.0.1:${port}`, stop, work,
        tlsUrl: tls ? `https://127.0.0.1:${tlsPort}` : null,
        serverUrls: urls,
      };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  stop();
  throw new Error(`nginx did not start: ${fs.readFileSync(path.join(work, 'error.log'), 'utf8')}`);
}
