"use strict";
(function () {
  // What to play comes from the board's game (its play spec); nothing here names a game.
  const play = JSON.parse(document.getElementById("play").textContent);
  const palette = JSON.parse(document.getElementById("palette").textContent);
  const digits = play.mode === "digits";
  const n = play.n;
  const region = (r, c) => play.areas[r][c];
  const answer = new Set(digits ? [] : play.answer);
  const given = (i) => digits && !!play.givens[i];
  const steps = play.hints || [];
  const grid = document.getElementById("grid"), status = document.getElementById("status");
  const why = document.getElementById("why"), timer = document.getElementById("timer");
  // marks: 0 empty, 1 ×, 2 star. digits: "" or a symbol.
  let state = new Array(n * n).fill(digits ? "" : 0);
  let cursor = 0, started = Date.now(), stopped = null, revealed = false, hintAt = 0;
  const cells = [];

  grid.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
  for (let i = 0; i < n * n; i++) {
    const r = Math.floor(i / n), c = i % n, cell = document.createElement("div");
    cell.className = "cell";
    cell.dataset.row = r; cell.dataset.col = c; cell.dataset.region = region(r, c);
    cell.setAttribute("role", "gridcell");
    cell.style.backgroundColor = play.coloured ? palette[region(r, c) % palette.length] : "#fff";
    if (r > 0 && region(r - 1, c) !== region(r, c)) cell.classList.add("bt");
    if (c > 0 && region(r, c - 1) !== region(r, c)) cell.classList.add("bl");
    if (c === n - 1) cell.style.borderRight = "none";
    if (r === n - 1) cell.style.borderBottom = "none";
    if (given(i)) { cell.textContent = play.givens[i]; cell.classList.add("given"); }
    cell.addEventListener("click", () => { cursor = i; act(i); grid.focus(); });
    grid.appendChild(cell); cells.push(cell);
  }

  function act(i, digit) {
    if (stopped && !revealed) return;
    if (digits) {
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
    if (digits) {
      const value = (i) => given(i) ? play.givens[i] : state[i];
      for (const unit of play.units) {
        const seen = new Map();
        for (const i of unit) {
          if (!value(i)) continue;
          if (seen.has(value(i))) { bad.add(i); bad.add(seen.get(value(i))); } else seen.set(value(i), i);
        }
      }
      return bad;
    }
    for (const unit of play.units) {
      const stars = unit.filter((i) => state[i] === 2);
      if (stars.length > play.per_unit) stars.forEach((i) => bad.add(i));
    }
    const stars = [];
    state.forEach((v, i) => { if (v === 2) stars.push(i); });
    for (const a of stars) for (const b of stars) {
      if (a >= b) continue;
      const dr = Math.abs(Math.floor(a / n) - Math.floor(b / n)), dc = Math.abs((a % n) - (b % n));
      if ((play.no_touch && dr <= 1 && dc <= 1) || (play.diagonals && dr === dc)) { bad.add(a); bad.add(b); }
    }
    return bad;
  }

  function draw() {
    const bad = conflicts();
    cells.forEach((cell, i) => {
      if (digits) {
        if (!given(i)) { cell.textContent = state[i]; cell.classList.toggle("entry", !!state[i]); }
      } else {
        cell.classList.toggle("mark", state[i] === 1);
        cell.classList.toggle("star", state[i] === 2);
      }
      cell.classList.toggle("conflict", bad.has(i));
      cell.classList.toggle("cursor", i === cursor);
      cell.setAttribute("aria-label", `row ${Math.floor(i / n) + 1} column ${(i % n) + 1}` +
        (digits ? (given(i) ? ` given ${play.givens[i]}` : state[i] ? ` ${state[i]}` : " empty")
                : ["", " marked", " star"][state[i]]));
    });
  }

  function isSolved() {
    if (digits) return state.every((v, i) => given(i) || v === play.answer[i]);
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
      const bad = digits ? (!given(i) && state[i] && state[i] !== play.answer[i]) : (state[i] === 2 && !answer.has(i));
      cell.classList.toggle("wrong", !!bad);
      if (bad) wrong++;
    });
    if (!stopped) status.textContent = wrong ? `${wrong} wrong ${wrong === 1 ? "entry" : "entries"} marked.` : "No mistakes so far.";
  });

  document.getElementById("reveal").addEventListener("click", () => {
    revealed = true;
    state = state.map((_, i) => digits ? (given(i) ? "" : play.answer[i]) : (answer.has(i) ? 2 : 0));
    changed();
  });

  document.getElementById("reset").addEventListener("click", () => {
    state = new Array(n * n).fill(digits ? "" : 0);
    cursor = 0; started = Date.now(); stopped = null; revealed = false; hintAt = 0;
    document.body.classList.remove("solved"); delete grid.dataset.solved; status.textContent = "";
    changed(); tick();
  });

  document.getElementById("hint").addEventListener("click", () => {
    const done = ([r, c]) => digits ? (given(r * n + c) || state[r * n + c] === play.answer[r * n + c])
                                    : state[r * n + c] === 2;
    while (hintAt < steps.length && steps[hintAt].cells.every(done)) hintAt++;
    cells.forEach((cell) => cell.classList.remove("hint"));
    if (hintAt >= steps.length) { why.textContent = steps.length ? "No more hints: every step is done." : "No solve path stored."; return; }
    const step = steps[hintAt];
    step.cells.forEach(([r, c]) => cells[r * n + c].classList.add("hint"));
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
      if (!digits) act(cursor);
    } else if (digits && event.key.length === 1 && play.symbols.includes(event.key)) {
      act(cursor, event.key);
    } else if (digits && (event.key === "0" || event.key === "Backspace" || event.key === "Delete")) {
      act(cursor, "");
    } else return;
    event.preventDefault();
  });

  draw();
  tick();
}());
