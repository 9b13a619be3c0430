#!/usr/bin/env node
import '../dist/commands/cli.js';
