#!/usr/bin/env node
// pidp10-mcp, the terminal-line server, from the same platform package.
'use strict';
require('../lib/launch.js').main('pidp10-mcp', process.argv.slice(2), { roms: false });
