// What every real-client test shares: the programs and firmware it is
// given, the two eras' clients connected to a server over stdio, a
// recording of what passes on the wire, and calls that fail on a refusal.
//
// COLOPHON_MCP is the server's path. COLOPHON_MCP_BUILD, if set, is the
// build name the server must give; otherwise the name is held to the form
// "The name of the build" gives it. COLOPHON is the emulator's command line
// and COLOPHON_ROMS the firmware directory both are started with.
// internal/server's realclient_test.go sets them all and runs every
// *.test.mjs here.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHTTP } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHTTP } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { spawn } from 'node:child_process';

export const server = process.env.COLOPHON_MCP;
export const expectedBuild = process.env.COLOPHON_MCP_BUILD;
export const colophon = process.env.COLOPHON;
export const roms = process.env.COLOPHON_ROMS;
export const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';

if (!server) {
  throw new Error('COLOPHON_MCP must name the colophon-mcp binary to test');
}

// needMachines fails where the command line or the firmware directory is
// not given, which standing machines up needs.
export function needMachines() {
  if (!colophon || !roms) {
    throw new Error('COLOPHON and COLOPHON_ROMS must name the colophon binary and the firmware directory');
  }
}

// checkBuild holds a build name to the expected one, or to the spec's form.
export function checkBuild(version, where) {
  if (expectedBuild) {
    assert.equal(version, expectedBuild, `${where}: build name`);
    return;
  }
  const part = '(none|[0-9a-f]{40}(\\.dirty)?)';
  assert.match(version, new RegExp(`^0\\.0\\.0\\+mcp\\.${part}\\.emulator\\.${part}$`), `${where}: build name`);
}

// checkServerInfo holds the _meta of a raw result to naming the server and
// the build.
export function checkServerInfo(result, where) {
  const info = result?._meta?.[SERVER_INFO];
  assert.ok(info, `${where}: no ${SERVER_INFO} in _meta of ${JSON.stringify(result)}`);
  assert.equal(info.name, 'colophon-mcp', `${where}: server name`);
  checkBuild(info.version, where);
}

// record makes a transport keep every message it sends and receives, raw,
// and optionally rewrite what it sends. The client sets the transport's
// onmessage, perhaps more than once as it negotiates; an accessor on the
// transport itself keeps the handler it sets behind one that records.
export function record(transport, rewrite = (m) => m) {
  const sent = [];
  const received = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = rewrite(message);
    sent.push(m);
    return send(m, options);
  };
  // Each read gets the handler of its moment, recording first, so that a
  // client that chains the handler it read into the one it sets calls the
  // old one, not itself; a message it passes down the chain is kept once.
  let handler;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => {
      const h = handler;
      if (!h) return undefined;
      return (message, extra) => {
        if (received.at(-1) !== message) received.push(message);
        return h(message, extra);
      };
    },
    set: (fn) => {
      handler = fn;
    },
  });
  return {
    sent,
    received,
    // resultOf finds the raw result of the request sent with method.
    resultOf(method) {
      const requests = sent.filter((m) => m.method === method && m.id !== undefined);
      assert.ok(requests.length > 0, `no ${method} was sent`);
      const id = requests[requests.length - 1].id;
      const answer = received.find((m) => m.id === id && (m.result || m.error));
      assert.ok(answer, `no answer to ${method}`);
      assert.ok(answer.result, `${method} was refused: ${JSON.stringify(answer.error)}`);
      return answer.result;
    },
  };
}

// call calls a tool, fails if it is refused, and returns its result.
export async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, `${name} ${JSON.stringify(args)} refused: ${JSON.stringify(result.content)}`);
  return result;
}

// refused calls a tool and returns the text of its refusal, failing if it
// was not refused.
export async function refused(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, true, `${name} ${JSON.stringify(args)} was not refused: ${JSON.stringify(result.content)}`);
  return result.content.map((c) => c.text ?? '').join('\n');
}

// screenshotOf runs the command line with args and --screenshot, and
// returns the PNG it wrote.
export function screenshotOf(args) {
  const file = join(mkdtempSync(join(tmpdir(), 'colophon-shot-')), 'shot.png');
  execFileSync(colophon, [...args, '--roms', roms, '--screenshot', file]);
  return readFileSync(file);
}

