// Real clients: the MCP TypeScript SDK, from npm, drives the built
// colophon-mcp over stdio in both of the protocol's eras.
//
//   legacy: @modelcontextprotocol/sdk, whose client opens with initialize,
//           asking for 2025-11-25, or for 2025-06-18 where the test says so;
//   modern: @modelcontextprotocol/client with versionNegotiation pinned to
//           2026-07-28, which opens with server/discover and names the
//           revision in every request's _meta.
//
// COLOPHON_MCP is the server's path. COLOPHON_MCP_BUILD, if set, is the
// build name the server must give; otherwise the name is held to the form
// "The name of the build" gives it. internal/server's realclient_test.go
// sets both and runs this file.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';

const server = process.env.COLOPHON_MCP;
const expectedBuild = process.env.COLOPHON_MCP_BUILD;
// The emulator's command line, whose screenshots monitor must equal, and
// the firmware directory both are started with. Without them the machines
// are not stood up, and the test says so.
const colophon = process.env.COLOPHON;
const roms = process.env.COLOPHON_ROMS;
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';

if (!server) {
  throw new Error('COLOPHON_MCP must name the colophon-mcp binary to test');
}

// checkBuild holds a build name to the expected one, or to the spec's form.
function checkBuild(version, where) {
  if (expectedBuild) {
    assert.equal(version, expectedBuild, `${where}: build name`);
    return;
  }
  const part = '(none|[0-9a-f]{40}(\\.dirty)?)';
  assert.match(version, new RegExp(`^0\\.0\\.0\\+mcp\\.${part}\\.emulator\\.${part}$`), `${where}: build name`);
}

// checkServerInfo holds the _meta of a raw result to naming the server and
// the build.
function checkServerInfo(result, where) {
  const info = result?._meta?.[SERVER_INFO];
  assert.ok(info, `${where}: no ${SERVER_INFO} in _meta of ${JSON.stringify(result)}`);
  assert.equal(info.name, 'colophon-mcp', `${where}: server name`);
  checkBuild(info.version, where);
}

// record makes a transport keep every message it sends and receives, raw,
// and optionally rewrite what it sends. The client sets the transport's
// onmessage, perhaps more than once as it negotiates; an accessor on the
// transport itself keeps the handler it sets behind one that records.
function record(transport, rewrite = (m) => m) {
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

// checkMachineList calls machine_list and holds it to an empty list, the
// answer of a server no machine stands in, with its build in the _meta.
async function checkMachineList(client, rec) {
  const result = await client.callTool({ name: 'machine_list', arguments: {} });
  assert.notEqual(result.isError, true, `machine_list refused: ${JSON.stringify(result)}`);
  assert.deepEqual(result.structuredContent, { machines: [] });
  assert.equal(result.content[0].type, 'text');
  assert.deepEqual(JSON.parse(result.content[0].text), { machines: [] });
  checkServerInfo(rec.resultOf('tools/call'), 'tools/call');
}

// checkTools lists the tools and holds the list to machine_list's being in
// it, with schemas that name no format.
async function checkTools(client, rec) {
  const { tools } = await client.listTools();
  const list = tools.find((t) => t.name === 'machine_list');
  assert.ok(list, `no machine_list among ${tools.map((t) => t.name)}`);
  for (const name of ['machine_open', 'machine_close', 'run', 'step', 'call', 'inspect', 'set', 'peek', 'poke', 'type', 'monitor', 'journal']) {
    assert.ok(tools.some((t) => t.name === name), `no ${name} among ${tools.map((t) => t.name)}`);
  }
  assert.equal(list.inputSchema.type, 'object');
  assert.doesNotMatch(JSON.stringify(tools), /"format"\s*:/, 'a schema names a format');
  checkServerInfo(rec.resultOf('tools/list'), 'tools/list');
}

// The machines each era stands up, and what the test types at each: what
// the spec's tests type (KEY-15), after the frames the command line waits
// before typing, run as the command line counts them, in ticks (KEY-19).
const machines = [
  { name: 'spectrum48', ticks: 128 * 69888, text: 'p2+2\n', cli: 'p2+2\\n' },
  { name: 'cpc6128', ticks: 78 * 79872, text: 'PRINT 2+2\n', cli: 'PRINT 2+2\\n' },
];

// call calls a tool, fails if it is refused, and returns its result.
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, `${name} ${JSON.stringify(args)} refused: ${JSON.stringify(result.content)}`);
  return result;
}

// screenshot is the command line's picture of the same typing:
// colophon boot --machine NAME --type TEXT --screenshot F.
function screenshot(machine) {
  const file = join(mkdtempSync(join(tmpdir(), 'colophon-shot-')), `${machine.name}.png`);
  execFileSync(colophon, ['boot', '--machine', machine.name, '--roms', roms, '--type', machine.cli, '--screenshot', file]);
  return readFileSync(file);
}

