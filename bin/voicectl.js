#!/usr/bin/env node
// CommonJS (see bin/package.json): Node starts it faster than an ES module.
'use strict';
require('../dist/start.cjs').start(process.argv.slice(2));
