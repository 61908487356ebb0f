"use strict";
(function () {
  const board = JSON.parse(document.getElementById("board").textContent);
  const palette = JSON.parse(document.getElementById("palette").textContent);
  const sudoku = board.game === "sudoku" || typeof board.givens === "string";
  const n = sudoku ? 9 : board.regions.length;
  const k = sudoku ? 1 : (board.rules && board.rules.stars) || 1;
  const diagonals = !sudoku && !!(board.rules && board.rules.diagonals);
  const region = (r, c) => sudoku ? Math.floor(r / 3) * 3 + Math.floor(c / 3) : board.regions[r][c];
  const answer = new Set(sudoku ? [] : board.solution.map(([r, c]) => r * n + c));
  const given = (i) => sudoku && /[1-9]/.test(board.givens[i]);
  const steps = board.steps || [];
  const grid = document.getElementById("grid"), status = document.getElementById("status");
  const why = document.getElementById("why"), timer = document.getElementById("timer");
  // Star Battle: 0 empty, 1 mark, 2 star. Sudoku: "" or a digit.
  let state = new Array(n * n).fill(sudoku ? "" : 0);
  let cursor = 0, started = Date.now(), stopped = null, revealed = false, hintAt = 0;
  const cells = [];

  grid.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
  for (let i = 0; i < n * n; i++) {
    const r = Math.floor(i / n), c = i % n, cell = document.createElement("div");
    cell.className = "cell";
    cell.dataset.row = r; cell.dataset.col = c; cell.dataset.region = region(r, c);
    cell.setAttribute("role", "gridcell");
    cell.style.backgroundColor = sudoku ? "#fff" : palette[region(r, c) % palette.length];
    if (r > 0 && region(r - 1, c) !== region(r, c)) cell.classList.add("bt");
    if (c > 0 && region(r, c - 1) !== region(r, c)) cell.classList.add("bl");
    if (c === n - 1) cell.style.borderRight = "none";
    if (r === n - 1) cell.style.borderBottom = "none";
    if (given(i)) { cell.textContent = board.givens[i]; cell.classList.add("given"); }
    cell.addEventListener("click", () => { cursor = i; act(i); grid.focus(); });
    grid.appendChild(cell); cells.push(cell);
  }

  function act(i, digit) {
    if (stopped && !revealed) return;
    if (sudoku) {
      if (given(i)) return draw();
      if (digit !== undefined) state[i] = digit;
      return changed();
    }
    state[i] = (state[i] + 1) % 3;
    changed();
  }

  function changed() {
    cells.forEach((cell) => cell.classList.remove("wrong", "hint"));
    why.textContent = "";
    draw();
    solvedCheck();
  }

  function conflicts() {
    const bad = new Set();
    if (sudoku) {
      const value = (i) => given(i) ? board.givens[i] : state[i];
      for (let i = 0; i < 81; i++) for (let j = i + 1; j < 81; j++) {
        if (!value(i) || value(i) !== value(j)) continue;
        const ri = Math.floor(i / 9), ci = i % 9, rj = Math.floor(j / 9), cj = j % 9;
        if (ri === rj || ci === cj || region(ri, ci) === region(rj, cj)) { bad.add(i); bad.add(j); }
      }
      return bad;
    }
    const stars = [];
    state.forEach((v, i) => { if (v === 2) stars.push(i); });
    const units = new Map();
    for (const i of stars) {
      const r = Math.floor(i / n), c = i % n;
      for (const key of ["r" + r, "c" + c, "g" + region(r, c)]) {
        if (!units.has(key)) units.set(key, []);
        units.get(key).push(i);
      }
    }
    for (const list of units.values()) if (list.length > k) list.forEach((i) => bad.add(i));
    for (const a of stars) for (const b of stars) {
      if (a >= b) continue;
      const dr = Math.abs(Math.floor(a / n) - Math.floor(b / n)), dc = Math.abs((a % n) - (b % n));
      if ((dr <= 1 && dc <= 1) || (diagonals && dr === dc)) { bad.add(a); bad.add(b); }
    }
    return bad;
  }

  function draw() {
    const bad = conflicts();
    cells.forEach((cell, i) => {
      if (sudoku) {
        if (!given(i)) { cell.textContent = state[i]; cell.classList.toggle("entry", !!state[i]); }
      } else {
        cell.classList.toggle("mark", state[i] === 1);
        cell.classList.toggle("star", state[i] === 2);
      }
      cell.classList.toggle("conflict", bad.has(i));
      cell.classList.toggle("cursor", i === cursor);
      cell.setAttribute("aria-label", `row ${Math.floor(i / n) + 1} column ${(i % n) + 1}` +
        (sudoku ? (given(i) ? ` given ${board.givens[i]}` : state[i] ? ` ${state[i]}` : " empty")
                : ["", " marked", " star"][state[i]]));
    });
  }

  function isSolved() {
    if (sudoku) return state.every((v, i) => given(i) || v === board.solution[i]);
    let count = 0;
    for (let i = 0; i < n * n; i++) if (state[i] === 2) { if (!answer.has(i)) return false; count++; }
    return count === answer.size;
  }

  function solvedCheck() {
    if (stopped || !isSolved()) return;
    stopped = Date.now();
    tick();
    document.body.classList.add("solved");
    status.textContent = revealed ? "Solution revealed." : `Solved in ${timer.textContent}! Well done.`;
    grid.dataset.solved = revealed ? "revealed" : "true";
  }

  function tick() {
    const s = Math.floor(((stopped || Date.now()) - started) / 1000);
    timer.textContent = `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
  }
  setInterval(tick, 1000);

  document.getElementById("check").addEventListener("click", () => {
    let wrong = 0;
    cells.forEach((cell, i) => {
      const bad = sudoku ? (!given(i) && state[i] && state[i] !== board.solution[i]) : (state[i] === 2 && !answer.has(i));
      cell.classList.toggle("wrong", !!bad);
      if (bad) wrong++;
    });
    if (!stopped) status.textContent = wrong ? `${wrong} wrong ${wrong === 1 ? "entry" : "entries"} marked.` : "No mistakes so far.";
  });

  document.getElementById("reveal").addEventListener("click", () => {
    revealed = true;
    state = state.map((_, i) => sudoku ? (given(i) ? "" : board.solution[i]) : (answer.has(i) ? 2 : 0));
    changed();
  });

  document.getElementById("reset").addEventListener("click", () => {
    state = new Array(n * n).fill(sudoku ? "" : 0);
    cursor = 0; started = Date.now(); stopped = null; revealed = false; hintAt = 0;
    document.body.classList.remove("solved"); delete grid.dataset.solved; status.textContent = "";
    changed(); tick();
  });

  document.getElementById("hint").addEventListener("click", () => {
    const done = (cell) => sudoku ? (given(cell[0] * 9 + cell[1]) || state[cell[0] * 9 + cell[1]] === board.solution[cell[0] * 9 + cell[1]])
                                  : state[cell[0] * n + cell[1]] === 2;
    while (hintAt < steps.length && (steps[hintAt].place || []).every(done)) hintAt++;
    cells.forEach((cell) => cell.classList.remove("hint"));
    if (hintAt >= steps.length) { why.textContent = steps.length ? "No more hints: every step is done." : "No solve path stored."; return; }
    const step = steps[hintAt];
    (step.place || []).forEach(([r, c]) => cells[r * n + c].classList.add("hint"));
    why.textContent = `Step ${hintAt + 1} of ${steps.length}: ${step.why}`;
  });

  grid.addEventListener("keydown", (event) => {
    const r = Math.floor(cursor / n), c = cursor % n;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[event.key]) {
      const [dr, dc] = moves[event.key];
      cursor = Math.min(n - 1, Math.max(0, r + dr)) * n + Math.min(n - 1, Math.max(0, c + dc));
      draw();
    } else if (event.key === " " || event.key === "Enter") {
      if (!sudoku) act(cursor);
    } else if (sudoku && /^[1-9]$/.test(event.key)) {
      act(cursor, event.key);
    } else if (sudoku && (event.key === "0" || event.key === "Backspace" || event.key === "Delete")) {
      act(cursor, "");
    } else return;
    event.preventDefault();
  });

  draw();
  tick();
}());
