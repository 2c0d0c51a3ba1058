// Real clients: the MCP TypeScript SDK, from npm, drives the built
// colophon-mcp over stdio in both of the protocol's eras.
//
//   legacy: @modelcontextprotocol/sdk, whose client opens with initialize,
//           asking for 2025-11-25, or for 2025-06-18 where the test says so;
//   modern: @modelcontextprotocol/client with versionNegotiation pinned to
//           2026-07-28, which opens with server/discover and names the
//           revision in every request's _meta.
//
// What the tests share is in lib.mjs.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  PROTOCOL_VERSION, checkBuild, checkServerInfo, connectLegacy, connectModern, typeAtMachines,
} from './lib.mjs';

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

for (const asked of ['2025-11-25', '2025-06-18']) {
  test(`legacy era: initialize in ${asked}`, async () => {
    // The legacy client asks for the newest revision it knows, 2025-11-25;
    // to ask for 2025-06-18 connectLegacy rewrites the initialize it sends.
    const { client, rec } = await connectLegacy(asked);
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
      await typeAtMachines(client);

      // A ping's answer names no build.
      await client.ping();
      assert.deepEqual(rec.resultOf('ping'), {});
    } finally {
      await client.close();
    }
  });
}

test('modern era: pinned to 2026-07-28', async () => {
  const { client, rec } = await connectModern();
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
    await typeAtMachines(client);

    // Every request named its revision.
    for (const m of rec.sent.filter((m) => m.id !== undefined)) {
      assert.equal(m.params?._meta?.[PROTOCOL_VERSION], '2026-07-28', `${m.method} named no revision`);
    }
  } finally {
    await client.close();
  }
});
