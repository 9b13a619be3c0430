// Loaded into a child mcpscope with NODE_OPTIONS=--import: prints the process's peak resident
// memory (getrusage's maxrss, kilobytes) as its last line on stderr, whatever way it exits.
import { writeSync } from 'node:fs';

process.on('exit', () => writeSync(2, `\npeak-rss-kb: ${process.resourceUsage().maxRSS}\n`));
