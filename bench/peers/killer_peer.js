// N expert Killer Sudoku from npm's killer-sudoku-generator (pinned 1.1.2 by bench/bench_peers.py),
// in one process, as a user of the library calls it: one JSON line per puzzle on stdout
// ({"puzzle": 81 chars, '-' empty; "solution"; "areas": [{"cells": [[row, col], ...], "sum"}]}).
//
//     NODE_PATH=/tmp/puzzlefleet-peers-npm/node_modules node bench/peers/killer_peer.js 50
//
// The package is not in this repository: bench_peers.py installs it into a scratch folder and sets
// NODE_PATH (a folder bench/peers/node_modules, git-ignored, is found too).
"use strict";
const { generateKillerSudoku } = require("killer-sudoku-generator");

const count = Number(process.argv[2] || 50);
const out = [];
for (let i = 0; i < count; i++) {
    const { puzzle, solution, areas } = generateKillerSudoku("expert");
    out.push(JSON.stringify({ puzzle, solution, areas }));
}
process.stdout.write(out.join("\n") + "\n");
