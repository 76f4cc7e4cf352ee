// Preload (`node -r ./tests/servers/loopback.cjs ...`) that keeps a Node server on loopback.
//
// Some servers (e.g. @modelcontextprotocol/server-everything) call `listen(port)` with no host,
// which binds every interface. This patch rewrites every TCP listen so the host is 127.0.0.1:
//   listen(port[, host][, backlog][, cb])  ->  listen(port, "127.0.0.1"[, backlog][, cb])
//   listen({ port, host?, ... }[, cb])     ->  listen({ ...options, host: "127.0.0.1" }[, cb])
//   listen()/listen(cb)/listen(undefined)  ->  listen(0, "127.0.0.1"[, cb])   (random port)
// Unix sockets / pipes (`listen("/path")`, `{ path }`) and handles (`{ fd }`, `{ handle }`, server
// objects) are left alone: they are not network listeners. Express's `app.listen(...)` ends up in
// `net.Server.prototype.listen` too (via http.Server), so it is covered.
'use strict';

const net = require('node:net');

const HOST = '127.0.0.1';
const originalListen = net.Server.prototype.listen;

function isPortLike(value) {
  if (typeof value === 'number') return true;
  // A numeric string is a port; any other string is a pipe / unix socket path.
  return typeof value === 'string' && /^\d+$/.test(value);
}

net.Server.prototype.listen = function patchedListen(...args) {
  const first = args[0];

  if (first !== null && typeof first === 'object' && !Array.isArray(first)) {
    const isHandle = first instanceof net.Server || '_handle' in first || 'fd' in first || 'handle' in first;
    if (!isHandle && first.path === undefined) {
      args[0] = { ...first, host: HOST };
      // `ipv6Only` makes no sense on an IPv4 address.
      delete args[0].ipv6Only;
    }
    return originalListen.apply(this, args);
  }

  if (first === undefined || first === null || typeof first === 'function') {
    // listen() / listen(cb) / listen(undefined, ...): random port.
    const rest = typeof first === 'function' ? args : args.slice(1);
    return originalListen.call(this, 0, HOST, ...rest);
  }

  if (isPortLike(first)) {
    // listen(port, [host], [backlog], [cb]): drop a given host string, keep the rest.
    const rest = args.slice(1);
    if (typeof rest[0] === 'string' || rest[0] === undefined || rest[0] === null) {
      if (rest.length > 0) rest.shift();
    }
    return originalListen.call(this, first, HOST, ...rest);
  }

  return originalListen.apply(this, args);
};

if (process.env.LOOPBACK_PRELOAD_DEBUG) {
  process.stderr.write(`[loopback.cjs] net.Server.prototype.listen forced to ${HOST}\n`);
}