// picture calls monitor and returns its JSON and its PNG.
export async function picture(client, handle, args = {}) {
  const result = await call(client, 'monitor', { handle, ...args });
  const image = result.content.find((c) => c.type === 'image');
  assert.ok(image, 'monitor answers a picture');
  assert.equal(result.content[0].type, 'text');
  assert.equal(image.mimeType, 'image/png');
  return { json: result.structuredContent, png: Buffer.from(image.data, 'base64'), result };
}

// standsAs holds two machines to each other: their fields, their memory as
// the processor reads it, and their picture.
export async function standsAs(client, a, b, what) {
  const fa = await call(client, 'inspect', { handle: a });
  const fb = await call(client, 'inspect', { handle: b });
  assert.deepEqual(fb.structuredContent.value, fa.structuredContent.value, `${what}: fields`);
  for (let addr = 0; addr < 0x10000; addr += 4096) {
    const pa = await call(client, 'peek', { handle: a, address: addr, length: 4096 });
    const pb = await call(client, 'peek', { handle: b, address: addr, length: 4096 });
    assert.equal(pb.structuredContent.bytes, pa.structuredContent.bytes, `${what}: memory from ${addr}`);
  }
  assert.ok((await picture(client, a)).png.equals((await picture(client, b)).png), `${what}: picture`);
}

// serverArgs are the arguments a test starts the server with.
export function serverArgs(extra = []) {
  return ['--roms', roms ?? 'roms', ...extra];
}

// connectLegacy starts a server and connects @modelcontextprotocol/sdk's
// client to it with initialize, asking for revision asked (2025-11-25 is
// the client's own; another is written into the initialize it sends).
export async function connectLegacy(asked = '2025-11-25', args = serverArgs()) {
  const transport = new LegacyStdio({ command: server, args, stderr: 'inherit' });
  const rec = record(transport, (m) =>
    m.method === 'initialize' ? { ...m, params: { ...m.params, protocolVersion: asked } } : m,
  );
  const client = new LegacyClient({ name: 'colophon-real-client', version: '1.0.0' });
  await client.connect(transport);
  return { client, rec, era: `legacy ${asked}` };
}

// The modern client probes a server started by its own StdioClientTransport
// with server/discover on a short-lived sibling process, and then talks to
// a second one; a subclass it probes in place, on the one connection, so
// the recording sees the discover and its answer.
class InPlaceStdio extends ModernStdio {}

// connectModern starts a server and connects @modelcontextprotocol/client's
// client to it pinned to 2026-07-28, which names the revision in every
// request's _meta; options add to the client's.
export async function connectModern(args = serverArgs(), options = {}) {
  const transport = new InPlaceStdio({ command: server, args, stderr: 'inherit' });
  const rec = record(transport);
  const client = new ModernClient(
    { name: 'colophon-real-client', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, ...options },
  );
  await client.connect(transport);
  return { client, rec, era: 'modern 2026-07-28' };
}

// eras are the two eras a feature's test runs in: each connects a client
// to a new server over stdio.
export const eras = [
  { name: 'legacy 2025-11-25', connect: (args) => connectLegacy('2025-11-25', args) },
  { name: 'modern 2026-07-28', connect: (args) => connectModern(args) },
];

// The machines a test types at, and what it types at each: what the spec's
// tests type (KEY-15), after the frames the command line waits before
// typing, run as the command line counts them, in ticks (KEY-19).
export const typedMachines = [
  { name: 'spectrum48', ticks: 128 * 69888, text: 'p2+2\n', cli: 'p2+2\\n' },
  { name: 'cpc6128', ticks: 78 * 79872, text: 'PRINT 2+2\n', cli: 'PRINT 2+2\\n' },
];

