// A release archive unpacked into an empty folder, its server started there
// as the spec starts it, ./colophon-mcp --roms roms (checklist S-3, S-6;
// issue 17). internal/release's Go test unpacks the archive, runs this file
// in the folder, and sets COLOPHON_MCP=./colophon-mcp, COLOPHON=./colophon
// and COLOPHON_ROMS=roms: the archive's own programs and firmware.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import path from 'node:path';

import { openTypeMonitor } from './session.mjs';

test('./colophon-mcp --roms roms serves machines from the archive\'s firmware', async () => {
  const roms = realpathSync('roms');
  await openTypeMonitor(['--roms', 'roms'], (opened, where) => {
    assert.ok(opened.files.length > 0, `${where}: machine_open names no files`);
    for (const f of opened.files) {
      assert.equal(path.dirname(f.path), roms, `${where}: firmware read from ${f.path}`);
    }
  });
});
