// scorecam's page: plain JavaScript, no build step. Every call goes to the JSON API under /api/;
// a refusal comes back as {"error": "one line"} and is shown at the top of the page as it is.
"use strict";

const TERRAIN = { water: "#2f7fd6", forest: "#1f6e28", desert: "#e6aa3c", plains: "#93dc5a" };
const POINT_LINES = [
  ["animals", "Animals"], ["landscapes", "Landscapes"], ["volcanoes", "Volcanoes"],
  ["empty_spaces", "Empty spaces"], ["misconnections", "Misconnections"], ["first_out", "Jumped out first"],
];
let photo = null; // the photo shown: the API's view of it
let openCell = null; // [row, tile] of the cell panel, counted from 1 (a sea's cell: ["sea", x, y])
let wholePicture = false; // the picture shows the island zoomed unless the player asks for it all

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : String(child));
  return node;
}

function svgEl(tag, attrs) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = !message;
}

async function api(method, url, body) {
  const options = { method, headers: {} };
  if (body instanceof FormData) options.body = body;
  else if (body !== undefined) {
    options.body = JSON.stringify(body);
    options.headers["Content-Type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {
    throw new Error("the server cannot be reached (" + error.message + ")");
  }
  let data = null;
  try { data = await response.json(); } catch (error) { data = null; }
  if (!response.ok) throw new Error((data && data.error) || `the server answered ${response.status}`);
  return data;
}

// --- views ---------------------------------------------------------------------------------------

function show(view) {
  for (const main of document.querySelectorAll(".view")) main.hidden = main.id !== "view-" + view;
}

async function route() {
  showError("");
  const hash = location.hash || "#/";
  let match;
  try {
    // each view is shown once its data is in: never a moment of the previous photo's score
    if ((match = hash.match(/^#\/photo\/(\d+)$/))) {
      const view = await api("GET", `/api/photos/${match[1]}`);
      renderPhoto(view);
      show("photo");
    } else if ((match = hash.match(/^#\/game\/(\d+)$/))) {
      const game = await api("GET", `/api/games/${match[1]}`);
      renderGame(game);
      show("game");
    } else if (hash === "#/games") {
      const games = await api("GET", "/api/games");
      renderGames(games);
      show("games");
    } else {
      show("home");
    }
  } catch (error) {
    showError(error.message);
  }
}

// --- a photo -------------------------------------------------------------------------------------

async function upload(file, url, fields = {}) {
  if (!file) return null;
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    for (const one of Array.isArray(value) ? value : [value]) form.append(key, one);
  }
  form.append("photo", file, file.name || "photo.jpg");
  showError("");
  $("busy").hidden = false;
  try {
    return await api("POST", url, form);
  } catch (error) {
    showError(error.message);
    return null;
  } finally {
    $("busy").hidden = true;
  }
}

async function uploadPhoto(input) {
  const view = await upload(input.files[0], "/api/photos", { grid: $("photo-grid").value });
  input.value = "";
  if (view) location.hash = `#/photo/${view.id}`;
}

function renderPhoto(view) {
  photo = view;
  const sea = view.game === "mediterraneo";
  $("board-section").hidden = sea;
  $("sea-section").hidden = !sea;
  $("sea-objectives").hidden = true; // a sea's objectives: renderSeaObjectives
  $("tap-hint").textContent = sea ? "Tap a cell (on the picture or in the sea below) to see what else it might be."
    : "Tap a tile (on the picture or below) to see what else it might be.";
  if (sea) {
    renderSeaPhoto(view);
    return;
  }
  const report = view.report;
  const player = report.players[0];
  $("photo-title").textContent = view.player ? `${view.player}, turn ${view.turn}` : view.name;
  const status = $("photo-status");
  status.textContent = report.status === "ok" ? "OK" : `CHECK ${report.flags.length}`;
  status.className = "badge " + report.status;
  $("photo-back").href = view.game_id ? `#/game/${view.game_id}` : "#/";
  renderPicture(view);
  renderScore(player);
  renderBoard(view);
  const checks = $("checks");
  checks.replaceChildren(...report.checks.map((check) => el("li", {},
    el("a", { href: "#", onclick: (event) => { event.preventDefault(); openCellPanel(check.row, check.tile); } },
      check.text))));
  const islandFlags = report.flags.filter((flag) => !report.checks.some((check) => check.text === flag));
  $("island-flags").textContent = islandFlags.join(" ");
  $("checks-section").hidden = report.flags.length === 0;
  $("undo").hidden = view.corrections.length === 0;
  if (openCell) openCellPanel(...openCell);
}

// The picture with a tappable outline on every cell; `key` names a cell (data-cell), `tap` opens it.
function renderPicture(view, key = (cell) => `${cell.row}-${cell.tile}`, tap = (cell) => openCellPanel(cell.row, cell.tile)) {
  const img = $("picture-img");
  const svg = $("picture-cells");
  $("picture").hidden = !view.picture;
  if (!view.picture) return;
  img.onload = () => {
    svg.setAttribute("viewBox", `0 0 ${img.naturalWidth} ${img.naturalHeight}`);
    frame(view);
  };
  if (img.getAttribute("src") !== view.picture.url) img.src = view.picture.url;
  const selected = openCell ? openCell.join("-").replace(/^sea-/, "sea:") : null;
  svg.replaceChildren(...view.cells.filter((cell) => cell.quad).map((cell) => {
    const points = cell.quad.map((p) => p.join(",")).join(" ");
    const polygon = svgEl("polygon", {
      points,
      class: "cell" + (cell.doubtful ? " doubtful" : "") + (cell.corrected ? " corrected" : "")
        + (selected === key(cell) ? " selected" : ""),
      "data-cell": key(cell),
    });
    polygon.addEventListener("click", () => tap(cell));
    return polygon;
  }));
}

// A small island is shown zoomed (its tiles big enough to tap); "Whole picture" shows all of it,
// the score panel that the picture carries on its right included.
function frame(view) {
  const img = $("picture-img");
  const outer = $("picture");
  const inner = $("picture-inner");
  const width = img.naturalWidth;
  const points = view.cells.filter((cell) => cell.quad).flatMap((cell) => cell.quad);
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const pad = 0.6 * Math.sqrt(((Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys))) / view.cells.length);
  const x0 = Math.max(0, Math.min(...xs) - pad);
  const y0 = Math.max(0, Math.min(...ys) - pad);
  const x1 = Math.min(view.picture.photo_width, Math.max(...xs) + pad);
  const y1 = Math.min(view.picture.photo_height, Math.max(...ys) + pad);
  const small = (x1 - x0) * (y1 - y0) < 0.35 * view.picture.photo_width * view.picture.photo_height;
  $("zoom").hidden = !small || !width;
  $("zoom").textContent = wholePicture ? "Zoom to the island" : "Whole picture";
  const zoom = small && !wholePicture && width > 0;
  outer.classList.toggle("zoomed", zoom);
  if (!zoom) {
    outer.style.aspectRatio = "";
    Object.assign(inner.style, { width: "100%", left: "0", top: "0" });
    return;
  }
  outer.style.aspectRatio = `${x1 - x0} / ${y1 - y0}`;
  Object.assign(inner.style, {
    width: `${(100 * width) / (x1 - x0)}%`,
    left: `${(-100 * x0) / (x1 - x0)}%`,
    top: `${(-100 * y0) / (y1 - y0)}%`,
  });
}

function renderScore(player) {
  const rows = [];
  if (player.valid) {
    for (const [key, label] of POINT_LINES) {
      const value = player.points[key];
      rows.push(el("tr", {}, el("td", {}, label), el("td", {}, (value > 0 ? "+" : "") + value)));
    }
  } else {
    rows.push(el("tr", {}, el("td", { colspan: 2 }, "Invalid island (breaks the water rule): it scores 0")));
  }
  rows.push(el("tr", { class: "total" }, el("td", {}, "Total"), el("td", { id: "total" }, player.total)));
  $("score-table").replaceChildren(...rows);
}

function tileSwatch(edges, animals, volcanoes) {
  const swatch = el("span", { class: "swatch" });
  if (!edges) {
    swatch.classList.add("empty");
    return swatch;
  }
  swatch.style.borderColor = edges.map((terrain) => TERRAIN[terrain] || "#888").join(" ");
  // animals as yellow discs and volcanoes as red triangles, as the picture marks them
  if (animals) swatch.append(el("b", { class: "animals", title: "animals" }, "●" + animals));
  if (volcanoes) swatch.append(el("b", { class: "volcanoes", title: "volcanoes" }, "▲" + volcanoes));
  return swatch;
}

function renderBoard(view) {
  const board = $("board");
  board.style.gridTemplateColumns = `repeat(${view.grid}, 1fr)`;
  board.replaceChildren(...view.cells.map((cell) => {
    const button = el("button", {
      type: "button",
      class: "board-cell" + (cell.doubtful ? " doubtful" : "") + (cell.corrected ? " corrected" : ""),
      "data-cell": `${cell.row}-${cell.tile}`,
      title: `Row ${cell.row}, tile ${cell.tile}: ${cell.words}`,
      onclick: () => openCellPanel(cell.row, cell.tile),
    }, tileSwatch(cell.edges, cell.animals, cell.volcanoes));
    return button;
  }));
}

async function openCellPanel(row, tile) {
  openCell = [row, tile];
  for (const node of document.querySelectorAll("[data-cell]")) {
    node.classList.toggle("selected", node.getAttribute("data-cell") === `${row}-${tile}`);
  }
  let cell;
  try {
    cell = await api("GET", `/api/photos/${photo.id}/cells/${row}/${tile}`);
  } catch (error) {
    showError(error.message);
    return;
  }
  $("cell-title").textContent = `Row ${row}, tile ${tile}`;
  $("cell-now").textContent = "Read as: " + cell.now + (cell.checks.length ? " — " + cell.checks.map((c) => c.question).join(" ") : "");
  const total = photo.report.players[0].total;
  $("alternatives").replaceChildren(...cell.alternatives.map((option, index) => {
    const change = option.total - total;
    const odds = option.p === null ? "" : option.p >= 0.01 ? ` ${Math.round(option.p * 100)}%` : " <1%";
    const button = el("button", {
      type: "button",
      class: "alternative",
      "data-alternative": index,
      "data-total": option.total,
      onclick: () => correct(row, tile, option.tile),
    },
    option.tile ? tileSwatch(["N", "E", "S", "W"].map((s) => option.tile.edges[s]), option.tile.animals, option.tile.volcanoes)
      : tileSwatch(null),
    el("span", { class: "words" }, option.words),
    el("span", { class: "odds" }, odds),
    el("span", { class: "then" }, `total ${option.total} (${change >= 0 ? "+" : ""}${change})` + (option.valid ? "" : ", invalid")));
    return el("li", {}, button);
  }));
  $("cell-right").hidden = cell.checks.length === 0;
  $("cell-panel").hidden = false;
  $("cell-panel").scrollIntoView({ block: "nearest", behavior: "smooth" });
}

// --- a sea (Mediterráneo) ------------------------------------------------------------------------

const ARROWS = { N: "↑", E: "→", S: "↓", W: "←" };
const SHORT = { starfish: "star", jellyfish: "jelly", seagull: "gull" };

function seaKey(cell) { return `sea:${cell.x}-${cell.y}`; }

function seaLabel(cell) {
  if (!cell) return "·";
  if (cell.content === "octopus") return "oct " + ARROWS[cell.points];
  return SHORT[cell.content] || cell.content;
}

function renderSeaPhoto(view) {
  const report = view.report;
  $("photo-title").textContent = view.round ? `Round ${view.round}: the sea` : view.name;
  const status = $("photo-status");
  status.textContent = view.status === "ok" ? "OK" : `CHECK ${view.flags.length}`;
  status.className = "badge " + view.status;
  $("photo-back").href = view.game_id ? `#/game/${view.game_id}` : "#/";
  renderPicture(view, seaKey, (cell) => openSeaCell(cell.x, cell.y));
  $("zoom").hidden = !view.picture;
  const rows = [el("tr", {}, el("th", {}, "Player"), el("th", {}, "+2 / −1"), el("th", {}, "Points"))];
  if (report) {
    for (const p of report.players) {
      rows.push(el("tr", { "data-player": p.name }, el("td", {}, p.name), el("td", {}, `${p.plus} / ${p.minus}`),
        el("td", { class: "total" }, p.total)));
    }
    const verdict = report.round_over ? (report.leader ? `Round over: ${report.leader} wins it` : "Round over: a tie")
      : `Leading: ${report.leader || "nobody (a tie)"}`;
    rows.push(el("tr", {}, el("td", { colspan: 3, id: "sea-verdict" }, verdict + (report.round_why ? ` (${report.round_why})` : ""))));
    if (!report.objectives_legal) rows.push(el("tr", {}, el("td", { colspan: 3, class: "flags" }, report.objectives_why)));
  }
  $("score-table").replaceChildren(...rows);
  renderSeaObjectives(view);
  const cells = view.cells;
  const xs = cells.map((c) => c.x);
  const ys = cells.map((c) => c.y);
  const x0 = Math.min(...xs);
  const y0 = Math.min(...ys);
  const grid = $("sea");
  grid.style.gridTemplateColumns = `repeat(${Math.max(...xs) - x0 + 1}, minmax(0, 1fr))`;
  grid.replaceChildren(...cells.map((cell) => {
    const button = el("button", {
      type: "button",
      class: "sea-cell" + (cell.cell && cell.cell.frame ? " " + cell.cell.frame : "") + (cell.cell ? " " + cell.cell.content : " none")
        + (cell.doubtful ? " doubtful" : "") + (cell.corrected ? " corrected" : ""),
      "data-cell": seaKey(cell),
      title: `(${cell.x}, ${cell.y}): ${cell.words}`,
      onclick: () => openSeaCell(cell.x, cell.y),
    }, seaLabel(cell.cell));
    button.style.gridColumn = String(cell.x - x0 + 1);
    button.style.gridRow = String(cell.y - y0 + 1);
    return button;
  }));
  const checks = report ? report.checks : [];
  $("checks").replaceChildren(...checks.map((check) => el("li", {},
    el("a", { href: "#", onclick: (event) => { event.preventDefault(); openSeaCell(check.x, check.y); } }, check.text))));
  $("island-flags").textContent = view.flags.filter((flag) => !checks.some((check) => check.text === flag)).join(" ");
  $("checks-section").hidden = view.flags.length === 0;
  $("undo").hidden = view.corrections.length === 0;
  if (openCell && openCell[0] === "sea") openSeaCell(openCell[1], openCell[2]);
}

// Each player's objective: read from the photo's objective card (a doubtful one highlighted), entered,
// or to choose (its card not found); changed here, the round is saved and the sea scored again.
function renderSeaObjectives(view) {
  const box = $("sea-objectives");
  box.hidden = !view.game_id || !view.objectives || !view.objectives.length;
  if (box.hidden) return;
  const form = el("form", { id: "objectives-form", class: "round-form" });
  if (view.objectives_needed) form.append(el("p", { class: "flags", id: "objectives-needed" }, view.objectives_needed));
  for (const o of view.objectives) {
    const select = el("select", { "data-objective": o.player },
      el("option", { value: "" }, "choose…"),
      ...view.objective_sides[o.player].map((side) => el("option", { value: `${side.plus}/${side.minus}` },
        `+2 ${side.plus}, −1 ${side.minus} (${side.card})`)));
    const now = o.objective || o.card; // not chosen yet: as its card reads, where it was found
    select.value = now ? `${now.plus}/${now.minus}` : "";
    const tag = o.from === "photo" ? (o.doubtful ? "read from the photo: check it" : "read from the photo")
      : o.from === "entered" ? "entered" : o.card ? "read from the photo" : "not in the photo: choose it";
    const state = o.doubtful ? " doubtful" : !o.objective && !o.card ? " missing" : o.from === "photo" || !o.objective ? " read" : "";
    form.append(el("label", { class: "objective" + state, "data-player": o.player },
      `${o.player}'s objective (${o.set}s) `, select, el("span", { class: "tag" }, tag)));
    if (o.note && !o.note.startsWith("read from the photo") && o.note !== view.objectives_needed) form.append(el("p", { class: "hint objective-note" }, o.note));
  }
  const settled = view.objectives.every((o) => o.objective) && !view.objectives.some((o) => o.doubtful);
  form.append(el("div", { class: "buttons" },
    el("button", { type: "submit", class: "small" + (settled ? "" : " primary") },
      settled ? "Score again with these objectives" : "These are the objectives: score")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    const objectives = {};
    for (const o of view.objectives) {
      const value = form.querySelector(`[data-objective="${o.player}"]`).value;
      if (!value) { showError(`choose ${o.player}'s objective`); return; }
      const [plus, minus] = value.split("/");
      objectives[o.player] = { plus, minus };
    }
    const rs = view.round_settings;
    try {
      await api("PUT", `/api/games/${view.game_id}/rounds/${view.round}`,
        { objectives, first: view.round === 1 ? rs.first : null, seagulls: rs.seagulls, cards_out: rs.cards_out });
      renderPhoto(await api("GET", `/api/photos/${view.id}`));
    } catch (error) {
      showError(error.message);
    }
  });
  box.replaceChildren(el("h2", {}, "Objectives"), form);
}

async function openSeaCell(x, y) {
  openCell = ["sea", x, y];
  for (const node of document.querySelectorAll("[data-cell]")) {
    node.classList.toggle("selected", node.getAttribute("data-cell") === `sea:${x}-${y}`);
  }
  let cell;
  try {
    cell = await api("GET", `/api/photos/${photo.id}/sea/${x}/${y}`);
  } catch (error) {
    showError(error.message);
    return;
  }
  $("cell-title").textContent = `Cell (${x}, ${y})`;
  $("cell-now").textContent = cell.checks.length ? cell.checks.map((c) => c.text.replace(/^Cell \([^)]*\): r/, "R")).join(" ") : "Read as: " + cell.now;
  $("alternatives").replaceChildren(...cell.alternatives.map((option, index) => {
    const points = option.points ? Object.entries(option.points).map(([name, total]) => `${name} ${total}`).join(" · ") : "";
    const button = el("button", {
      type: "button",
      class: "alternative",
      "data-alternative": index,
      onclick: () => correctSea(x, y, option.cell),
    },
    el("span", { class: "sea-cell swatch-sea" + (option.cell && option.cell.frame ? " " + option.cell.frame : "") }, seaLabel(option.cell)),
    el("span", { class: "words" }, option.words),
    el("span", { class: "odds" }, option.why && option.why.startsWith("the reader") ? "2nd reading" : ""),
    el("span", { class: "then" }, points));
    return el("li", {}, button);
  }));
  $("cell-right").hidden = cell.checks.length === 0;
  $("cell-panel").hidden = false;
  $("cell-panel").scrollIntoView({ block: "nearest", behavior: "smooth" });
}

async function correctSea(x, y, becomes) {
  showError("");
  try {
    const view = await api("POST", `/api/photos/${photo.id}/corrections`, { x, y, becomes });
    closeCellPanel();
    renderPhoto(view);
  } catch (error) {
    showError(error.message);
  }
}

function closeCellPanel() {
  openCell = null;
  for (const node of document.querySelectorAll("[data-cell].selected")) node.classList.remove("selected");
  $("cell-panel").hidden = true;
}

async function correct(row, tile, becomes) {
  showError("");
  try {
    const view = await api("POST", `/api/photos/${photo.id}/corrections`, { row, tile, becomes });
    closeCellPanel();
    renderPhoto(view);
  } catch (error) {
    showError(error.message);
  }
}

async function keepReading() {
  // "This reading is right": the cell keeps its tile, and its checks are settled
  if (openCell[0] === "sea") {
    const [, x, y] = openCell;
    const cell = photo.cells.find((c) => c.x === x && c.y === y);
    await correctSea(x, y, cell ? cell.cell : null);
    return;
  }
  const [row, tile] = openCell;
  const now = photo.report.board.tiles.find((t) => t.row === row - 1 && t.col === tile - 1) || null;
  await correct(row, tile, now);
}

async function undo() {
  try {
    renderPhoto(await api("DELETE", `/api/photos/${photo.id}/corrections/last`));
  } catch (error) {
    showError(error.message);
  }
}

// --- board files ---------------------------------------------------------------------------------

async function scoreBoardFile(input) {
  const file = input.files[0];
  input.value = "";
  if (!file) return;
  showError("");
  const out = $("board-report");
  out.replaceChildren();
  let data;
  try {
    data = JSON.parse(await file.text());
  } catch (error) {
    showError(`${file.name}: broken JSON (${error.message})`);
    return;
  }
  try {
    const report = await api("POST", "/api/boards", data);
    out.append(reportTable(report));
  } catch (error) {
    showError(`${file.name}: ${error.message}`);
  }
}

function reportTable(report) {
  const rows = [];
  if (report.game === "mediterraneo" && report.players && report.players[0] && "plus" in report.players[0]) {
    rows.push(el("tr", {}, el("th", {}, "Objective"), el("th", {}, "+ / −"), el("th", {}, "Points")));
    for (const p of report.players) {
      rows.push(el("tr", {}, el("td", {}, p.name), el("td", {}, `${p.plus} / ${p.minus}`), el("td", {}, p.total)));
    }
    if (report.octopuses && report.octopuses.length) {
      rows.push(el("tr", {}, el("td", { colspan: 3 }, report.octopuses.map((o) => `octopus (${o.x}, ${o.y}): ${o.becomes || "nothing"}`).join("; "))));
    }
    rows.push(el("tr", {}, el("td", { colspan: 3 }, report.round_over ? `Round over: ${report.leader || "a tie"}` : `Leading: ${report.leader || "a tie"}`)));
  } else if (report.players) {
    rows.push(el("tr", {}, el("th", {}, "Player"), el("th", {}, "Total")));
    for (const p of report.players) rows.push(el("tr", {}, el("td", {}, p.name), el("td", {}, p.total)));
  } else if (report.totals) {
    for (const [name, total] of Object.entries(report.totals)) rows.push(el("tr", {}, el("td", {}, name), el("td", {}, total)));
  } else {
    rows.push(el("tr", {}, el("td", {}, JSON.stringify(report).slice(0, 400))));
  }
  return el("table", { class: "score" }, ...rows);
}

// --- games ---------------------------------------------------------------------------------------

function renderGames(games) {
  $("games").replaceChildren(...games.map((game) =>
    el("li", {}, el("a", { href: `#/game/${game.id}` }, game.name), ` — ${game.players.join(", ")}`)));
  if (!games.length) $("games").append(el("li", {}, "No games yet."));
}

function gameKindChanged() {
  const sea = $("game-kind").value === "mediterraneo";
  $("grid-choice").hidden = sea;
  for (const label of document.querySelectorAll(".more-players")) label.hidden = sea;
  const seats = document.querySelectorAll(".seat");
  seats[0].textContent = sea ? "Player 1 (circles)" : "Player 1";
  seats[1].textContent = sea ? "Player 2 (squares)" : "Player 2";
  $("game-name").placeholder = sea ? "Mediterráneo match" : "Mondo game";
}

async function newGame(event) {
  event.preventDefault();
  const kind = $("game-kind").value;
  const inputs = [...document.querySelectorAll(".player-name")].filter((input) => !input.closest("[hidden]"));
  const players = inputs.map((input) => input.value.trim()).filter(Boolean);
  const body = { game: kind, name: $("game-name").value.trim() || null, players };
  if (kind === "mondo") body.grid = Number($("game-grid").value);
  try {
    const game = await api("POST", "/api/games", body);
    location.hash = `#/game/${game.id}`;
  } catch (error) {
    showError(error.message);
  }
}

function renderGame(game) {
  $("game-title").textContent = game.name;
  $("turns").hidden = game.game !== "mondo";
  $("rounds").hidden = game.game === "mondo";
  if (game.game === "mediterraneo") {
    renderMatch(game);
    return;
  }
  $("game-rule").textContent = game.grid ? `Islands of ${game.grid} × ${game.grid}.` : "Islands of 3 × 3 or 4 × 4 (each photo's grid guessed).";
  const result = $("game-result");
  if (game.complete) {
    result.textContent = game.winners.length > 1 ? `Shared win: ${game.winners.join(" and ")}` : `Winner: ${game.winners[0]}`;
  } else {
    const counted = game.turns.filter((turn) => turn.missing.length === 0).length;
    result.textContent = counted ? `After ${counted} of 3 turns, leading: ${game.leaders.join(" and ")}` : "No turn scored yet.";
  }
  result.className = "result" + (game.complete ? " done" : "");
  $("totals").replaceChildren(
    el("tr", {}, el("th", {}, "Player"), ...game.turns.map((t) => el("th", {}, `Turn ${t.turn}`)), el("th", {}, "Total")),
    ...game.players.map((name) => el("tr", { "data-player": name }, el("td", {}, name),
      ...game.turns.map((t) => el("td", {}, t.totals ? t.totals[name] : "–")),
      el("td", { class: "total" }, game.totals[name]))));
  $("turns").replaceChildren(...game.turns.map((turn) => renderTurn(game, turn)));
}

function renderTurn(game, turn) {
  const select = el("select", { "data-turn": turn.turn, onchange: (event) => setFirstOut(game.id, turn.turn, event.target.value) },
    el("option", { value: "" }, "nobody yet"), ...game.players.map((name) => el("option", { value: name }, name)));
  select.value = turn.first_out || "";
  const rows = turn.islands.map((island) => {
    const input = el("input", { type: "file", accept: "image/*", capture: "environment", hidden: "" });
    input.addEventListener("change", async () => {
      const view = await upload(input.files[0], `/api/games/${game.id}/turns/${turn.turn}/photos`, { player: island.player });
      input.value = "";
      if (view) location.hash = `#/photo/${view.id}`;
    });
    const state = island.photo === null ? "no island yet"
      : island.total !== null && island.total !== undefined ? `${island.total} points` : "photo in";
    return el("li", { "data-player": island.player },
      el("span", { class: "who" }, island.player),
      island.photo === null ? el("span", { class: "state" }, state)
        : el("a", { href: `#/photo/${island.photo}`, class: "state" + (island.status === "check" ? " check" : "") }, state + (island.status === "check" ? " (check)" : "")),
      el("label", { class: "button small" }, island.photo === null ? "Photo" : "Retake", input));
  });
  return el("section", { class: "turn" },
    el("h2", {}, `Turn ${turn.turn}`),
    el("label", {}, "Jumped out first: ", select),
    el("ul", { class: "islands" }, ...rows),
    turn.missing.length ? el("p", { class: "hint" }, `Waiting for: ${turn.missing.join(", ")}`) : "");
}

async function setFirstOut(gameId, turn, player) {
  try {
    renderGame(await api("PUT", `/api/games/${gameId}/turns/${turn}/first-out`, { player: player || null }));
  } catch (error) {
    showError(error.message);
  }
}

// --- start ---------------------------------------------------------------------------------------

window.addEventListener("hashchange", () => { closeCellPanel(); route(); });
document.addEventListener("DOMContentLoaded", () => {
  $("camera").addEventListener("change", (event) => uploadPhoto(event.target));
  $("photo-file").addEventListener("change", (event) => uploadPhoto(event.target));
  $("board-file").addEventListener("change", (event) => scoreBoardFile(event.target));
  $("cell-close").addEventListener("click", closeCellPanel);
  $("cell-right").addEventListener("click", keepReading);
  $("undo").addEventListener("click", undo);
  $("zoom").addEventListener("click", () => { wholePicture = !wholePicture; if (photo) frame(photo); });
  $("new-game").addEventListener("submit", newGame);
  $("game-kind").addEventListener("change", gameKindChanged);
  route();
});

// --- a Mediterráneo match ------------------------------------------------------------------------

function renderMatch(game) {
  const result = $("game-result");
  const wins = Object.entries(game.rounds_won).map(([name, n]) => `${name} ${n}`).join(", ");
  result.textContent = game.winner ? `Winner: ${game.winner}` : game.rounds.length ? `Rounds won: ${wins}` : "No round played yet.";
  result.className = "result" + (game.winner ? " done" : "");
  $("game-rule").textContent = `${game.players[0]} plays the circles, ${game.players[1]} the squares. Two rounds win.`;
  $("totals").replaceChildren(
    el("tr", {}, el("th", {}, "Round"), ...game.players.map((name) => el("th", {}, name)), el("th", {}, "Won by")),
    ...game.rounds.map((r) => el("tr", { "data-round": r.round }, el("td", {}, r.round),
      ...game.players.map((name) => el("td", {}, r.points ? r.points[name] : "–")),
      el("td", { class: "total" }, r.winner || (r.outcome === "replay" ? "replay" : r.outcome ? "not over" : "–")))),
    el("tr", { class: "total" }, el("td", {}, "Rounds won"), ...game.players.map((name) => el("td", { "data-player": name }, game.rounds_won[name])), el("td", {}, "")));
  const sections = game.rounds.map((r) => renderRound(game, r));
  if (game.next_round) sections.push(renderRound(game, null));
  if (game.removed.length) {
    sections.push(el("p", { class: "hint" }, "Left the game: " + game.removed.map((c) => `${c.card} (${c.player}, round ${c.round}: ${c.reason})`).join("; ")));
  }
  $("rounds").replaceChildren(...sections);
}

function renderRound(game, round) {
  const number = round ? round.round : game.next_round;
  const first = round ? round.first : game.first_next_round;
  const form = el("form", { class: "round-form", "data-round": number });
  const readFrom = round ? round.objectives_from || {} : {};
  for (const name of game.players) {
    // a new round's objectives may be left to the objective cards in its sea photo
    const fromCards = round ? [] : [el("option", { value: "" }, "read from its card in the sea photo")];
    const select = el("select", { "data-objective": name }, ...fromCards,
      ...game.objective_sides[name]
        // a card that left the game before this round is not chosen again
        .filter((side) => !game.removed.some((c) => c.card === side.card && c.round < number))
        .map((side) => el("option", { value: `${side.plus}/${side.minus}` },
        `+2 ${side.plus}, −1 ${side.minus} (${side.card})`)));
    if (round && round.objectives[name]) select.value = `${round.objectives[name].plus}/${round.objectives[name].minus}`;
    const marks = readFrom[name] === "photo" ? [el("span", { class: "tag" }, " (read from the photo)")] : [];
    form.append(el("label", {}, `${name}'s objective `, select, ...marks));
  }
  const firstSelect = el("select", { "data-first": "" }, ...game.players.map((name) => el("option", { value: name }, name)));
  firstSelect.value = first || game.players[0];
  if (number > 1) firstSelect.disabled = true; // the loser of the last round chooses first
  form.append(el("label", {}, "Chose an objective first: ", firstSelect));
  for (const name of game.players) {
    const box = el("input", { type: "checkbox", "data-seagull": name });
    box.checked = Boolean(round && round.seagulls.includes(name));
    form.append(el("label", { class: "inline" }, box, ` ${name} played the seagull card`));
  }
  const out = el("input", { type: "checkbox", "data-cards-out": "" });
  out.checked = Boolean(round && round.cards_out);
  form.append(el("label", { class: "inline" }, out, " The next player had no cards left"));
  const settings = () => ({
    objectives: Object.fromEntries(game.players.map((name) => {
      const [plus, minus] = form.querySelector(`[data-objective="${name}"]`).value.split("/");
      return [name, { plus, minus }];
    })),
    first: number === 1 ? firstSelect.value : null,
    seagulls: game.players.filter((name) => form.querySelector(`[data-seagull="${name}"]`).checked),
    cards_out: out.checked,
  });
  const save = async () => {
    await api("PUT", `/api/games/${game.id}/rounds/${number}`, settings());
  };
  // "" for every objective: they come from the sea's objective cards (the photo's, or the board file's)
  const unchosen = () => game.players.filter((name) => !form.querySelector(`[data-objective="${name}"]`).value);
  const saveOrLeave = async () => {
    const left = unchosen();
    if (left.length === game.players.length) return false;
    if (left.length) throw new Error(`choose ${left[0]}'s objective too, or leave both to the photo's cards`);
    await save();
    return true;
  };
  const photoInput = el("input", { type: "file", accept: "image/*", capture: "environment", hidden: "", "data-sea-photo": "" });
  photoInput.addEventListener("change", async () => {
    let saved;
    try { saved = await saveOrLeave(); } catch (error) { showError(error.message); photoInput.value = ""; return; }
    const { objectives, ...rest } = settings();
    const fields = saved ? {} : { ...(rest.first ? { first: rest.first } : {}), seagulls: rest.seagulls, cards_out: String(rest.cards_out) };
    const view = await upload(photoInput.files[0], `/api/games/${game.id}/rounds/${number}/photos`, fields);
    photoInput.value = "";
    if (view) location.hash = `#/photo/${view.id}`;
  });
  const boardInput = el("input", { type: "file", accept: ".json,application/json", hidden: "", "data-sea-board": "" });
  boardInput.addEventListener("change", async () => {
    const file = boardInput.files[0];
    boardInput.value = "";
    if (!file) return;
    showError("");
    try {
      const data = JSON.parse(await file.text());
      await saveOrLeave();
      const view = await api("POST", `/api/games/${game.id}/rounds/${number}/board`, data);
      location.hash = `#/photo/${view.id}`;
    } catch (error) {
      showError(`${file.name}: ${error.message}`);
    }
  });
  const buttons = el("div", { class: "buttons" },
    el("label", { class: "button small primary" }, round && round.sea ? "Retake the sea" : "Photo of the sea", photoInput),
    el("label", { class: "button small" }, "Sea board file", boardInput));
  if (round) {
    buttons.append(el("button", { type: "button", class: "small", onclick: async () => {
      try { await save(); renderGame(await api("GET", `/api/games/${game.id}`)); } catch (error) { showError(error.message); }
    } }, "Save and score again"));
  }
  form.append(buttons);
  const head = [el("h2", {}, `Round ${number}`)];
  if (round && round.sea) {
    const state = round.points ? Object.entries(round.points).map(([name, total]) => `${name} ${total}`).join(", ") : "";
    const verdict = round.problem || (round.winner ? `won by ${round.winner}` : round.outcome === "replay" ? "a tie with no cards left: replayed"
      : round.outcome === "tie_play_on" ? "a tie: play on" : "not over yet");
    head.push(el("p", {}, el("a", { href: `#/photo/${round.sea}`, class: "state" + (round.status === "check" ? " check" : "") },
      `The sea: ${state}` + (round.status === "check" ? " (check)" : "")), ` — ${verdict}`));
    if (round.objectives_legal === false) head.push(el("p", { class: "flags" }, round.objectives_why));
  } else if (round && round.problem) {
    head.push(el("p", { class: "flags" }, round.problem));
  } else if (!round && game.next_round_sea) {
    head.push(el("p", {}, el("a", { href: `#/photo/${game.next_round_sea}`, class: "state check", "data-waiting-sea": "" },
      "The sea: its objectives are needed (check)")));
  }
  return el("section", { class: "turn", "data-round": number }, ...head, form);
}