// picture calls monitor and returns its JSON and its PNG.
async function picture(client, handle) {
  const result = await call(client, 'monitor', { handle });
  assert.equal(result.content.length, 2, 'monitor answers its JSON and its picture');
  const [json, image] = result.content;
  assert.equal(json.type, 'text');
  assert.equal(image.type, 'image');
  assert.equal(image.mimeType, 'image/png');
  return { json: result.structuredContent, png: Buffer.from(image.data, 'base64') };
}

// standsAs holds two machines to each other: their fields, their memory as
// the processor reads it, and their picture.
async function standsAs(client, a, b, what) {
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

// checkMachines stands each machine up, types at it, and holds monitor's
// PNG to the command line's screenshot of the same typing, byte for byte;
// then replays the machine's journal into a new machine and holds the two
// to each other (J-6).
async function checkMachines(client) {
  if (!colophon || !roms) {
    throw new Error('COLOPHON and COLOPHON_ROMS must name the colophon binary and the firmware directory');
  }
  for (const machine of machines) {
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
    assert.ok(shown.png.equals(screenshot(machine)), `${machine.name}: monitor's PNG is not the command line's screenshot`);

    // Replay the journal, page by page, into a new machine.
    let start = 0;
    const entries = [];
    for (;;) {
      const page = (await call(client, 'journal', { handle, start })).structuredContent;
      entries.push(...page.entries);
      if (page.next === undefined) break;
      start = page.next;
    }
    assert.deepEqual(entries.map((e) => e.tool), ['machine_open', 'run', 'type']);
    let replayed;
    for (const e of entries) {
      if (e.tool === 'machine_open') {
        replayed = (await call(client, 'machine_open', e.arguments)).structuredContent.handle;
      } else {
        await call(client, e.tool, { ...e.arguments, handle: replayed });
      }
    }
    await standsAs(client, handle, replayed, `${machine.name} replayed`);
    for (const h of [handle, replayed]) {
      await call(client, 'machine_close', { handle: h });
    }
  }
}

function legacyTransport() {
  return new LegacyStdio({ command: server, args: ['--roms', roms ?? 'roms'], stderr: 'inherit' });
}

for (const asked of ['2025-11-25', '2025-06-18']) {
  test(`legacy era: initialize in ${asked}`, async () => {
    const transport = legacyTransport();
    // The legacy client asks for the newest revision it knows, 2025-11-25;
    // to ask for 2025-06-18 the test rewrites the initialize it sends.
    const rec = record(transport, (m) =>
      m.method === 'initialize' ? { ...m, params: { ...m.params, protocolVersion: asked } } : m,
    );
    const client = new LegacyClient({ name: 'colophon-real-client', version: '1.0.0' });
    await client.connect(transport);
    try {
      const init = rec.resultOf('initialize');
      assert.equal(init.protocolVersion, asked, 'initialize answered in');
      assert.equal(client.getServerVersion().name, 'colophon-mcp');
      checkBuild(client.getServerVersion().version, 'serverInfo');
      assert.match(client.getInstructions(), /machine_open/);
      // No request names a revision in the legacy era.
      assert.ok(rec.sent.every((m) => m.params?._meta?.[PROTOCOL_VERSION] === undefined));

      await checkTools(client, rec);
      await checkMachineList(client, rec);
      await checkMachines(client);

      // A ping's answer names no build.
      await client.ping();
      assert.deepEqual(rec.resultOf('ping'), {});
    } finally {
      await client.close();
    }
  });
}

// The modern client probes a server started by its own StdioClientTransport
// with server/discover on a short-lived sibling process, and then talks to
// a second one; a subclass it probes in place, on the one connection, so
// the recording sees the discover and its answer.
class InPlaceStdio extends ModernStdio {}

test('modern era: pinned to 2026-07-28', async () => {
  const transport = new InPlaceStdio({ command: server, args: ['--roms', roms ?? 'roms'], stderr: 'inherit' });
  const rec = record(transport);
  const client = new ModernClient(
    { name: 'colophon-real-client', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  try {
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    assert.equal(client.getProtocolEra(), 'modern');
    assert.ok(!rec.sent.some((m) => m.method === 'initialize'), 'the modern client sent initialize');

    const discover = rec.resultOf('server/discover');
    assert.deepEqual(client.getDiscoverResult().supportedVersions, discover.supportedVersions);
    assert.deepEqual(discover.supportedVersions, ['2026-07-28', '2025-11-25', '2025-06-18']);
    assert.match(discover.instructions, /machine_open/);
    checkServerInfo(discover, 'server/discover');
    assert.equal(client.getServerVersion().name, 'colophon-mcp');
    checkBuild(client.getServerVersion().version, 'server/discover serverInfo');

    await checkTools(client, rec);
    await checkMachineList(client, rec);
    await checkMachines(client);

    // Every request named its revision.
    for (const m of rec.sent.filter((m) => m.id !== undefined)) {
      assert.equal(m.params?._meta?.[PROTOCOL_VERSION], '2026-07-28', `${m.method} named no revision`);
    }
  } finally {
    await client.close();
  }
});
