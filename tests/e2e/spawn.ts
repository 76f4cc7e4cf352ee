// Servers that a test starts, stops and restarts itself (for faults: a server that dies or
// restarts mid-session). Always on 127.0.0.1; `stop()` is safe to call twice, and every
// server a test started is stopped in `afterEach` even when the test fails.

import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

export class TestServer {
  private child: ChildProcess | null = null;

  constructor(
    private readonly command: string,
    private readonly args: string[],
    readonly port: number,
    private readonly env: Record<string, string> = {},
  ) {}

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    this.child = spawn(this.command, this.args, {
      cwd: ROOT,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`${this.command} exited with ${this.child.exitCode}`);
      if (await portOpen(this.port)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${this.command} ${this.args.join(' ')} did not listen on ${this.port}`);
  }

  /** Kills the server (SIGKILL: a crash, not a goodbye) and waits for the port to close. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    while (await portOpen(this.port)) await new Promise((r) => setTimeout(r, 50));
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }
}

export async function pythonServer(extraArgs: string[] = []): Promise<TestServer> {
  const port = await freePort();
  return new TestServer('.venv/bin/python', ['tests/servers/python_server.py', '--port', String(port), ...extraArgs], port);
}

export async function everythingServer(mode = 'streamableHttp'): Promise<TestServer> {
  const port = await freePort();
  return new TestServer(
    'node',
    ['-r', './tests/servers/loopback.cjs', 'node_modules/@modelcontextprotocol/server-everything/dist/index.js', mode],
    port,
    { PORT: String(port) },
  );
}

/** tests/servers/hostile_server.py: sends what a malicious server could (see its docstring). */
export async function hostileServer(): Promise<TestServer> {
  const port = await freePort();
  return new TestServer('python3', ['tests/servers/hostile_server.py', '--port', String(port)], port);
}

/** `tests/servers/paging_server.py`: 250 tools in pages of 100, 25 resources in pages of 10. */
export async function pagingServer(): Promise<TestServer> {
  const port = await freePort();
  return new TestServer('.venv/bin/python', ['tests/servers/paging_server.py', '--port', String(port)], port);
}

/** `tests/servers/scale_server.py`: `tools` tools (default 5,000) in pages of 500, and tools
 * with very large results (big_text, big_json, many_blocks). */
export async function scaleServer(tools = 5000): Promise<TestServer> {
  const port = await freePort();
  return new TestServer(
    '.venv/bin/python',
    ['tests/servers/scale_server.py', '--port', String(port), '--tools', String(tools)],
    port,
  );
}

/** `@modelcontextprotocol/server-threejs` (npm, the MCP Apps example): `show_threejs_scene`'s
 * `code` argument has a multi-line default. Stateless, CORS on; kept on loopback. */
export async function threejsServer(): Promise<TestServer> {
  const port = await freePort();
  return new TestServer(
    'node',
    ['-r', './tests/servers/loopback.cjs', 'node_modules/@modelcontextprotocol/server-threejs/dist/index.js'],
    port,
    { PORT: String(port) },
  );
}

/** `tests/servers/fastmcp4_server.py`: fastmcp 4.2 with its defaults (both eras; an old-style
 * elicitation; no `subscriptions/listen`). */
export async function fastmcp4Server(): Promise<TestServer> {
  const port = await freePort();
  return new TestServer('.venv/bin/python', ['tests/servers/fastmcp4_server.py', '--port', String(port)], port);
}
