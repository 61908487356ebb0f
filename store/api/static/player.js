"use strict";
(function () {
  // What to play comes from the board's game (its play spec); nothing here names a game.
  const play = JSON.parse(document.getElementById("play").textContent);
  const board = JSON.parse(document.getElementById("board").textContent);
  const colours = JSON.parse(document.getElementById("colours").textContent);
  const drawing = JSON.parse(document.getElementById("drawing").textContent);

  // Every word the page shows, by language; `?lang=ms` or the browser's language picks one.
  const WORDS = {
    en: {
      help_marks: "Tap a cell: empty → {cycle} → empty{drag}. Keys: arrows move, Space cycles, Backspace clears, " +
        "Ctrl+Z / Ctrl+Y undo and redo.", drag: "; drag to mark {memo} across cells",
      help_digits: "Tap a cell, then a digit on the pad; Notes pencils candidates in. Keys: arrows move, " +
        "digits fill, Backspace or 0 erases, N toggles notes, Ctrl+Z / Ctrl+Y undo and redo.",
      undo: "Undo", redo: "Redo", check: "Check", hint: "Hint", reveal: "Reveal", reset: "Reset",
      notes: "Notes", erase: "Erase", letters: "Region letters", autox: "Auto {memo}",
      grid: "{title} board", row: "row {r}", column: "column {c}", region: "region {x}",
      wrong: "wrong", empty: "empty", given: "given {d}", notes_of: "notes {d}",
      digit_key: "digit {d}", erase_key: "erase", notes_key: "notes",
      solved: "Solved in {t}! Well done.", revealed: "Solution revealed.", locked: "The answer is shown: Reset to play again.",
      wrong_one: "1 wrong entry marked.", wrong_many: "{n} wrong entries marked.", no_mistakes: "No mistakes so far.",
      step: "Step {i} of {n}", all_done: "No more hints: every step is done.", no_path: "No solve path stored.",
      finish_title: "Solved!", finish_time: "Your time: {t}", close: "Close",
      sum: "sum {s}", sums: "Sum {s} in {k}: {list}", no_combos: "none fits",
      puzzle_png: "Puzzle PNG", solution_png: "Solution PNG", print: "Print",
    },
    ms: {
      help_marks: "Ketik petak: kosong → {cycle} → kosong{drag}. Kekunci: anak panah bergerak, Space menukar, " +
        "Backspace memadam, Ctrl+Z / Ctrl+Y buat asal dan buat semula.", drag: "; seret untuk menanda {memo} pada beberapa petak",
      help_digits: "Ketik petak, kemudian digit pada pad; Nota mencatat calon dengan pensel. Kekunci: anak panah " +
        "bergerak, digit mengisi, Backspace atau 0 memadam, N menukar nota, Ctrl+Z / Ctrl+Y buat asal dan buat semula.",
      undo: "Buat asal", redo: "Buat semula", check: "Semak", hint: "Petunjuk", reveal: "Dedahkan", reset: "Set semula",
      notes: "Nota", erase: "Padam", letters: "Huruf kawasan", autox: "{memo} automatik",
      grid: "Papan {title}", row: "baris {r}", column: "lajur {c}", region: "kawasan {x}",
      wrong: "salah", empty: "kosong", given: "diberi {d}", notes_of: "nota {d}",
      digit_key: "digit {d}", erase_key: "padam", notes_key: "nota",
      solved: "Selesai dalam {t}! Syabas.", revealed: "Penyelesaian didedahkan.",
      locked: "Jawapan ditunjukkan: tekan Set semula untuk bermain lagi.",
      wrong_one: "1 isian salah ditanda.", wrong_many: "{n} isian salah ditanda.", no_mistakes: "Tiada kesilapan setakat ini.",
      step: "Langkah {i} daripada {n}", all_done: "Tiada lagi petunjuk: setiap langkah sudah selesai.",
      no_path: "Tiada laluan penyelesaian disimpan.",
      finish_title: "Selesai!", finish_time: "Masa anda: {t}", close: "Tutup",
      sum: "jumlah {s}", sums: "Jumlah {s} dalam {k}: {list}", no_combos: "tiada yang muat",
      puzzle_png: "PNG teka-teki", solution_png: "PNG penyelesaian", print: "Cetak",
    },
  };
  const asked = new URLSearchParams(location.search).get("lang") ||
    (navigator.languages || [navigator.language || "en"]).map((l) => String(l).slice(0, 2)).find((l) => WORDS[l]);
  const lang = WORDS[asked] ? asked : "en";
  // the game's own words for some of them (its phrases) stand in for the table's
  const phrases = Object.assign({}, WORDS[lang], (play.phrases || {})[lang]);
  const say = (key, values) => phrases[key].replace(/\{(\w+)\}/g, (_, k) => values[k]);
  document.documentElement.lang = lang;

  const digits = play.mode === "digits";
  const n = play.n, N = n * n;
  const givens = play.givens.length ? play.givens : new Array(N).fill("");
  const isGiven = (i) => !!givens[i];
  const isMemo = (symbol) => play.notes.includes(symbol);
  const memo = play.notes.length ? play.symbols.indexOf(play.notes[0]) + 1 : 0;   // marks: the drag's mark
  const wordFor = (symbol) => (play.words[lang] || {})[symbol] || (play.words.en || {})[symbol] || symbol;
  const area = (i) => play.areas[Math.floor(i / n)][i % n];
  const steps = play.hints || [];
  const $ = (id) => document.getElementById(id);
  const grid = $("grid"), status = $("status"), why = $("why"), timer = $("timer"), overlay = $("overlay");
  const storeKey = `puzzlefleet:play:${board.id}`, settingsKey = "puzzlefleet:settings";
  const unitsOf = Array.from({ length: N }, () => []);
  play.units.forEach((unit, u) => unit.forEach((i) => unitsOf[i].push(u)));
  // Sums: [total, cells] of the "sum" checks; each cell's sum (-1: none), and each sum's sets of
  // distinct symbols (read as numbers) of its size that make it, smallest first.
  const sums = play.checks.filter((check) => check.check === "sum").map((check) => [check.total, check.cells]);
  const sumOf = new Array(N).fill(-1);
  sums.forEach(([, members], k) => members.forEach((i) => { sumOf[i] = k; }));
  const sets = sums.map(([sum, members]) => {
    const out = [];
    (function pick(from, chosen, total) {
      if (chosen.length === members.length) { if (total === sum) out.push(chosen.join("")); return; }
      for (let k = from; k < play.symbols.length; k++) {
        pick(k + 1, [...chosen, play.symbols[k]], total + Number(play.symbols[k]));
      }
    }(0, [], 0));
    return out;
  });

  // The words: the table's, and the game's rules in this language where the game gives them.
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = say(el.dataset.t, { memo: play.notes[0] }); });
  $("help").textContent = say(digits ? "help_digits" : "help_marks", {
    cycle: play.symbols.join(" → "), drag: memo ? say("drag", { memo: play.notes[0] }) : "" });
  if (play.rules && play.rules[lang]) $("rules").textContent = play.rules[lang];
  grid.setAttribute("aria-label", say("grid", { title: board.title }));
  $("letters-option").hidden = !play.letters.length;
  $("autox-option").hidden = digits || !memo;

  // --- state: marks 0 empty, k the k-th of the symbols; digits "" or a symbol, with pencil notes ---------
  let value = new Array(N).fill(digits ? "" : 0);
  let notes = new Array(N).fill("");
  let cursor = 0, elapsed = 0, since = Date.now(), solved = false, revealed = false;
  let undos = [], redos = [], hintShown = -1, noteMode = false, wrongs = new Set();
  const settings = Object.assign({ letters: false, autox: false }, load(settingsKey));

  function load(key) {
    try { return JSON.parse(localStorage.getItem(key)) || {}; } catch (e) { return {}; }
  }
  function save() {
    try {
      localStorage.setItem(storeKey, JSON.stringify({ value, notes, elapsed: time(), solved, revealed,
                                                    undos: undos.slice(-100), redos: redos.slice(-100) }));
    } catch (e) { /* storage full or off: play on without it */ }
  }
  const saved = load(storeKey);
  if (Array.isArray(saved.value) && saved.value.length === N) {
    value = saved.value; notes = Array.isArray(saved.notes) && saved.notes.length === N ? saved.notes : notes;
    elapsed = +saved.elapsed || 0; solved = !!saved.solved; revealed = !!saved.revealed;
    undos = Array.isArray(saved.undos) ? saved.undos : []; redos = Array.isArray(saved.redos) ? saved.redos : [];
  }
  const locked = () => solved || revealed;
  const time = () => elapsed + (locked() ? 0 : Date.now() - since);

  function svgNode(tag, attrs) {
    const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    return el;
  }
  // A symbol in a cell: the game's glyph where it declares one (as the pictures draw it), else the symbol as type.
  function showSymbol(holder, symbol) {
    if (holder.dataset.symbol === symbol) return;
    holder.dataset.symbol = symbol;
    const shape = drawing.glyphs[symbol];
    if (!shape) { holder.textContent = symbol; return; }
    const picture = svgNode("svg", { viewBox: "0 0 1 1", class: "shape", "aria-hidden": "true" });
    picture.appendChild(svgNode("path", { d: shape.d, fill: shape.fill, stroke: shape.stroke, "stroke-width": 0.03,
                                          "stroke-linejoin": "round" }));
    holder.replaceChildren(picture);
  }

  // --- the grid: an ARIA grid of rows of cells, each with data-row and data-col (from 0) ---------------
  grid.style.setProperty("--n", n);
  grid.setAttribute("aria-rowcount", n); grid.setAttribute("aria-colcount", n);
  overlay.setAttribute("viewBox", `0 0 ${n} ${n}`);
  const cells = [], firstOfArea = new Set();
  const labelAt = new Map(drawing.outlines.map((outline) => [outline.first, outline.label]));
  for (let r = 0; r < n; r++) {
    const row = document.createElement("div");
    row.className = "row"; row.setAttribute("role", "row"); row.setAttribute("aria-rowindex", r + 1);
    for (let c = 0; c < n; c++) {
      const i = r * n + c, cell = document.createElement("div");
      cell.className = "cell"; cell.id = `cell-${i}`;
      cell.dataset.row = r; cell.dataset.col = c; cell.dataset.area = area(i);
      cell.setAttribute("role", "gridcell"); cell.setAttribute("aria-colindex", c + 1);
      cell.style.backgroundColor = colours[area(i)] || "#fff";
      if (r > 0 && play.areas[r - 1][c] !== area(i)) cell.classList.add("bt");
      if (c > 0 && play.areas[r][c - 1] !== area(i)) cell.classList.add("bl");
      if (c === n - 1) cell.classList.add("last-col");
      if (r === n - 1) cell.classList.add("last-row");
      if (play.letters.length && !firstOfArea.has(area(i))) {
        firstOfArea.add(area(i));
        const letter = document.createElement("span");
        letter.className = "lt"; letter.textContent = play.letters[area(i)]; letter.setAttribute("aria-hidden", "true");
        cell.appendChild(letter);
      }
      if (labelAt.has(i)) {     // an outline's label, small in the corner of its first cell
        const tag = document.createElement("span");
        tag.className = "sum"; tag.textContent = labelAt.get(i); tag.setAttribute("aria-hidden", "true");
        cell.appendChild(tag);
      }
      const bad = document.createElement("span");
      bad.className = "bad"; bad.textContent = "!"; bad.setAttribute("aria-hidden", "true");
      cell.appendChild(bad);
      const v = document.createElement("span"); v.className = "v";
      if (digits) {
        const pencil = document.createElement("span"); pencil.className = "notes"; pencil.setAttribute("aria-hidden", "true");
        cell.append(pencil);
      }
      cell.append(v);
      if (isGiven(i)) { showSymbol(v, givens[i]); cell.classList.add("given"); }
      row.appendChild(cell); cells.push(cell);
    }
    grid.appendChild(row);
  }
  if (drawing.outlines.length || drawing.edges.length) {   // outlines and clues on edges, over the cells
    const layer = svgNode("svg", { class: "parts", "aria-hidden": "true", viewBox: `0 0 ${n} ${n}`,
                                   preserveAspectRatio: "none" });
    for (const outline of drawing.outlines) layer.appendChild(svgNode("path", { class: "outline", d: outline.d }));
    for (const edge of drawing.edges) {
      const [a, b] = edge.cells;
      const g = svgNode("g", { class: "edge", "data-symbol": edge.symbol,
                               "data-cells": `${Math.floor(a / n)},${a % n} ${Math.floor(b / n)},${b % n}` });
      g.appendChild(svgNode("circle", { cx: edge.x, cy: edge.y, r: 0.17 }));
      for (const [x1, y1, x2, y2] of edge.strokes) g.appendChild(svgNode("line", { x1, y1, x2, y2 }));
      if (!edge.strokes.length) {
        const text = svgNode("text", { x: edge.x, y: edge.y, "text-anchor": "middle", "dominant-baseline": "central",
                                       "font-size": 0.3 });
        text.textContent = edge.symbol;
        g.appendChild(text);
      }
      layer.appendChild(g);
    }
    grid.appendChild(layer);
    if (drawing.outlines.length) document.body.classList.add("outlined");
  }

  // --- the digit pad: one key per symbol (data-digit), erase (data-digit="0") and the notes toggle -----
  const padKeys = {};
  if (digits) {
    const pad = $("pad");
    pad.hidden = false;
    for (const symbol of play.symbols) {
      const key = document.createElement("button");
      key.type = "button"; key.textContent = symbol; key.dataset.digit = symbol;
      key.setAttribute("aria-label", say("digit_key", { d: symbol }));
      pad.appendChild(key); padKeys[symbol] = key;
    }
    const erase = document.createElement("button");
    erase.type = "button"; erase.textContent = "⌫"; erase.dataset.digit = "0"; erase.title = say("erase", {});
    erase.setAttribute("aria-label", say("erase_key", {}));
    const noteKey = document.createElement("button");
    noteKey.type = "button"; noteKey.id = "notes"; noteKey.className = "wide"; noteKey.textContent = say("notes", {});
    noteKey.setAttribute("aria-pressed", "false");
    pad.append(erase, noteKey);
    pad.addEventListener("click", (event) => {
      const key = event.target.closest("button");
      if (!key) return;
      if (key === noteKey) { noteMode = !noteMode; draw(); return; }
      enter(cursor, key.dataset.digit === "0" ? "" : key.dataset.digit);
    });
  }

  // --- changes: each is one undo step; the board is saved after every one ------------------------------
  function snapshot() { return { value: value.slice(), notes: notes.slice() }; }
  function change(apply) {
    if (locked()) return;
    const before = snapshot();
    apply();
    if (JSON.stringify(before) === JSON.stringify(snapshot())) return;
    undos.push(before); redos = [];
    if (undos.length > 200) undos.shift();
    changed();
  }
  function changed() {
    wrongs = new Set();                  // Check's marks are for the board as it was
    if (hintShown >= 0 && stepDone(steps[hintShown])) clearHint();
    finishedCheck();
    draw(); save();
  }
  function undo() { travel(undos, redos); }
  function redo() { travel(redos, undos); }
  function travel(from, to) {
    if (locked() || !from.length) return;
    to.push(snapshot());
    ({ value, notes } = from.pop());
    changed();
  }

  function cycle(i) {        // marks: empty → each symbol in turn → empty
    if (isGiven(i)) return;
    change(() => {
      value[i] = (value[i] + 1) % (play.symbols.length + 1);
      if (settings.autox && memo && solid(i)) memoAround(i);
    });
  }
  function setMark(i, mark) { if (!isGiven(i)) change(() => { value[i] = mark; }); }

  // Auto-memo: the memo mark on the empty cells a placed symbol rules out by the checks (cells at an
  // "apart" offset, the rest of an "at_most" group it fills).
  function memoAround(i) {
    const symbol = solid(i), r0 = Math.floor(i / n), c0 = i % n;
    for (const check of play.checks) {
      if (check.symbol !== symbol) continue;
      if (check.check === "apart") {
        for (const [dr, dc] of check.offsets) {
          const r = r0 + dr, c = c0 + dc;
          if (r >= 0 && r < n && c >= 0 && c < n && !isGiven(r * n + c) && value[r * n + c] === 0) value[r * n + c] = memo;
        }
      } else if (check.check === "at_most" && check.cells.includes(i) &&
                 check.cells.filter((j) => solid(j) === symbol).length >= check.count) {
        check.cells.forEach((j) => { if (!isGiven(j) && value[j] === 0) value[j] = memo; });
      }
    }
  }

  function enter(i, symbol) {     // digits: a symbol, or "" to erase; in notes mode, toggle a pencil note
    if (isGiven(i)) return;
    change(() => {
      if (noteMode && symbol) {
        if (value[i]) return;
        notes[i] = notes[i].includes(symbol) ? notes[i].replace(symbol, "")
                                              : [...notes[i] + symbol].sort().join("");
      } else if (!symbol) {
        if (value[i]) value[i] = ""; else notes[i] = "";
      } else {
        value[i] = value[i] === symbol ? "" : symbol;
        if (value[i]) {         // a placed digit clears itself from the notes of the cells it sees
          notes[i] = "";
          for (const u of unitsOf[i]) for (const j of play.units[u]) notes[j] = notes[j].replace(symbol, "");
        }
      }
    });
  }

  // --- what the board shows -----------------------------------------------------------------------------
  // What a cell shows: its given, or the player's entry ("" for none); `solid` leaves memo marks out.
  const shown = (i) => isGiven(i) ? givens[i] : digits ? value[i] : value[i] ? play.symbols[value[i] - 1] : "";
  const solid = (i) => isMemo(shown(i)) ? "" : shown(i);
  const runs = [];          // every row and column as a line of cells, for the "no_run" checks
  for (let k = 0; k < n; k++) {
    runs.push(Array.from({ length: n }, (_, c) => k * n + c), Array.from({ length: n }, (_, r) => r * n + k));
  }
  function conflicts() {
    const bad = new Set();
    for (const check of play.checks) {
      if (check.check === "at_most") {
        const hits = check.cells.filter((i) => solid(i) === check.symbol);
        if (hits.length > check.count) hits.forEach((i) => bad.add(i));
      } else if (check.check === "distinct") {
        const seen = new Map();
        for (const i of check.cells) {
          if (!solid(i)) continue;
          if (seen.has(solid(i))) { bad.add(i); bad.add(seen.get(solid(i))); } else seen.set(solid(i), i);
        }
      } else if (check.check === "sum") {
        const placed = check.cells.map(solid);
        if (placed.every(Boolean) && placed.reduce((t, s) => t + Number(s), 0) !== check.total) check.cells.forEach((i) => bad.add(i));
      } else if (check.check === "same" || check.check === "different") {
        const [a, b] = check.cells;
        if (solid(a) && solid(b) && (solid(a) === solid(b)) !== (check.check === "same")) { bad.add(a); bad.add(b); }
      } else if (check.check === "apart") {
        const offsets = new Set(check.offsets.map(([dr, dc]) => `${dr},${dc}`));
        const holders = [];
        for (let i = 0; i < N; i++) if (solid(i) === check.symbol) holders.push(i);
        for (const a of holders) for (const b of holders) {
          if (a < b && offsets.has(`${Math.floor(b / n) - Math.floor(a / n)},${(b % n) - (a % n)}`)) { bad.add(a); bad.add(b); }
        }
      } else if (check.check === "no_run") {
        for (const line of runs) {
          let start = 0;
          for (let k = 1; k <= n; k++) {
            if (k < n && solid(line[k]) && solid(line[k]) === solid(line[start])) continue;
            if (solid(line[start]) && k - start >= check.length) line.slice(start, k).forEach((i) => bad.add(i));
            start = k;
          }
        }
      }
    }
    return bad;
  }

  function label(i) {
    const r = Math.floor(i / n), c = i % n;
    const parts = [say("row", { r: r + 1 }), say("column", { c: c + 1 })];
    if (play.letters.length) parts.push(say("region", { x: play.letters[area(i)] }));
    if (sumOf[i] >= 0) parts.push(say("sum", { s: sums[sumOf[i]][0] }));
    if (isGiven(i)) parts.push(say("given", { d: wordFor(givens[i]) }));
    else if (shown(i)) parts.push(wordFor(shown(i)));
    else parts.push(say("empty", {}), ...(notes[i] ? [say("notes_of", { d: [...notes[i]].join(" ") })] : []));
    if (wrongs.has(i)) parts.push(say("wrong", {}));
    return parts.join(", ");
  }

  // The selected cell's sum check: the sets that make its total, less those the symbols placed in it rule out.
  function combos(k) {
    const placed = sums[k][1].map(shown).filter(Boolean);
    const fits = (set) => new Set(placed).size === placed.length && placed.every((s) => set.includes(s));
    return sets[k].filter(fits);
  }
  function drawCombos() {
    const k = sumOf[cursor], line = $("combos");
    line.hidden = k < 0;
    if (k < 0) return;
    const list = combos(k);
    line.textContent = say("sums", { s: sums[k][0], k: sums[k][1].length,
                                       list: list.length ? list.join(" ") : say("no_combos", {}) });
  }

  function draw() {
    const bad = conflicts();
    const focus = new Set(), same = digits ? shown(cursor) : "";
    if (digits) for (const u of unitsOf[cursor]) play.units[u].forEach((i) => focus.add(i));
    cells.forEach((cell, i) => {
      if (digits) {
        if (!isGiven(i)) {
          cell.querySelector(".v").textContent = value[i];
          cell.classList.toggle("entry", !!value[i]);
          const pencil = cell.querySelector(".notes");
          const wanted = value[i] ? "" : notes[i];
          if (pencil.dataset.notes !== wanted) {
            pencil.dataset.notes = wanted;
            pencil.replaceChildren(...[...play.symbols].map((s) => {
              const slot = document.createElement("span"); slot.textContent = wanted.includes(s) ? s : ""; return slot;
            }));
          }
        }
        cell.classList.toggle("peer", focus.has(i) && i !== cursor);
        cell.classList.toggle("same", !!same && shown(i) === same && i !== cursor);
      } else if (!isGiven(i)) {
        showSymbol(cell.querySelector(".v"), shown(i));
        cell.classList.toggle("mark", !!shown(i) && isMemo(shown(i)));
        cell.classList.toggle("placed", !!solid(i));
      }
      cell.classList.toggle("conflict", bad.has(i));
      cell.classList.toggle("wrong", wrongs.has(i));
      cell.classList.toggle("cursor", i === cursor);
      cell.setAttribute("aria-selected", i === cursor ? "true" : "false");
      cell.setAttribute("aria-label", label(i));
    });
    grid.setAttribute("aria-activedescendant", `cell-${cursor}`);
    drawCombos();
    if (digits) {
      const count = {};
      cells.forEach((_, i) => { if (shown(i)) count[shown(i)] = (count[shown(i)] || 0) + 1; });
      for (const [symbol, key] of Object.entries(padKeys)) {
        key.classList.toggle("full", (count[symbol] || 0) >= n);
        key.disabled = locked();
      }
      $("notes").setAttribute("aria-pressed", String(noteMode));
      $("notes").disabled = locked();
      document.querySelector('#pad [data-digit="0"]').disabled = locked();
    }
    $("undo").disabled = locked() || !undos.length;
    $("redo").disabled = locked() || !redos.length;
    $("hint").disabled = $("reveal").disabled = locked();
    document.body.classList.toggle("letters", !!settings.letters);
    document.body.classList.toggle("locked", locked());
    document.body.classList.toggle("solved", locked());
    $("letters").checked = !!settings.letters;
    $("autox").checked = !!settings.autox;
  }

  // Solved when every cell holds its answer; a cell whose answer is "" takes a memo mark or nothing.
  function isSolved() {
    for (let i = 0; i < N; i++) if (solid(i) !== play.answer[i]) return false;
    return true;
  }

  function finishedCheck() {
    if (locked() || !isSolved()) return;
    elapsed = time(); solved = true;
    tick(); showStatus();
    $("finish-time").textContent = say("finish_time", { t: clock(elapsed) });
    $("finish").hidden = false;
    $("finish-close").focus();
  }
  function showStatus() {
    if (solved) status.textContent = say("solved", { t: clock(elapsed) });
    else if (revealed) status.textContent = say("revealed", {});
    else status.textContent = "";
    grid.dataset.solved = solved ? "true" : revealed ? "revealed" : "";
    if (!solved && !revealed) delete grid.dataset.solved;
  }

  const clock = (ms) => {
    const s = Math.floor(ms / 1000);
    return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
  };
  function tick() { timer.textContent = clock(time()); }
  setInterval(() => { tick(); if (!locked()) save(); }, 1000);

  // --- hints: the next step of the stored solve path, drawn on the board with its sentence ----------------
  // A step is done when what it places is on the board and what it clears is ruled out there: crossed
  // out or pencilled out by the player, or plainly out given the right entries already made.
  // A cell's symbol once the player has it right (given or placed), else "".
  const knownValue = (i) => solid(i) && solid(i) === play.answer[i] ? solid(i) : "";
  const answerSymbols = play.symbols.filter((symbol) => !isMemo(symbol));
  function ruledOut([r, c, symbol]) {
    const i = r * n + c;
    if (knownValue(i)) return true;
    if (digits) {
      if (notes[i] && !notes[i].includes(String(symbol))) return true;
      return unitsOf[i].some((u) => play.units[u].some((j) => knownValue(j) === String(symbol)));
    }
    if (shown(i) && isMemo(shown(i))) return true;
    // a step that clears a cell without naming a symbol clears the game's one answer symbol
    const gone = symbol === undefined ? answerSymbols[0] : String(symbol);
    return play.checks.some((check) => {
      if (check.symbol !== gone) return false;
      if (check.check === "apart") {
        return check.offsets.some(([dr, dc]) => r + dr >= 0 && r + dr < n && c + dc >= 0 && c + dc < n &&
                                               knownValue((r + dr) * n + c + dc) === gone);
      }
      return check.check === "at_most" && check.cells.includes(i) &&
             check.cells.filter((j) => knownValue(j) === gone).length >= check.count;
    });
  }
  function stepDone(step) {
    const placed = step.place.every(([r, c]) => !!knownValue(r * n + c));
    return placed && (step.place.length > 0 || step.clear.every(ruledOut));
  }
  function nextStep(after) {
    for (let i = after + 1; i < steps.length; i++) if (!stepDone(steps[i])) return i;
    return -1;
  }
  function clearHint() {
    hintShown = -1;
    document.body.classList.remove("hinting");    // letters shown while a hint names regions by them
    overlay.replaceChildren();
    why.textContent = "";
    $("hintbox").classList.add("quiet");
  }
  function showHint() {
    // Hint again while a step is shown: the one after it (so eliminations can be passed over).
    const at = nextStep(hintShown >= 0 ? hintShown : -1);
    const first = hintShown >= 0 && at < 0 ? nextStep(-1) : at;
    clearHint();
    $("hintbox").classList.remove("quiet");
    if (first < 0) { why.textContent = say(steps.length ? "all_done" : "no_path", {}); return; }
    hintShown = first;
    document.body.classList.add("hinting");
    const step = steps[first];
    const svg = svgNode;
    for (const unit of step.units) {            // the units it reasons about, outlined
      const inside = new Set(unit), edges = [];
      for (const i of unit) {
        const r = Math.floor(i / n), c = i % n;
        if (r === 0 || !inside.has(i - n)) edges.push(`M${c} ${r}h1`);
        if (r === n - 1 || !inside.has(i + n)) edges.push(`M${c} ${r + 1}h1`);
        if (c === 0 || !inside.has(i - 1)) edges.push(`M${c} ${r}v1`);
        if (c === n - 1 || !inside.has(i + 1)) edges.push(`M${c + 1} ${r}v1`);
      }
      const d = edges.join("");
      overlay.append(svg("path", { d, class: "unit-under", fill: "none", stroke: "#fff", "stroke-width": 7,
                                   "vector-effect": "non-scaling-stroke", "stroke-linecap": "square" }),
                     svg("path", { d, class: "unit", fill: "none", stroke: "#0072B2", "stroke-width": 4,
                                   "stroke-dasharray": "8 5", "vector-effect": "non-scaling-stroke" }));
    }
    for (const [r, c, symbol] of step.clear) {  // what it clears: a struck-through mark
      const g = svg("g", { class: "clear", "data-row": r, "data-col": c });
      if (digits) {
        const k = play.symbols.indexOf(String(symbol)), x = c + (k % 3 + .5) / 3, y = r + (Math.floor(k / 3) + .5) / 3;
        g.append(svg("circle", { cx: x, cy: y, r: .15, fill: "#fff", stroke: "#B00020", "stroke-width": 2,
                                 "vector-effect": "non-scaling-stroke" }),
                 svg("path", { d: `M${x - .1} ${y - .1}l.2 .2M${x + .1} ${y - .1}l-.2 .2`, stroke: "#B00020",
                               "stroke-width": 2, "vector-effect": "non-scaling-stroke" }));
      } else {
        g.append(svg("rect", { x: c + .12, y: r + .12, width: .76, height: .76, rx: .12, fill: "rgba(255,255,255,.55)",
                               stroke: "#B00020", "stroke-width": 2, "stroke-dasharray": "4 3",
                               "vector-effect": "non-scaling-stroke" }));
      }
      overlay.append(g);
    }
    for (const [r, c] of step.place) {          // what it places: a ring
      overlay.append(svg("rect", { class: "place", "data-row": r, "data-col": c, x: c + .06, y: r + .06,
                                   width: .88, height: .88, rx: .1, fill: "none", stroke: "#fff", "stroke-width": 7,
                                   "vector-effect": "non-scaling-stroke" }),
                     svg("rect", { x: c + .06, y: r + .06, width: .88, height: .88, rx: .1, fill: "none",
                                   stroke: "#0072B2", "stroke-width": 4, "vector-effect": "non-scaling-stroke" }));
    }
    const head = document.createElement("b");
    head.textContent = say("step", { i: first + 1, n: steps.length }) + ": ";
    why.replaceChildren(head, document.createTextNode(step.why));
  }

  // --- the buttons ----------------------------------------------------------------------------------------
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("hint").addEventListener("click", showHint);
  $("check").addEventListener("click", () => {
    // wrong: a symbol that is not the answer, or a memo mark where the answer has a symbol
    wrongs = new Set(cells.map((_, i) => i).filter((i) => !isGiven(i) && !!shown(i) &&
      (solid(i) ? solid(i) !== play.answer[i] : !!play.answer[i])));
    const wrong = wrongs.size;
    draw();
    if (!locked()) status.textContent = wrong === 1 ? say("wrong_one", {}) : wrong ? say("wrong_many", { n: wrong }) : say("no_mistakes", {});
  });
  $("reveal").addEventListener("click", () => {
    if (locked()) return;
    elapsed = time(); revealed = true;
    value = value.map((_, i) => isGiven(i) ? (digits ? "" : 0)
      : digits ? play.answer[i] : play.symbols.indexOf(play.answer[i]) + 1);
    notes = notes.map(() => ""); wrongs = new Set();
    clearHint(); showStatus();
    why.textContent = say("locked", {}); $("hintbox").classList.remove("quiet");
    draw(); save();
  });
  $("reset").addEventListener("click", () => {
    value = new Array(N).fill(digits ? "" : 0); notes = new Array(N).fill("");
    elapsed = 0; since = Date.now(); solved = false; revealed = false; undos = []; redos = [];
    $("finish").hidden = true;
    clearHint(); showStatus(); changed(); tick();
  });
  $("finish-close").addEventListener("click", () => { $("finish").hidden = true; grid.focus(); });
  for (const name of ["letters", "autox"]) {
    $(name).addEventListener("change", (event) => {
      settings[name] = event.target.checked;
      try { localStorage.setItem(settingsKey, JSON.stringify(settings)); } catch (e) { /* play on */ }
      draw();
    });
  }

  // --- touch and mouse: a tap acts on release (no click delay on phones); in mark games a drag crosses
  // out every empty cell it passes. A click with no press before it (assistive technology) taps too.
  let press = null, pressed = false;        // press: {start, dragging, before}
  const cellAt = (x, y) => {
    const el = document.elementFromPoint(x, y);
    const cell = el && el.closest ? el.closest("#grid .cell") : null;
    return cell ? cells.indexOf(cell) : -1;
  };
  function tap(i) {
    grid.focus({ preventScroll: true });
    cursor = i;
    if (!digits) cycle(i); else draw();
  }
  grid.addEventListener("pointerdown", (event) => {
    const i = cellAt(event.clientX, event.clientY);
    pressed = false;
    if (i < 0 || (event.pointerType === "mouse" && event.button !== 0)) return;
    press = { start: i, dragging: false, before: null };
    pressed = true;
    if (digits) { cursor = i; draw(); }
  });
  grid.addEventListener("pointermove", (event) => {
    if (!press || digits || !memo || locked()) return;
    if (event.pointerType === "mouse" && !(event.buttons & 1)) { press = null; return; }
    const i = cellAt(event.clientX, event.clientY);
    if (i < 0 || (i === press.start && !press.dragging)) return;
    if (!press.dragging) {
      press.dragging = true; press.before = snapshot();
      if (value[press.start] === 0 && !isGiven(press.start)) value[press.start] = memo;
    }
    if (value[i] === 0 && !isGiven(i)) value[i] = memo;
    cursor = i; draw();
  });
  const endPress = (event) => {
    if (press && press.dragging) {
      if (JSON.stringify(press.before) !== JSON.stringify(snapshot())) { undos.push(press.before); redos = []; changed(); }
    } else if (press && event.type === "pointerup" && cellAt(event.clientX, event.clientY) === press.start) {
      tap(press.start);
    }
    press = null;
  };
  window.addEventListener("pointerup", endPress);
  window.addEventListener("pointercancel", endPress);
  grid.addEventListener("click", (event) => {
    const cell = event.target.closest(".cell");
    if (pressed) { pressed = false; return; }      // the press already acted
    if (cell) tap(cells.indexOf(cell));
  });

  // --- keys ---------------------------------------------------------------------------------------------------
  document.addEventListener("keydown", (event) => {
    const key = event.key;
    if ((event.ctrlKey || event.metaKey) && !event.altKey) {
      const k = key.toLowerCase();
      if (k === "z" && !event.shiftKey) undo();
      else if (k === "y" || (k === "z" && event.shiftKey)) redo();
      else return;
      event.preventDefault();
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (key === "Escape" && !$("finish").hidden) { $("finish").hidden = true; grid.focus(); return; }
    const at = document.activeElement;
    if (at !== grid && at !== document.body && !(at && at.closest && at.closest("#pad"))) return;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const r = Math.floor(cursor / n), c = cursor % n;
    if (moves[key]) {
      const [dr, dc] = moves[key];
      cursor = Math.min(n - 1, Math.max(0, r + dr)) * n + Math.min(n - 1, Math.max(0, c + dc));
      draw();
    } else if (key === "Home" || key === "End") {
      cursor = r * n + (key === "Home" ? 0 : n - 1); draw();
    } else if (!digits && (key === " " || key === "Enter")) {
      cycle(cursor);
    } else if (!digits && (key === "Backspace" || key === "Delete")) {
      setMark(cursor, 0);
    } else if (!digits && memo && (key === "x" || key === "X")) {
      setMark(cursor, memo);
    } else if (digits && key.length === 1 && play.symbols.includes(key)) {
      enter(cursor, key);
    } else if (digits && (key === "0" || key === "Backspace" || key === "Delete")) {
      enter(cursor, "");
    } else if (digits && (key === "n" || key === "N")) {
      noteMode = !noteMode; draw();
    } else return;
    event.preventDefault();
  });

  // A page reloaded mid-game picks up where it was: the board, the clock, undo, a finished or revealed state.
  since = Date.now();
  clearHint(); showStatus();
  if (revealed) { why.textContent = say("locked", {}); $("hintbox").classList.remove("quiet"); }
  draw(); tick();
}());
