// Preload for the conformance suite (`node -r ./tests/conformance/loopback.cjs .../conformance/dist/index.js`):
// keeps its scenario servers on 127.0.0.1 like tests/servers/loopback.cjs, AND binds synchronously.
//
// Several scenarios do `server = app.listen(0); server.address().port` on the next line. With no
// host, Node binds at once; with a host (which tests/servers/loopback.cjs adds) Node first calls
// dns.lookup, even for an IP literal, and binds a tick later, so address() is still null and
// the scenario dies with "Cannot read properties of null (reading 'port')". Around each listen()
// this answers net's lookup of 127.0.0.1 synchronously, so the bind happens inside listen() again.
'use strict';

require('../servers/loopback.cjs');

const dns = require('node:dns');
const net = require('node:net');

const HOST = '127.0.0.1';
const loopbackListen = net.Server.prototype.listen;

net.Server.prototype.listen = function synchronousLoopbackListen(...args) {
  const lookup = dns.lookup;
  dns.lookup = function lookupLoopbackAtOnce(hostname, options, callback) {
    if (typeof options === 'function') callback = options;
    if (hostname === HOST && typeof callback === 'function') {
      // Node 22's net asks with { all: true } (an array); older ones for one address.
      if (options && options.all) return callback(null, [{ address: HOST, family: 4 }]);
      return callback(null, HOST, 4);
    }
    return lookup.apply(this, arguments);
  };
  try {
    return loopbackListen.apply(this, args);
  } finally {
    dns.lookup = lookup;
  }
};
