// Benchmark runner for third-party layout generators (see site_builder/bench.py).
// Usage: node run.js MODULES_DIR PACKAGE < words.json
// stdin: [{"answer": "...", "clue": "..."}, ...]; stdout: {"layout": <the package's output>, "ms": <time>}.
"use strict";
const path = require("path");
// Some packages log progress with console.log: keep stdout for the result.
console.log = (...args) => process.stderr.write(args.join(" ") + "\n");
const [modulesDir, pkg] = process.argv.slice(2);
const lib = require(path.join(modulesDir, "node_modules", pkg));
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const words = JSON.parse(input);
  const t0 = process.hrtime.bigint();
  const layout = lib.generateLayout(words);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  process.stdout.write(JSON.stringify({ layout, ms }));
});