// typeAtMachines stands each machine up, types at it, and holds monitor's
// PNG to the command line's screenshot of the same typing
// (colophon boot --machine NAME --type TEXT --screenshot F), byte for byte;
// then replays the machine's journal into a new machine and holds the two
// to each other (J-6), and puts both away.
export async function typeAtMachines(client) {
  needMachines();
  for (const machine of typedMachines) {
    const opened = await call(client, 'machine_open', { machine: machine.name });
    const handle = opened.structuredContent.handle;
    assert.ok(opened.structuredContent.files.every((f) => f.path.startsWith('/') && /^[0-9a-f]{64}$/.test(f.sha256)));
    const run = await call(client, 'run', { handle, ticks: machine.ticks });
    assert.equal(run.structuredContent.stop, 'done');
    const typed = await call(client, 'type', { handle, text: machine.text });
    assert.ok(typed.structuredContent.ticks > 0);
    const shown = await picture(client, handle);
    assert.equal(shown.json.machine, machine.name);
    assert.equal(shown.json.tick, typed.structuredContent.tick);
    const shot = screenshotOf(['boot', '--machine', machine.name, '--type', machine.cli]);
    assert.ok(shown.png.equals(shot), `${machine.name}: monitor's PNG is not the command line's screenshot`);

    const entries = await allEntries(client, handle);
    assert.deepEqual(entries.map((e) => e.tool), ['machine_open', 'run', 'type']);
    const replayed = await replay(client, entries);
    await standsAs(client, handle, replayed, `${machine.name} replayed`);
    for (const h of [handle, replayed]) {
      await call(client, 'machine_close', { handle: h });
    }
  }
}

// startHTTP starts a server with --http on port (0 for any free one) and a
// sessions file, and resolves to { url, port, stop } once it says where it
// serves; stop sends SIGTERM and resolves once it has exited. env adds to
// the server's environment.
export function startHTTP({ port = 0, sessions, env = {}, args = serverArgs() } = {}) {
  const child = spawn(server, ['--http', '--http-port', String(port), '--sessions', sessions, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    let said = '';
    child.stderr.on('data', (chunk) => {
      said += chunk;
      const m = said.match(/serving MCP over streamable HTTP at (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/);
      if (m) {
        child.stderr.removeAllListeners('data');
        child.stderr.resume();
        resolve({
          url: m[1],
          port: Number(m[2]),
          exited,
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    exited.then(({ code, signal }) => reject(new Error(`the server ended (${code ?? signal}) before it served: ${said}`)));
  });
}

// connectLegacyHTTP connects @modelcontextprotocol/sdk's client to an
// endpoint with initialize, asking for revision asked.
export async function connectLegacyHTTP(url, asked = '2025-11-25', options = {}) {
  const transport = new LegacyHTTP(new URL(url));
  const rec = record(transport, (m) =>
    m.method === 'initialize' ? { ...m, params: { ...m.params, protocolVersion: asked } } : m,
  );
  const client = new LegacyClient({ name: 'colophon-real-client', version: '1.0.0' }, options);
  await client.connect(transport);
  return { client, rec, transport, era: `legacy ${asked} over HTTP` };
}

// connectModernHTTP connects @modelcontextprotocol/client's client to an
// endpoint, pinned to 2026-07-28.
export async function connectModernHTTP(url, options = {}) {
  const transport = new ModernHTTP(new URL(url));
  const rec = record(transport);
  const client = new ModernClient(
    { name: 'colophon-real-client', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, ...options },
  );
  await client.connect(transport);
  return { client, rec, transport, era: 'modern 2026-07-28 over HTTP' };
}

// allEntries reads a machine's whole journal, page by page.
export async function allEntries(client, handle) {
  let start = 0;
  const entries = [];
  for (;;) {
    const page = (await call(client, 'journal', { handle, start })).structuredContent;
    entries.push(...page.entries);
    if (page.next === undefined) return entries;
    start = page.next;
  }
}

// replay makes a new machine from a journal's entries and returns its
// handle.
export async function replay(client, entries) {
  let handle;
  for (const e of entries) {
    if (e.tool === 'machine_open') {
      handle = (await call(client, 'machine_open', e.arguments)).structuredContent.handle;
    } else {
      await call(client, e.tool, { ...e.arguments, handle });
    }
  }
  return handle;
}
